package geom

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// TriOBB reports whether triangle t and box b (both in the same frame)
// intersect, touching included. It is the separating-axis test over the box's
// three face axes, the triangle's normal and the nine box-axis × edge
// products, which is exact for a box of positive volume and any triangle; for
// a box that has collapsed to a segment it may report a touching pair that is
// in fact apart, never the reverse.
func TriOBB(t Triangle, b OBB) bool {
	// Corners in the box's frame.
	var v [3]mgl64.Vec3
	s := maxAbs(b.Half)
	for i := range 3 {
		d := t[i].Sub(b.Center)
		v[i] = mgl64.Vec3{d.Dot(b.Axis(0)), d.Dot(b.Axis(1)), d.Dot(b.Axis(2))}
		s = math.Max(s, maxAbs(v[i]))
	}
	tol := overlapTol * s
	h := b.Half
	for k := range 3 {
		lo := math.Min(v[0][k], math.Min(v[1][k], v[2][k]))
		hi := math.Max(v[0][k], math.Max(v[1][k], v[2][k]))
		if lo > h[k]+tol || hi < -h[k]-tol {
			return false
		}
	}
	e := [3]mgl64.Vec3{v[1].Sub(v[0]), v[2].Sub(v[1]), v[0].Sub(v[2])}
	if boxSeparates(e[0].Cross(e[1]), &v, h, tol) {
		return false
	}
	for i := range 3 {
		// unit_k × e_i without multiplications by zero.
		x, y, z := e[i][0], e[i][1], e[i][2]
		if boxSeparates(mgl64.Vec3{0, -z, y}, &v, h, tol) ||
			boxSeparates(mgl64.Vec3{z, 0, -x}, &v, h, tol) ||
			boxSeparates(mgl64.Vec3{-y, x, 0}, &v, h, tol) {
			return false
		}
	}
	return true
}

// boxSeparates tests axis l between the centered box with half-extents h and
// the corners v.
func boxSeparates(l mgl64.Vec3, v *[3]mgl64.Vec3, h mgl64.Vec3, tol float64) bool {
	r := h[0]*math.Abs(l[0]) + h[1]*math.Abs(l[1]) + h[2]*math.Abs(l[2])
	lo, hi := interval(l, v)
	gap := math.Max(lo-r, -r-hi)
	return gap > 0 && gap*gap > tol*tol*l.LenSqr()
}
