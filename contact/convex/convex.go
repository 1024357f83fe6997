package convex

import (
	"errors"
	"unsafe"

	"github.com/gloved/gloved/contact"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/narrow"
	"github.com/gloved/gloved/traversal"
)

// Name is the method's name in configurations.
const Name = "convex"

func init() {
	contact.Register(contact.Method{
		Name:  Name,
		Doc:   "a convex solid: GJK distance, EPA depth, normal and contact point, even for a link wholly inside; named for an object that is not convex, it is the object's convex hull",
		Rank:  10,
		Takes: func(k contact.Kind) bool { return k.Convex },
		Refuses: func(k contact.Kind) error {
			if !k.Hull {
				return errNoHull
			}
			return nil
		},
		Prepare: Prepare,
	})
}

// errNoHull refuses an object whose vertices span no solid.
var errNoHull = errors.New("its vertices have no convex hull (they lie in one plane): name the method surface for it")

// Object is a scene object as a convex solid.
type Object struct {
	links []contact.Link
	hull  *narrow.Polytope
	tree  *env.Tree
	opt   contact.Options
	*kept
	count  contact.Counter
	root   [1]int32 // the front a count starts from: the tree's root
	forked bool     // a fork, which shares kept
}

// kept is what an object keeps of each link from frame to frame, made
// by Ready when a link first comes near it (some 600 bytes a link): a
// scene of many small solids holds it only for those the hand has met.
// Its forks share it.
type kept struct {
	caches []narrow.Cache      // per link
	clear  []contact.Clearance // per link: how far it was when last measured beyond the band
}

var (
	_ contact.Forker = (*Object)(nil)
	_ contact.Lazy   = (*Object)(nil)
)

// Bytes returns the bytes o holds of its own (contact.Sized): itself and,
// unless a fork, what it keeps of the links.
func (o *Object) Bytes() int {
	n := int(unsafe.Sizeof(*o))
	if !o.forked {
		n += int(unsafe.Sizeof(*o.kept)) + contact.SliceBytes(o.caches) + contact.SliceBytes(o.clear)
	}
	return n
}

// Fork returns an Object sharing o's hull, tree and warm starts, with a
// counter of its own (contact.Forker).
func (o *Object) Fork() contact.Object {
	return &Object{links: o.links, hull: o.hull, tree: o.tree, opt: o.opt, kept: o.kept, root: o.root, forked: true}
}

// Ready makes what o keeps of the links, if no link has come near it
// before (contact.Lazy); Clear, which the traversal asks of every
// candidate before any is answered, makes it too.
func (o *Object) Ready() {
	if o.caches == nil {
		o.caches, o.clear = make([]narrow.Cache, len(o.links)), make([]contact.Clearance, len(o.links))
	}
}

// Prepare makes object p.Object of p.Scene a convex solid: its convex
// hull, queried by GJK and EPA, and its own tree of its triangles, which
// a contact's count of the triangles it touches descends.
func Prepare(p contact.Prep) (contact.Object, error) {
	h, ok := p.Scene.ObjectHull(p.Object)
	if !ok {
		return nil, errNoHull
	}
	poly, err := narrow.NewPolytope(h.Verts, h.Tris)
	if err != nil {
		return nil, err
	}
	sub, _ := p.Scene.ObjectMesh(p.Object)
	tree, err := env.Build(sub, env.BuildOptions{})
	if err != nil {
		return nil, err
	}
	return New(poly, tree, p.Links, p.Options), nil
}

// New makes a convex solid of hull for links, with tree the object's
// triangles (a contact counts those it touches in it):
// Prepare's object, for another method to build on.
func New(hull *narrow.Polytope, tree *env.Tree, links []contact.Link, o contact.Options) *Object {
	return &Object{links: links, hull: hull, tree: tree, opt: o, kept: &kept{}}
}

// Tree returns the object's tree of its triangles.
func (o *Object) Tree() *env.Tree { return o.tree }

// Front reports false: GJK and EPA need the hull alone, and only a
// contact (a few links a frame) counts the triangles it touches, from the
// tree's root. A front for every candidate would cost more than the
// counts: on the room of gloved bench scenes, 24 us a frame for the
// fronts against 3 us saved in the counts.
func (o *Object) Front() bool { return false }

// Clear reports whether link l, now at pose x, is still beyond the band:
// the last frame that measured it found it farther than the band by more
// than it has moved since (never with the accelerations off).
func (o *Object) Clear(l int, x geom.Transform) bool {
	o.Ready()
	return !o.opt.NoAccel && o.clear[l].Holds(&o.links[l], x, o.opt.Proximity)
}

// Forget drops link l's warm start.
func (o *Object) Forget(l int) {
	if o.caches != nil {
		o.caches[l].Reset()
	}
}

// Collide measures link c.Link, at pose x, against the solid: its depth,
// normal and point when they overlap, from the last frame's polytope when
// it still holds, else its distance, near when within the band, and
// beyond it kept as the pair's clearance (Clear).
func (o *Object) Collide(c *traversal.Candidate, x geom.Transform, out *contact.Results) {
	l := int(c.Link)
	cache := &o.caches[l]
	if o.opt.NoAccel {
		cache.Reset()
	}
	link := narrow.Shape{P: o.links[l].Poly, X: x}
	obj := narrow.Shape{P: o.hull, X: geom.Identity()}
	o.clear[l] = contact.Clearance{}
	p, ok := narrow.PenetrationCached(&link, &obj, cache)
	if !ok {
		d := narrow.Distance(&link, &obj, cache)
		if !d.Overlap {
			// GJK's distance can exceed the true one by its tolerance (1e-12
			// of |v|², so 1e-6 of it at most): a part in a million off
			// keeps it a lower bound, once GJK has converged (stopped at its
			// iteration cap, the distance is only an upper bound).
			if lb := d.Distance * (1 - 1e-6); d.Converged && lb > o.opt.Proximity {
				o.clear[l] = contact.Clearance{X: x, Dist: lb}
			}
			if d.Distance <= o.opt.Proximity {
				out.Near = append(out.Near, contact.Near{Link: l, Object: int(c.Object), Distance: d.Distance, Point: d.PointB, LinkPoint: d.PointA})
			}
			return
		}
		p = narrow.Penetration(&link, &obj, &d, cache)
	}
	tris := 0
	if o.opt.CountTris {
		o.root[0] = o.tree.Root
		tris, _ = o.count.Count(o.tree, o.root[:], &o.links[l], x, 0)
	}
	out.Contacts = append(out.Contacts, contact.Contact{Link: l, Object: int(c.Object), Depth: p.Depth, Normal: p.Normal, Point: p.PointB, Tris: tris, Exact: p.Exact})
}
