package mesh

import (
	"context"
	"fmt"
	"math"

	"github.com/gloved/gloved/contact"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/narrow"
	"github.com/gloved/gloved/traversal"
)

// The methods' names in configurations.
const (
	Solid   = "solid"   // a closed mesh: a link wholly inside it is in contact
	Surface = "surface" // an open surface with an outward side
)

func init() {
	contact.Register(contact.Method{
		Name:  Solid,
		Doc:   "a closed non-convex mesh (watertight, consistently wound) as a solid: the depth of the deepest vertex of either body inside the other, a link wholly inside it in contact",
		Rank:  20,
		Takes: func(k contact.Kind) bool { return !k.Convex && k.Closed },
		Refuses: func(k contact.Kind) error {
			if !k.Closed {
				return errNotClosed
			}
			return nil
		},
		Prepare: func(p contact.Prep) (contact.Object, error) { return prepare(p, true) },
	})
	contact.Register(contact.Method{
		Name:    Surface,
		Doc:     "an open surface with an outward side (its winding's): how far the link is behind it locally; a link that passed wholly through touches nothing",
		Rank:    20,
		Takes:   func(k contact.Kind) bool { return !k.Convex && !k.Closed },
		Prepare: func(p contact.Prep) (contact.Object, error) { return prepare(p, false) },
	})
}

// errNotClosed refuses a solid that is not closed.
var errNotClosed = fmt.Errorf("it is not closed (watertight, consistently wound), so it has no inside: name the method %s for it", Surface)

// Object is a non-convex scene object: a closed solid or an open surface.
type Object struct {
	links []contact.Link
	surf  *env.Surface
	solid bool // a solid (closed) rather than an open surface
	opt   contact.Options
	// grid bounds how far each link is from the surface, and for a solid
	// which side of it a point is, before any exact query (nil with the
	// accelerations off, and for an object too small for one:
	// gridMinTris).
	grid *env.Grid
	// crosses is set for a solid whose surface crosses itself, where one
	// vertex of a link no triangle meets does not tell for the others
	// whether they are inside (found at load, with the accelerations on).
	crosses bool
	// What it keeps of each link between frames, made when one first
	// comes near (kept.go); its forks share it.
	*kept
	maxVerts int
	// The range of vertices its triangles use: from vertBase, vertCount.
	vertBase, vertCount int32
	// Scratch, reused every frame, made by the first Collide of the
	// object or fork: a scene of many objects has it only for those the
	// hand has met.
	*scratch
	forked bool // a fork, which shares kept and grid
}

// scratch is what an Object or fork uses within a frame.
type scratch struct {
	nearVert int // the link vertex near came from (linkVerticesIn)
	// The link vertex the depth came from, and the vertices to query in
	// their order (linkVerticesIn).
	depthVert int
	order     []vertReach
	provenOut []bool // per link vertex: proven outside the solid without a query (linkVerticesIn)
	leftOut   bool   // some vertex was, so the second pass has some to take
	count     contact.Counter
	nearest   traversal.SurfaceQuery
	pending   []traversal.Pending
	boxes     env.BoxCache // packed tree boxes decoded
	stamp     []uint32     // per vertex of the object (from vertBase): stampGen when already tested
	stampGen  uint32
	tri       narrow.Polytope
	triVert   [3]geom.Vec3
	corner    [8]geom.Vec3
	boxPoly   narrow.Polytope
	boxCache  narrow.Cache // GJK's start from the last box tried: nodes' boxes are alike
}

var _ contact.Forker = (*Object)(nil)

