package geom

import (
	"math"
)

// orient3dErr is the relative error bound of orient3d computed in float64
// (J. R. Shewchuk, "Adaptive Precision Floating-Point Arithmetic and Fast
// Robust Geometric Predicates", 1997: (7 + 56ε)ε times the permanent),
// doubled: beyond it the sign of the float determinant is the true sign.
const orient3dErr = 16 * 0x1p-53

// orient3d returns the determinant of (a-d, b-d, c-d), positive when d is
// below the plane of a, b, c (seen from where a, b, c turn
// counter-clockwise), and the bound on its rounding error.
func orient3d(a, b, c, d Vec3) (float64, float64) {
	ad, bd, cd := a.Sub(d), b.Sub(d), c.Sub(d)
	bc, ca, ab := bd.X*cd.Y-cd.X*bd.Y, cd.X*ad.Y-ad.X*cd.Y, ad.X*bd.Y-bd.X*ad.Y
	det := ad.Z*bc + bd.Z*ca + cd.Z*ab
	perm := math.Abs(ad.Z)*(math.Abs(bd.X*cd.Y)+math.Abs(cd.X*bd.Y)) +
		math.Abs(bd.Z)*(math.Abs(cd.X*ad.Y)+math.Abs(ad.X*cd.Y)) +
		math.Abs(cd.Z)*(math.Abs(ad.X*bd.Y)+math.Abs(bd.X*ad.Y))
	return det, orient3dErr * perm
}

// sureSign is the sign of x when it is beyond err, else 0 (unknown).
func sureSign(x, err float64) int {
	switch {
	case x > err:
		return 1
	case x < -err:
		return -1
	}
	return 0
}

// edgePierces reports whether segment pq provably crosses the inside of
// triangle t: its ends are on opposite sides of t's plane and the line
// passes inside all three edges, every sign beyond its error bound. It is
// a witness that two triangles meet, for the pairs whose separating axes
// are too ill-conditioned to prove it (edges nearly parallel).
func edgePierces(p, q Vec3, t Triangle) bool {
	sp := sureSign(orient3d(t[0], t[1], t[2], p))
	sq := sureSign(orient3d(t[0], t[1], t[2], q))
	if sp == 0 || sq == 0 || sp == sq {
		return false
	}
	s0 := sureSign(orient3d(p, q, t[0], t[1]))
	s1 := sureSign(orient3d(p, q, t[1], t[2]))
	s2 := sureSign(orient3d(p, q, t[2], t[0]))
	return s0 != 0 && s0 == s1 && s1 == s2
}
