package env

import (
	"github.com/gloved/gloved/geom"
)

// Nearest is the point of a surface closest to a query point p, and the
// side p is on.
type Nearest struct {
	Tri   int32 // the tree's triangle (Surface.Tris maps it to the mesh's)
	Point geom.Vec3
	Dist  float64
	// Out is the unit direction out of the surface at Point: from p toward
	// Point when p is inside, from Point toward p when outside (the
	// feature's pseudonormal when p is on the surface, within onSurfaceTol).
	Out geom.Vec3
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

// Classify fills n's side from the feature f of triangle n.Tri that its
// point lies on, for query point p.
func (s *Surface) Classify(n *Nearest, f geom.Feature, p geom.Vec3) {
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
