package narrow

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/traversal"
)

// SolidPair is a candidate: a link whose box is near a scene object's.
type SolidPair struct{ Link, Object int32 }

// Contact is a link touching a scene object.
type Contact struct {
	Link, Object int
	// Depth is how far the link is in; Normal (unit) is the direction to
	// push the link out, from the object toward the link; Point is on the
	// object's surface.
	Depth  float64
	Normal mgl64.Vec3
	Point  mgl64.Vec3
	// Tris counts the object's triangles the link touches.
	Tris int
	// Exact is false when the depth is a conservative bound (see
	// PenetrationResult).
	Exact bool
}

// Near is a link within the proximity band of an object it does not touch.
type Near struct {
	Link, Object int
	Distance     float64
	Point        mgl64.Vec3 // closest point on the object
	LinkPoint    mgl64.Vec3 // closest point on the link
}

// Solver turns a frame's candidate pairs into contacts and near misses.
// It keeps one warm-start cache per (link, object) pair, reset when the
// pair has no candidate in a frame. After construction it allocates
// nothing per frame.
//
// Semantics. A convex scene object (env.Mesh.Convex) is a solid: a link
// inside it, even one touching none of its triangles, has the true
// convex-convex depth, normal and contact point (EPA). A closed non-convex
// object (env.Surface.Closed: watertight, consistently wound) is a solid
// too: a link wholly inside it is in contact, and the depth is that of the
// deepest vertex of either body inside the other (see meshDepth), the point
// on the object's surface. Any other object is an open surface with an
// outward side, the side its winding faces (counter-clockwise): the depth
// is how far the link's deepest vertex is behind the surface where the
// surface's nearest point to it is not on its boundary, or the deepest
// surface vertex inside the link. A link that has passed wholly through an
// open surface touches nothing.
type Solver struct {
	// Proximity is the band within which non-touching links are reported
	// as near.
	Proximity float64
	// Caching turns the per-pair warm start on (the default).
	Caching bool
	// CountTris counts, for each contact with a solid object, the object's
	// triangles the link touches (the default). It is the narrow phase's
	// most expensive part when links sink deep into finely tessellated
	// solids.
	CountTris bool

	Contacts []Contact
	Near     []Near

	links    []*Polytope
	boxes    []geom.OBB // each link's box in its frame, to skip far triangles
	geoms    []linkGeom // each link's faces and diameter
	scene    *env.Mesh
	solids   []*Polytope    // per object: its hull if convex, else nil
	trees    []*env.Tree    // per convex object: its triangles, to count contacts
	treeTris [][]int32      // per convex object: its tree's triangles in the scene's numbering
	surfs    []*env.Surface // per non-convex object: its signed distance
	caches   []Cache        // per (link, object)
	seen     []bool
	triVert  [3]mgl64.Vec3
	tri      Polytope
	counting // count.go's buffers

	hints    []int32 // per (link, object, link vertex): last nearest triangle
	maxVerts int     // the most vertices of a link
	nearest  traversal.SurfaceQuery
	touched  []int32
	clear    []clearance // per (link, object)
	nearHint []int32     // per (link, object): last nearest triangle
	band     []traversal.Pending
	stamp    []uint32 // per scene vertex: stampGen when already tested this pair
	stampGen uint32
	corner   [8]mgl64.Vec3
	boxPoly  Polytope
	boxCache Cache // GJK's start from the last box tried: nodes' boxes are alike
}

// NewSolver prepares a solver for links (each a convex polytope in its
// own frame) against a scene whose objects' convexity is known.
func NewSolver(links []*Polytope, scene *env.Mesh) (*Solver, error) {
	if len(scene.Convex) != len(scene.Objects) {
		return nil, fmt.Errorf("narrow: scene convexity not detected (call Mesh.DetectConvex)")
	}
	s := &Solver{links: links, scene: scene, Caching: true, CountTris: true}
	for i, l := range links {
		var f geom.Fitter
		s.boxes = append(s.boxes, f.Fit(l.Verts, nil))
		g, err := newLinkGeom(l, s.boxes[i])
		if err != nil {
			return nil, fmt.Errorf("narrow: link %d: %w", i, err)
		}
		s.geoms = append(s.geoms, g)
		s.maxVerts = max(s.maxVerts, len(l.Verts))
	}
	s.solids = make([]*Polytope, len(scene.Objects))
	for o, convex := range scene.Convex {
		if !convex {
			continue
		}
		h, ok := scene.ObjectHull(o)
		if !ok {
			continue
		}
		p, err := NewPolytope(h.Verts, h.Tris)
		if err != nil {
			return nil, fmt.Errorf("narrow: object %s: %w", scene.Objects[o], err)
		}
		s.solids[o] = p
	}
	s.trees = make([]*env.Tree, len(scene.Objects))
	s.surfs = make([]*env.Surface, len(scene.Objects))
	s.treeTris = make([][]int32, len(scene.Objects))
	for o := range scene.Objects {
		if s.solids[o] == nil {
			surf, err := env.NewSurface(scene, o)
			if err != nil {
				return nil, fmt.Errorf("narrow: %w", err)
			}
			s.surfs[o] = surf
			continue
		}
		sub, orig := scene.Subset(func(i int) bool { return int(scene.Object[i]) == o })
		s.treeTris[o] = orig
		t, err := env.Build(sub, env.BuildOptions{})
		if err != nil {
			return nil, fmt.Errorf("narrow: object %s: %w", scene.Objects[o], err)
		}
		s.trees[o] = t
	}
	n := len(links) * len(scene.Objects)
	s.caches, s.seen = make([]Cache, n), make([]bool, n)
	s.hints = make([]int32, n*s.maxVerts)
	for i := range s.hints {
		s.hints[i] = -1
	}
	s.clear, s.nearHint = make([]clearance, n), make([]int32, n)
	s.stamp = make([]uint32, len(scene.Verts))
	for i := range s.nearHint {
		s.nearHint[i] = -1
	}
	s.tri.Verts = s.triVert[:]
	return s, nil
}

