package envtest

import (
	"math"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
)

// WindingNumber is the generalized winding number of closed mesh m at p:
// the solid angles of its triangles seen from p (A. Van Oosterom, J.
// Strackee, "The solid angle of a plane triangle", IEEE Trans. Biomed.
// Eng. 30(2), 1983), summed over 4π. It is 1 inside and 0 outside (-1
// inside a mesh wound inward), whatever the mesh's structure.
func WindingNumber(m *env.Mesh, p geom.Vec3) float64 {
	w := 0.0
	for i := range m.Tris {
		t := m.Triangle(i)
		a, b, c := t[0].Sub(p), t[1].Sub(p), t[2].Sub(p)
		la, lb, lc := a.Len(), b.Len(), c.Len()
		w += 2 * math.Atan2(a.Dot(b.Cross(c)), la*lb*lc+a.Dot(b)*lc+b.Dot(c)*la+c.Dot(a)*lb)
	}
	return w / (4 * math.Pi)
}

// SurfaceDistance is the distance from p to the nearest triangle of m.
func SurfaceDistance(m *env.Mesh, p geom.Vec3) float64 {
	best := math.Inf(1)
	for i := range m.Tris {
		q, _ := geom.ClosestOnTriangle(m.Triangle(i), p)
		best = math.Min(best, q.Sub(p).Len())
	}
	return best
}