// prepare makes object p.Object of p.Scene a solid or an open surface.
func prepare(p contact.Prep, solid bool) (*Object, error) {
	shared := p.Options.Shared
	if shared == nil {
		shared = contact.NewShared(p.Scene)
	}
	surf := p.Surface
	if surf == nil {
		var err error
		if surf, err = shared.Surface(p.Object); err != nil {
			return nil, err
		}
	}
	if solid && !surf.Closed {
		return nil, errNotClosed
	}
	o := &Object{links: p.Links, surf: surf, solid: solid, opt: p.Options, kept: &kept{}}
	for _, l := range p.Links {
		o.maxVerts = max(o.maxVerts, len(l.Poly.Verts))
	}
	lo, hi := objectVerts(surf.Tree.Mesh)
	o.vertBase, o.vertCount = lo, hi-lo
	if !p.Options.NoAccel {
		if solid {
			var err error
			if o.crosses, err = contact.Prepared(shared, p.Object, "self-crossing", func(ctx context.Context) (bool, error) { return crosses(ctx, surf) }); err != nil {
				return nil, err
			}
		}
		// A surface the grid cannot map (coordinates near float64's
		// limits) goes without it: it only ever saves work.
		sides := solid && !o.crosses
		var err error
		if len(surf.Tree.Mesh.Tris) >= gridMinTris {
			o.grid, err = contact.Prepared(shared, p.Object, gridName(solid, sides), func(context.Context) (*env.Grid, error) { return newGrid(surf, sides) })
		}
		if err != nil {
			o.grid = nil
		}
	}
	return o, nil
}

// Fork returns an Object sharing o's surface, grid and everything it
// keeps per link, with scratch of its own, made by its first Collide
// (contact.Forker).
func (o *Object) Fork() contact.Object {
	return &Object{links: o.links, surf: o.surf, solid: o.solid, opt: o.opt, grid: o.grid, crosses: o.crosses,
		kept: o.kept, maxVerts: o.maxVerts, vertBase: o.vertBase, vertCount: o.vertCount, forked: true}
}

// gridName is what a grid is kept as in contact.Shared: a solid's knows
// which side its cells are on unless it crosses itself, a surface's does
// not.
func gridName(solid, sides bool) string {
	switch {
	case sides:
		return "solid grid"
	case solid:
		return "crossed solid grid"
	}
	return "grid"
}

// gridMinTris is the fewest triangles an object needs for a grid: below
// it, the grid's floor of 4096 cells is more than the 32 a triangle it
// may take (env.NewGrid), and the exact query it would spare descends a
// tree of fewer triangles than that. A scene of thousands of small
// objects would spend 4 KiB on each.
const gridMinTris = 128

// newGrid maps surf's cells, and with sides which side of the surface
// each is on, one for each empty region of space the surface divides.
// A closed surface that crosses itself (env.Tree.SelfCrossing) gets no
// sides: which side of it a point is on follows its nearest part, and can
// change within one region, so the grid could tell it otherwise than the
// exact query.
func newGrid(surf *env.Surface, sides bool) (*env.Grid, error) {
	var inside func(geom.Vec3) bool
	if sides {
		var q traversal.SurfaceQuery
		inside = func(x geom.Vec3) bool {
			n, ok := q.Nearest(surf, x, math.Inf(1), -1)
			return ok && n.Inside
		}
	}
	return env.NewGrid(surf.Tree.Mesh, 0, inside)
}

// crosses reports whether surf crosses itself (env.Tree.SelfCrossing),
// or ctx's error once it ends.
func crosses(ctx context.Context, surf *env.Surface) (bool, error) {
	_, _, ok, err := surf.Tree.SelfCrossingContext(ctx)
	return ok, err
}

// objectVerts returns the range of vertex indices m's triangles use.
func objectVerts(m *env.Mesh) (lo, hi int32) {
	lo, hi = math.MaxInt32, 0
	for _, t := range m.Tris {
		for _, v := range t {
			lo, hi = min(lo, v), max(hi, v+1)
		}
	}
	return lo, hi
}

// Tree returns the object's own tree (its Surface's).
func (o *Object) Tree() *env.Tree { return o.surf.Tree }

// Front reports true: the triangles a link's box meets are where it can
// touch the object.
func (o *Object) Front() bool { return true }