// Solid reports whether object o is handled as a convex solid (its
// candidates are links, not triangles).
func (s *Solver) Solid(o int) bool { return s.solids[o] != nil }

// ObjectTris returns, for each triangle of ObjectTree(o), its index in the
// scene.
func (s *Solver) ObjectTris(o int) []int32 {
	if s.surfs[o] != nil {
		return s.surfs[o].Tris
	}
	return s.treeTris[o]
}

// ObjectTree returns object o's own OBBTree.
func (s *Solver) ObjectTree(o int) *env.Tree {
	if s.surfs[o] != nil {
		return s.surfs[o].Tree
	}
	return s.trees[o]
}

// Solve computes the frame's contacts and near misses from the link poses
// and the candidate (link, object) pairs: every link whose box is within
// the proximity band of the object's box. Results are ordered by link,
// then object.
func (s *Solver) Solve(poses []geom.Transform, cands []SolidPair) {
	s.Contacts, s.Near = s.Contacts[:0], s.Near[:0]
	nObj := len(s.scene.Objects)
	clear(s.seen)
	for _, p := range cands {
		l, o := int(p.Link), int(p.Object)
		k := l*nObj + o
		if s.seen[k] {
			continue // listed twice
		}
		s.begin(k)
		link := Shape{P: s.links[l], X: poses[l]}
		switch {
		case s.solids[o] != nil:
			s.solid(&link, l, o)
		case !s.surface(&link, l, o):
			s.clearOf(&link, l, o)
		}
	}
	for k, seen := range s.seen {
		if !seen {
			s.caches[k].Reset()
		}
	}
	slices.SortFunc(s.Contacts, func(a, b Contact) int {
		return cmp.Compare(a.Link*nObj+a.Object, b.Link*nObj+b.Object)
	})
	slices.SortFunc(s.Near, func(a, b Near) int {
		return cmp.Compare(a.Link*nObj+a.Object, b.Link*nObj+b.Object)
	})
}

// begin marks pair k as present this frame.
func (s *Solver) begin(k int) {
	s.seen[k] = true
	if !s.Caching {
		s.caches[k].Reset()
	}
}

// solid handles a link against a convex object.
func (s *Solver) solid(link *Shape, l, o int) {
	cache := &s.caches[l*len(s.scene.Objects)+o]
	obj := Shape{P: s.solids[o], X: geom.Identity()}
	p, ok := PenetrationCached(link, &obj, cache)
	if !ok {
		d := Distance(link, &obj, cache)
		if !d.Overlap {
			if d.Distance <= s.Proximity {
				s.Near = append(s.Near, Near{Link: l, Object: o, Distance: d.Distance, Point: d.PointB, LinkPoint: d.PointA})
			}
			return
		}
		p = Penetration(link, &obj, &d, cache)
	}
	tris := 0
	if s.CountTris {
		tris, _ = s.countTris(link, l, o, 0)
	}
	s.Contacts = append(s.Contacts, Contact{Link: l, Object: o, Depth: p.Depth, Normal: p.Normal, Point: p.PointB, Tris: tris, Exact: p.Exact})
}

func (s *Solver) setTriangle(tri int32) geom.Triangle {
	t := s.scene.Triangle(int(tri))
	s.triVert = t
	s.tri.measure()
	return t
}

func (s *Solver) touchesTriangle(link *Shape, t geom.Triangle) bool {
	s.triVert = t
	s.tri.measure()
	sh := Shape{P: &s.tri, X: geom.Identity()}
	return Intersects(link, &sh)
}

// surface handles link l against non-convex object o and reports whether
// they touch: whether the link meets a triangle of o (all counted, by the
// object's tree, when counts are wanted). A link that meets none is left
// to clearOf: it is wholly outside, or wholly inside a closed object.
func (s *Solver) surface(link *Shape, l, o int) bool {
	c := Contact{Link: l, Object: o, Exact: true}
	limit := 1
	if s.CountTris {
		limit = 0
	}
	n, first := s.countTris(link, l, o, limit)
	if n == 0 {
		return false
	}
	if s.CountTris {
		c.Tris = n
	}
	inv := link.X.Inverse()
	near := s.meshDepth(link, inv, &c)
	if c.Depth == 0 {
		s.shallow(&c, &near, first)
	}
	k := l*len(s.scene.Objects) + o
	s.clear[k] = clearance{}
	s.Contacts = append(s.Contacts, c)
	return true
}
