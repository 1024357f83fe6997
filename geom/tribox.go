package geom

import (
	"math"
)

// The filter bounds of TriOBB, in units of s, s² and s³ (s the largest
// of the half-extents and the corners' offsets from the center): the
// rounding of a corner's box coordinates (with the axes' own departure from
// orthonormal), of a gap along an axis × edge product, and along the
// triangle's normal, each about a quarter of the bound.
const (
	boxAxisErr   = 64 * 0x1p-53
	boxCrossErr  = 1024 * 0x1p-53
	boxNormalErr = 8192 * 0x1p-53
)

// TriOBB reports whether triangle t and box b (both in the same frame)
// intersect, exactly for the float64 values given: touching counts, apart
// by any distance does not. The fast filter is the separating-axis test
// over the box's three face axes, the triangle's normal and the nine
// box-axis × edge products, with an error bound on every gap: a gap beyond
// it proves the pair apart, and all thirteen overlapping beyond it prove it
// meeting (those axes are complete unless the box has collapsed to a
// segment or a point). The rest is decided in rationals by exactTriOBB.
func TriOBB(t Triangle, b OBB) bool {
	switch triOBBFilter(t, &b) {
	case filterApart:
		return false
	case filterMeet:
		return true
	}
	return exactTriOBB(t, b)
}

// TriOBBMayMeet reports whether triangle t and box b may meet: false only
// when the float filter proves them apart by more than its error bound. It
// is the test for pruning a traversal, where the boxes bound their
// triangles only to rounding (a fitted box may miss a corner by an ulp),
// so an exact decision could prune a pair that touches: conservative, and
// never slower than the filter.
func TriOBBMayMeet(t Triangle, b *OBB) bool { return triOBBFilter(t, b) != filterApart }

// triOBBFilter is TriOBB's fast path, in the box's frame.
func triOBBFilter(t Triangle, b *OBB) filterAnswer {
	var v [3]Vec3
	s := b.Half.MaxAbs()
	for i := range 3 {
		d := t[i].Sub(b.Center)
		v[i] = MulVecTrans(&b.Axes, d)
		s = math.Max(s, d.MaxAbs())
	}
	h := b.Half
	sure := h.X > 0 && h.Y > 0 || h.Y > 0 && h.Z > 0 || h.X > 0 && h.Z > 0
	tol := boxAxisErr * s
	for _, g := range [3]float64{slabGap(v[0].X, v[1].X, v[2].X, h.X), slabGap(v[0].Y, v[1].Y, v[2].Y, h.Y), slabGap(v[0].Z, v[1].Z, v[2].Z, h.Z)} {
		if g > tol {
			return filterApart
		}
		sure = sure && g < -tol
	}
	e := [3]Vec3{v[1].Sub(v[0]), v[2].Sub(v[1]), v[0].Sub(v[2])}
	g := boxGap(e[0].Cross(e[1]), &v, h)
	if tol = boxNormalErr * s * s * s; g > tol {
		return filterApart
	}
	sure = sure && g < -tol
	tol = boxCrossErr * s * s
	for i := range 3 {
		// unit_k × e_i without multiplications by zero.
		x, y, z := e[i].X, e[i].Y, e[i].Z
		for _, l := range [3]Vec3{{0, -z, y}, {z, 0, -x}, {-y, x, 0}} {
			g := boxGap(l, &v, h)
			if g > tol {
				return filterApart
			}
			sure = sure && g < -tol
		}
	}
	if sure {
		return filterMeet
	}
	return filterUnsure
}

// boxGap returns how far apart the corners v and the centered box with
// half-extents h project on axis l (negative: overlapping).
func boxGap(l Vec3, v *[3]Vec3, h Vec3) float64 {
	r := h.X*math.Abs(l.X) + h.Y*math.Abs(l.Y) + h.Z*math.Abs(l.Z)
	lo, hi := interval(l, v)
	return math.Max(lo-r, -r-hi)
}

// slabGap returns how far apart the coordinates a, b, c along one box
// axis and the box's slab [-h, h] are (negative: overlapping).
func slabGap(a, b, c, h float64) float64 {
	lo := math.Min(a, math.Min(b, c))
	hi := math.Max(a, math.Max(b, c))
	return math.Max(lo-h, -h-hi)
}
