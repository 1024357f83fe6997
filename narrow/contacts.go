package narrow

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
)

// Pair is a candidate from the traversal: a link and a scene triangle.
type Pair struct{ Link, Tri int32 }

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
// convex-convex depth, normal and contact point. Any other object is a
// surface of triangles with an outward side, the side its winding faces
// (counter-clockwise): for each triangle the link crosses, the depth is how
// far the link must move along that triangle's outward normal to clear
// its plane, and the pair reports its deepest triangle. The limits: a link
// that has passed wholly through a thin or open surface touches nothing,
// and a link poking through the back of a thin wall reports the depth
// toward the wall's front; zero-area triangles have no side and are
// skipped.
type Solver struct {
	// Proximity is the band within which non-touching links are reported
	// as near.
	Proximity float64
	// Caching turns the per-pair warm start on (the default).
	Caching bool

	Contacts []Contact
	Near     []Near

	links   []*Polytope
	boxes   []geom.OBB // each link's box in its frame, to skip far triangles
	scene   *env.Mesh
	solids  []*Polytope // per object: its hull if convex, else nil
	caches  []Cache     // per (link, object)
	seen    []bool
	triVert [3]mgl64.Vec3
	tri     Polytope
}

// NewSolver prepares a solver for links (each a convex polytope in its
// own frame) against a scene whose objects' convexity is known.
func NewSolver(links []*Polytope, scene *env.Mesh) (*Solver, error) {
	if len(scene.Convex) != len(scene.Objects) {
		return nil, fmt.Errorf("narrow: scene convexity not detected (call Mesh.DetectConvex)")
	}
	s := &Solver{links: links, scene: scene, Caching: true}
	for _, l := range links {
		var f geom.Fitter
		s.boxes = append(s.boxes, f.Fit(l.Verts, nil))
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
	n := len(links) * len(scene.Objects)
	s.caches, s.seen = make([]Cache, n), make([]bool, n)
	s.tri.Verts = s.triVert[:]
	return s, nil
}

// Solve computes the frame's contacts and near misses from the candidates
// (sorted in place) and the link poses. Results are ordered by link, then
// object.
func (s *Solver) Solve(poses []geom.Transform, cands []Pair) {
	s.Contacts, s.Near = s.Contacts[:0], s.Near[:0]
	nObj := len(s.scene.Objects)
	key := func(p Pair) int { return int(p.Link)*nObj + int(s.scene.Object[p.Tri]) }
	slices.SortFunc(cands, func(a, b Pair) int {
		if c := cmp.Compare(key(a), key(b)); c != 0 {
			return c
		}
		return cmp.Compare(a.Tri, b.Tri)
	})
	clear(s.seen)
	for i := 0; i < len(cands); {
		k := key(cands[i])
		j := i + 1
		for j < len(cands) && key(cands[j]) == k {
			j++
		}
		l, o := int(cands[i].Link), int(s.scene.Object[cands[i].Tri])
		s.seen[k] = true
		if !s.Caching {
			s.caches[k].Reset()
		}
		link := Shape{P: s.links[l], X: poses[l]}
		if s.solids[o] != nil {
			s.solid(&link, l, o, cands[i:j])
		} else {
			s.surface(&link, l, o, cands[i:j])
		}
		i = j
	}
	for k, seen := range s.seen {
		if !seen {
			s.caches[k].Reset()
		}
	}
}

// solid handles a link against a convex object.
func (s *Solver) solid(link *Shape, l, o int, cands []Pair) {
	cache := &s.caches[l*len(s.scene.Objects)+o]
	obj := Shape{P: s.solids[o], X: geom.Identity()}
	d := Distance(link, &obj, cache)
	if !d.Overlap {
		if d.Distance <= s.Proximity {
			s.Near = append(s.Near, Near{Link: l, Object: o, Distance: d.Distance, Point: d.PointB, LinkPoint: d.PointA})
		}
		return
	}
	p := Penetration(link, &obj, &d)
	tris := 0
	box := s.boxes[l].Transformed(link.X)
	for _, c := range cands {
		if geom.TriOBB(s.scene.Triangle(int(c.Tri)), box) && s.touchesTriangle(link, c.Tri) {
			tris++
		}
	}
	s.Contacts = append(s.Contacts, Contact{Link: l, Object: o, Depth: p.Depth, Normal: p.Normal, Point: p.PointB, Tris: tris, Exact: p.Exact})
}

func (s *Solver) setTriangle(tri int32) geom.Triangle {
	t := s.scene.Triangle(int(tri))
	s.triVert = t
	s.tri.measure()
	return t
}

func (s *Solver) touchesTriangle(link *Shape, tri int32) bool {
	s.setTriangle(tri)
	sh := Shape{P: &s.tri, X: geom.Identity()}
	return Intersects(link, &sh)
}

// surface handles a link against a triangle surface.
func (s *Solver) surface(link *Shape, l, o int, cands []Pair) {
	cache := &s.caches[l*len(s.scene.Objects)+o]
	best := Contact{Link: l, Object: o, Depth: -1, Exact: true}
	nearest := Near{Link: l, Object: o, Distance: s.Proximity}
	found := false
	for _, c := range cands {
		t := s.setTriangle(c.Tri)
		n := t.Normal()
		if n.LenSqr() == 0 || t.Degenerate() {
			continue
		}
		n = n.Normalize()
		sh := Shape{P: &s.tri, X: geom.Identity()}
		d := Distance(link, &sh, cache)
		if !d.Overlap {
			if d.Distance <= nearest.Distance {
				nearest.Distance, nearest.Point, nearest.LinkPoint = d.Distance, d.PointB, d.PointA
				found = true
			}
			continue
		}
		// Depth toward the triangle's outward side: the link's deepest
		// point along -n, measured from the triangle's plane.
		deep, _ := link.support(n.Mul(-1), 0)
		depth := n.Dot(t[0]) - n.Dot(deep)
		if depth < 0 {
			depth = 0
		}
		best.Tris++
		if depth > best.Depth {
			best.Depth, best.Normal, best.Point = depth, n, deep.Add(n.Mul(depth))
		}
	}
	if best.Tris > 0 {
		s.Contacts = append(s.Contacts, best)
		return
	}
	if found {
		s.Near = append(s.Near, nearest)
	}
}
