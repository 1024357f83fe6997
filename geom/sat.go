package geom

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// SATEpsilon is added to every |R_ij| before the axis tests (Gottschalk,
// section 7.1): it keeps near-parallel edge pairs, whose cross-product axes
// vanish, from declaring touching boxes disjoint through rounding. The test
// is therefore conservative by at most SATEpsilon times the boxes' extents.
const SATEpsilon = 1e-9

// BoxesDisjoint reports whether two boxes given in one frame are apart
// (touching counts as meeting). It forms B's placement in A's frame,
// R = Aᵀ·B and T = Aᵀ·(c_B - c_A), and runs disjoint on it. The
// boxes are passed by pointer: copying them costs a third of the test.
func BoxesDisjoint(a, b *OBB) bool {
	r := MulMatTrans(&a.Axes, &b.Axes)
	t := MulVecTrans(&a.Axes, b.Center.Sub(a.Center))
	return disjoint(&r, &t, &a.Half, &b.Half)
}

// disjoint is the 15-axis separating-axis test in Gottschalk's form (section
// 5): box B is placed relative to box A by rotation r (column j is B's axis j
// in A's frame) and translation t (B's center in A's frame); a and b are the
// half-extents. It reports true when a separating axis exists, testing A's
// three face axes, B's three, then the nine edge cross products, and
// returning at the first separating axis. Zero half-extents (degenerate,
// zero-thickness boxes) need no special case.
func disjoint(r *mgl64.Mat3, t, a, b *Vec3) bool {
	// Row-major locals: R[i][j] = r[3*j+i].
	r00, r10, r20 := r[0], r[1], r[2]
	r01, r11, r21 := r[3], r[4], r[5]
	r02, r12, r22 := r[6], r[7], r[8]
	f00, f10, f20 := math.Abs(r00)+SATEpsilon, math.Abs(r10)+SATEpsilon, math.Abs(r20)+SATEpsilon
	f01, f11, f21 := math.Abs(r01)+SATEpsilon, math.Abs(r11)+SATEpsilon, math.Abs(r21)+SATEpsilon
	f02, f12, f22 := math.Abs(r02)+SATEpsilon, math.Abs(r12)+SATEpsilon, math.Abs(r22)+SATEpsilon
	a0, a1, a2 := a.X, a.Y, a.Z
	b0, b1, b2 := b.X, b.Y, b.Z
	t0, t1, t2 := t.X, t.Y, t.Z

	// A's face axes.
	if math.Abs(t0) > a0+b0*f00+b1*f01+b2*f02 {
		return true
	}
	if math.Abs(t1) > a1+b0*f10+b1*f11+b2*f12 {
		return true
	}
	if math.Abs(t2) > a2+b0*f20+b1*f21+b2*f22 {
		return true
	}
	// B's face axes.
	if math.Abs(t0*r00+t1*r10+t2*r20) > b0+a0*f00+a1*f10+a2*f20 {
		return true
	}
	if math.Abs(t0*r01+t1*r11+t2*r21) > b1+a0*f01+a1*f11+a2*f21 {
		return true
	}
	if math.Abs(t0*r02+t1*r12+t2*r22) > b2+a0*f02+a1*f12+a2*f22 {
		return true
	}
	// A_i x B_j: |t[i2] R[i1][j] - t[i1] R[i2][j]| >
	//   a[i1]|R[i2][j]| + a[i2]|R[i1][j]| + b[j1]|R[i][j2]| + b[j2]|R[i][j1]|.
	if math.Abs(t2*r10-t1*r20) > a1*f20+a2*f10+b1*f02+b2*f01 {
		return true
	}
	if math.Abs(t2*r11-t1*r21) > a1*f21+a2*f11+b0*f02+b2*f00 {
		return true
	}
	if math.Abs(t2*r12-t1*r22) > a1*f22+a2*f12+b0*f01+b1*f00 {
		return true
	}
	if math.Abs(t0*r20-t2*r00) > a0*f20+a2*f00+b1*f12+b2*f11 {
		return true
	}
	if math.Abs(t0*r21-t2*r01) > a0*f21+a2*f01+b0*f12+b2*f10 {
		return true
	}
	if math.Abs(t0*r22-t2*r02) > a0*f22+a2*f02+b0*f11+b1*f10 {
		return true
	}
	if math.Abs(t1*r00-t0*r10) > a0*f10+a1*f00+b1*f22+b2*f21 {
		return true
	}
	if math.Abs(t1*r01-t0*r11) > a0*f11+a1*f01+b0*f22+b2*f20 {
		return true
	}
	if math.Abs(t1*r02-t0*r12) > a0*f12+a1*f02+b0*f21+b1*f20 {
		return true
	}
	return false
}
