package env

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
)

// Nearest is the point of a surface closest to a query point p, and the
// side p is on.
type Nearest struct {
	Tri   int32 // the tree's triangle (Surface.Tris maps it to the mesh's)
	Point mgl64.Vec3
	Dist  float64
	// Out is the unit direction out of the surface at Point: from p toward
	// Point when p is inside, from Point toward p when outside (the
	// feature's pseudonormal when p is on the surface, within onSurfaceTol).
	Out mgl64.Vec3
	// Inside reports that p is inside a closed surface, or behind an open
	// one where it is not on the boundary.
	Inside bool
	// Boundary reports that Point is on an open surface's boundary, where
	// there is no side: Inside is then false.
	Boundary bool
}

// onSurfaceTol is the distance (m) within which a point counts as on the
// surface for the direction out of it: nearer, p - Point is rounding noise
// (a transformed corner resting on a face is off by ~1e-17 m in any
// direction), and the feature's pseudonormal is the direction.
const onSurfaceTol = 1e-9

// SurfaceQuery finds nearest points. It owns the search stack, so a query
// reused across frames allocates nothing once the stack has grown. Not
// safe for concurrent use.
type SurfaceQuery struct {
	stack []Pending
}

// Pending is a tree reference waiting in a nearest-first search, with a
// lower bound on its distance (or squared distance, or any key that orders
// the search) to what is searched for.
type Pending struct {
	Ref int32
	LB  float64
}

// Nearest returns the point of s closest to p, if one is within maxDist
// (+Inf for no limit). hint, a tree triangle or -1, is where to start:
// last frame's answer for a point that moved little, whose distance
// bounds the search from the first step. The search is depth first,
// nearer box first, and prunes every box farther than the best so far.
func (q *SurfaceQuery) Nearest(s *Surface, p mgl64.Vec3, maxDist float64, hint int32) (Nearest, bool) {
	t := s.Tree
	bound := maxDist * maxDist
	best, bestF, found := Nearest{Tri: -1}, geom.Face, false
	try := func(i int32) {
		c, f := geom.ClosestOnTriangle(t.Mesh.Triangle(int(i)), p)
		if d := c.Sub(p).LenSqr(); d < bound || (!found && d <= bound) {
			best.Tri, best.Point, bestF, bound, found = i, c, f, d, true
		}
	}
	if hint >= 0 && int(hint) < len(t.Mesh.Tris) {
		try(hint)
	}
	st := append(q.stack[:0], Pending{t.Root, 0})
	for len(st) > 0 {
		r := st[len(st)-1]
		st = st[:len(st)-1]
		if r.LB > bound {
			continue
		}
		if k, ok := Leaf(r.Ref); ok {
			if k != hint {
				try(k)
			}
			continue
		}
		st = t.PushNearer(st, r, bound, func(b *geom.OBB) float64 { return b.DistSqTo(p) })
	}
	q.stack = st
	if !found {
		return best, false
	}
	best.Dist = math.Sqrt(bound)
	s.classify(&best, bestF, p)
	return best, true
}

// PushNearer pushes the children of node r whose lower bounds, by lb of
// their boxes, are within bound, the nearer last so that a depth-first
// search pops it first. A triangle child inherits r's own bound (its box
// holds the triangle); its test comes when it is popped.
func (t *Tree) PushNearer(st []Pending, r Pending, bound float64, lb func(*geom.OBB) float64) []Pending {
	var c [2]Pending
	for k, ch := range t.Nodes[r.Ref].Child {
		c[k] = Pending{ch, r.LB}
		if ch >= 0 {
			c[k].LB = lb(&t.Nodes[ch].Box)
		}
	}
	if c[0].LB < c[1].LB {
		c[0], c[1] = c[1], c[0]
	}
	for _, x := range c {
		if x.LB <= bound {
			st = append(st, x)
		}
	}
	return st
}

// classify fills n's side from the feature its point lies on.
func (s *Surface) classify(n *Nearest, f geom.Feature, p mgl64.Vec3) {
	side, ok := s.side(n.Tri, f)
	if !ok {
		n.Boundary = true
		if n.Dist > 0 {
			n.Out = p.Sub(n.Point).Mul(1 / n.Dist)
		}
		return
	}
	d := p.Sub(n.Point)
	n.Inside = d.Dot(side) < 0
	switch {
	case n.Dist <= onSurfaceTol:
		n.Out = side.Normalize()
	case n.Inside:
		n.Out = d.Mul(-1 / n.Dist)
	default:
		n.Out = d.Mul(1 / n.Dist)
	}
}