// Clear reports whether link l, now at pose x, is proven beyond the band
// and outside: it cannot have come within the band since the frame that
// measured it apart (it has moved less than that distance less the band),
// or the grid puts its box farther than the band from the surface, and
// outside a solid.
func (o *Object) Clear(l int, x geom.Transform) bool {
	o.Ready() // the traversal asks every candidate, before any is answered
	if o.opt.NoAccel {
		return false // nothing is carried from frame to frame
	}
	// A solid that crosses itself can have a link go from outside to
	// inside without coming near it (its side follows its nearest part):
	// no clearance passes its pairs over (clearOf still takes it as a
	// bound on the distance, and asks only for the side).
	cl := &o.clear[l]
	if !o.crosses && cl.Holds(&o.links[l], x, o.opt.Proximity) {
		return true
	}
	if o.grid == nil {
		return false
	}
	box := o.links[l].Box.Transformed(x).AABB()
	gap := o.grid.GapAtLeast(box, o.opt.Proximity)
	if gap <= o.opt.Proximity {
		return false
	}
	// The box meets no cell the surface passes through, so it lies on one
	// side of it, which its centre tells.
	if in, sure := o.grid.Side(box.Center()); o.solid && !(sure && !in) {
		return false
	}
	*cl = contact.Clearance{X: x, Dist: gap} // the next frames need not look again
	return true
}

// Forget drops link l's GJK warm start; the nearest-triangle hints stay,
// as good a start as any.
func (o *Object) Forget(l int) {
	if o.caches != nil {
		o.caches[l].Reset()
	}
}

// forgetAll drops everything link l's pair carried from earlier frames:
// the warm start, the nearest-triangle hints, the clearance.
func (o *Object) forgetAll(l int) {
	o.caches[l].Reset()
	o.nearHint[l], o.clear[l], o.cuts[l].valid = -1, contact.Clearance{}, false
	for i := range o.maxVerts {
		o.hints[l*o.maxVerts+i] = -1
	}
	clear(o.vertClears(l))
}

// Collide answers candidate c, the link at pose x: a contact when the
// link meets a triangle of the front (or, for a solid, lies wholly
// inside it), else near when within the band.
func (o *Object) Collide(c *traversal.Candidate, x geom.Transform, out *contact.Results) {
	if c.Clear {
		return
	}
	if o.scratch == nil { // the object's, or the fork's, first candidate
		o.scratch = &scratch{provenOut: make([]bool, o.maxVerts), stamp: make([]uint32, o.vertCount)}
	}
	l := int(c.Link)
	if o.opt.NoAccel {
		o.forgetAll(l)
	}
	link := narrow.Shape{P: o.links[l].Poly, X: x}
	if !o.touch(c, &link, out) {
		o.clearOf(&link, l, int(c.Object), out)
	}
}

// touch handles link l against the object and reports whether they touch:
// whether the link meets a triangle of c's front (all counted when counts
// are wanted). A link that meets none is left to clearOf: it is wholly
// outside, or wholly inside a solid.
func (o *Object) touch(c *traversal.Candidate, link *narrow.Shape, out *contact.Results) bool {
	l := int(c.Link)
	ct := contact.Contact{Link: l, Object: int(c.Object), Exact: true}
	limit := 1
	if o.opt.CountTris {
		limit = 0
	}
	n, first := o.count.Count(o.surf.Tree, c.Front, &o.links[l], link.X, limit)
	if n == 0 {
		return false
	}
	if o.opt.CountTris {
		ct.Tris = n
	}
	near := o.meshDepth(link, c.Front, &ct)
	if ct.Depth == 0 {
		o.shallow(&ct, &near, first, link.X)
	}
	o.clear[l] = contact.Clearance{}
	out.Contacts = append(out.Contacts, ct)
	return true
}

// setTriangle points the scratch polytope at the tree's triangle tri.
func (o *Object) setTriangle(tri int32) {
	o.triVert = o.surf.Tree.Mesh.Triangle(int(tri))
	o.tri.Verts = o.triVert[:]
	o.tri.Measure()
}
