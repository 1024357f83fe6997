package geom

import (
	"math"
)

// triFilterErr and crossFilterErr bound, in units of s³ and s⁴ (s the
// largest coordinate relative to the first corner), the rounding error of
// a separating gap computed in float64 along an edge cross product or
// normal, and of a component of the two normals' cross product; the
// derivation (each difference within 4ε·s, each product term within
// 64ε·s³, sums and the axis's own error included) gives about 530ε and
// 1800ε, doubled for margin. Beyond them the float answer is the true one.
const (
	triFilterErr   = 1024 * 0x1p-53
	crossFilterErr = 4096 * 0x1p-53
)

// TriTri reports whether two closed triangles share a point, exactly for
// the float64 coordinates given: touching (vertex on face, edge on edge,
// shared vertex) counts as meeting, apart by any distance does not. It is
// the separating-axis test over the facet normals of the triangles'
// Minkowski difference, run in float64 with an error bound on every gap
// (the fast filter): a gap beyond the bound proves the pair apart, and
// eleven overlaps beyond it with the planes crossing at a provable angle
// prove it meeting. Anything else (touching, near-touching, parallel or
// coplanar planes, zero-area triangles) is decided in exact rational
// arithmetic by exactTriTri.
func TriTri(p, q Triangle) bool {
	ans, unsure := triTriFilter(p, q)
	switch ans {
	case filterApart:
		return false
	case filterMeet:
		return true
	}
	return exactTriTri(p, q, unsure)
}

// filterAnswer is what a floating-point filter could prove.
type filterAnswer uint8

const (
	filterUnsure filterAnswer = iota
	filterApart
	filterMeet
)

// triTriFilter is TriTri's fast path. Unsure, it also says which of the
// eleven axes (bit 0: p's normal, 1: q's, 2+3i+j: edge i of p × edge j of
// q) it could not prove overlapping: the only ones the exact test need try.
func triTriFilter(p, q Triangle) (filterAnswer, uint16) {
	o := p[0]
	var a, b [3]Vec3
	s := 0.0
	for i := range 3 {
		a[i] = p[i].Sub(o)
		b[i] = q[i].Sub(o)
		s = math.Max(s, a[i].MaxAbs())
		s = math.Max(s, b[i].MaxAbs())
	}
	if s == 0 {
		return filterMeet, 0 // six copies of one point
	}
	tol := triFilterErr * s * s * s
	ea := [3]Vec3{a[1].Sub(a[0]), a[2].Sub(a[1]), a[0].Sub(a[2])}
	eb := [3]Vec3{b[1].Sub(b[0]), b[2].Sub(b[1]), b[0].Sub(b[2])}
	na := ea[0].Cross(ea[1])
	nb := eb[0].Cross(eb[1])
	var unsure uint16
	test := func(l Vec3, bit uint) bool {
		g := gap(l, &a, &b)
		if g > tol {
			return true
		}
		if g >= -tol {
			unsure |= 1 << bit
		}
		return false
	}
	if test(na, 0) || test(nb, 1) {
		return filterApart, 0
	}
	for i := range 3 {
		for j := range 3 {
			if test(ea[i].Cross(eb[j]), uint(2+3*i+j)) {
				return filterApart, 0
			}
		}
	}
	c, ct := na.Cross(nb), crossFilterErr*s*s*s*s
	if unsure == 0 && (math.Abs(c.X) > ct || math.Abs(c.Y) > ct || math.Abs(c.Z) > ct) {
		return filterMeet, 0
	}
	// The axes could not prove it (often an edge pair nearly parallel, as
	// in a mesh and its own translated copy); an edge that provably
	// pierces the other triangle is a common point.
	for i := range 3 {
		if edgePierces(p[i], p[(i+1)%3], q) || edgePierces(q[i], q[(i+1)%3], p) {
			return filterMeet, 0
		}
	}
	return filterUnsure, unsure
}

// gap returns how far apart the projections of corner sets a and b on l
// are (negative: they overlap by that much).
func gap(l Vec3, a, b *[3]Vec3) float64 {
	amin, amax := interval(l, a)
	bmin, bmax := interval(l, b)
	g := bmin - amax
	if h := amin - bmax; h > g {
		g = h
	}
	return g
}

// interval projects three points on l. Plain comparisons: the corners are
// finite, and math.Min/Max and the float built-ins pay for NaN and -0 rules
// (measured: half the cost of the triangle test).
func interval(l Vec3, v *[3]Vec3) (lo, hi float64) {
	x, y, z := l.Dot(v[0]), l.Dot(v[1]), l.Dot(v[2])
	lo, hi = x, x
	if y < lo {
		lo = y
	} else {
		hi = y
	}
	if z < lo {
		lo = z
	}
	if z > hi {
		hi = z
	}
	return lo, hi
}
