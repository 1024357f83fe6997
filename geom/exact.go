package geom

import (
	"math/big"
)

// The exact side of the triangle tests: every coordinate is taken as the
// exact number its float64 holds, and every difference, product and sum is
// computed in rationals, so a decision made here is the true one for the
// inputs given. It is slow (tens of microseconds), and runs only when the
// floating-point filter of a test cannot prove its answer: touching and
// near-touching pairs.

// ratVec is an exact 3-vector.
type ratVec [3]big.Rat

func ratOf(v Vec3) (r ratVec) {
	r[0].SetFloat64(v.X)
	r[1].SetFloat64(v.Y)
	r[2].SetFloat64(v.Z)
	return r
}

func (r *ratVec) sub(a, b *ratVec) *ratVec {
	for i := range 3 {
		r[i].Sub(&a[i], &b[i])
	}
	return r
}

func (r *ratVec) cross(a, b *ratVec) *ratVec {
	var x, y big.Rat
	var out ratVec
	for i := range 3 {
		j, k := (i+1)%3, (i+2)%3
		x.Mul(&a[j], &b[k])
		y.Mul(&a[k], &b[j])
		out[i].Sub(&x, &y)
	}
	*r = out
	return r
}

func (r *ratVec) dot(a *ratVec) *big.Rat {
	var s, x big.Rat
	for i := range 3 {
		s.Add(&s, x.Mul(&r[i], &a[i]))
	}
	return &s
}

func (r *ratVec) zero() bool { return r[0].Sign() == 0 && r[1].Sign() == 0 && r[2].Sign() == 0 }

// ratSeparates reports whether axis l separates point sets a and b: their
// projections on l are disjoint intervals (touching is not separated).
func ratSeparates(l *ratVec, a, b []ratVec) bool {
	if l.zero() {
		return false
	}
	alo, ahi := ratInterval(l, a)
	blo, bhi := ratInterval(l, b)
	return alo.Cmp(bhi) > 0 || blo.Cmp(ahi) > 0
}

func ratInterval(l *ratVec, v []ratVec) (lo, hi *big.Rat) {
	for i := range v {
		x := l.dot(&v[i])
		if lo == nil || x.Cmp(lo) < 0 {
			lo = x
		}
		if hi == nil || x.Cmp(hi) > 0 {
			hi = x
		}
	}
	return lo, hi
}

// exactTriTri is TriTri in rationals: the separating-axis test over the
// facet normals of the triangles' Minkowski difference, whose dimension is
// decided exactly: the two normals and nine edge cross products when the
// planes cross, the in-plane edge normals when the difference is flat, the
// line and its offset when every edge is parallel. Of the eleven 3-D axes
// it tries only those in try (bits as in triTriFilter): the filter proved
// the others overlapping.
func exactTriTri(p, q Triangle, try uint16) bool {
	var a, b [3]ratVec
	for i := range 3 {
		a[i], b[i] = ratOf(p[i]), ratOf(q[i])
	}
	return ratTriTri(&a, &b, try)
}

// allAxes tries every one of the eleven 3-D axes.
const allAxes = 1<<11 - 1

// ratTriTri is exactTriTri on exact corners.
func ratTriTri(a, b *[3]ratVec, try uint16) bool {
	var ea, eb [3]ratVec
	for i := range 3 {
		ea[i].sub(&a[(i+1)%3], &a[i])
		eb[i].sub(&b[(i+1)%3], &b[i])
	}
	var na, nb ratVec
	na.cross(&ea[0], &ea[1])
	nb.cross(&eb[0], &eb[1])
	if try&1 != 0 && ratSeparates(&na, a[:], b[:]) || try&2 != 0 && ratSeparates(&nb, a[:], b[:]) {
		return false
	}
	var cross [9]ratVec
	for i := range 3 {
		for j := range 3 {
			cross[3*i+j].cross(&ea[i], &eb[j])
			if try&(1<<(2+3*i+j)) != 0 && ratSeparates(&cross[3*i+j], a[:], b[:]) {
				return false
			}
		}
	}
	var c ratVec
	if !c.cross(&na, &nb).zero() {
		return true // the planes cross: the eleven axes were all
	}
	m := firstNonZero(append([]ratVec{na, nb}, cross[:]...))
	if m != nil {
		var l ratVec
		for i := range 3 {
			if ratSeparates(l.cross(m, &ea[i]), a[:], b[:]) || ratSeparates(l.cross(m, &eb[i]), a[:], b[:]) {
				return false
			}
		}
		return true
	}
	return !exactCollinearApart(a, b, &ea, &eb)
}

func firstNonZero(vs []ratVec) *ratVec {
	for i := range vs {
		if !vs[i].zero() {
			return &vs[i]
		}
	}
	return nil
}

// exactCollinearApart decides two triangles whose edges are all parallel:
// each lies on a line (or is a point), and they are apart if the lines'
// offset or their intervals along the common direction separate them.
func exactCollinearApart(a, b, ea, eb *[3]ratVec) bool {
	d := firstNonZero(append(ea[:], eb[:]...))
	var w ratVec
	w.sub(&b[0], &a[0])
	if d == nil {
		return !w.zero() // two points
	}
	if ratSeparates(d, a[:], b[:]) {
		return true
	}
	// w less its part along d: the offset between the two lines.
	var k big.Rat
	k.Quo(d.dot(&w), d.dot(d))
	for i := range 3 {
		var x big.Rat
		w[i].Sub(&w[i], x.Mul(&k, &d[i]))
	}
	return ratSeparates(&w, a[:], b[:])
}

// exactTriOBB is TriOBB in rationals. The box is the parallelepiped its
// stored center, axes and half-extents describe, taken exactly (its axes
// are orthonormal only to rounding): the triangle meets it when it meets
// one of its twelve face triangles or lies inside it, which one corner
// tells (a triangle inside touches no face).
func exactTriOBB(t Triangle, b OBB) bool {
	var tri [3]ratVec
	for i := range 3 {
		tri[i] = ratOf(t[i])
	}
	c := ratOf(b.Center)
	var u [3]ratVec
	var h [3]big.Rat
	for k := range 3 {
		u[k] = ratOf(b.Axis(k))
		h[k].SetFloat64(b.Half.At(k))
	}
	var corner [8]ratVec
	for i := range 8 {
		for j := range 3 {
			corner[i][j].Set(&c[j]) // a copy of a big.Rat would share its digits
		}
		for k := range 3 {
			var x big.Rat
			for j := range 3 {
				x.Mul(&h[k], &u[k][j])
				if i&(1<<k) != 0 {
					corner[i][j].Sub(&corner[i][j], &x)
				} else {
					corner[i][j].Add(&corner[i][j], &x)
				}
			}
		}
	}
	for _, q := range boxFaces {
		f0 := [3]ratVec{corner[q[0]], corner[q[1]], corner[q[2]]}
		f1 := [3]ratVec{corner[q[0]], corner[q[2]], corner[q[3]]}
		if ratTriTri(&f0, &tri, allAxes) || ratTriTri(&f1, &tri, allAxes) {
			return true
		}
	}
	return ratInsideBox(&tri[0], &c, &u, &h)
}

// boxFaces are the corner quads of a box whose corner i has bit k set on
// the minus side of axis k.
var boxFaces = [6][4]int{{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}}

// ratInsideBox reports whether p = c + Σ a_k u_k with |a_k| <= h_k, by
// Cramer's rule without division: |det_k| <= h_k |det|.
func ratInsideBox(p, c *ratVec, u *[3]ratVec, h *[3]big.Rat) bool {
	var w ratVec
	w.sub(p, c)
	det := ratDet(&u[0], &u[1], &u[2])
	if det.Sign() == 0 {
		return false // a flat box has no inside beyond its faces
	}
	det.Abs(det)
	for k := range 3 {
		cols := *u
		cols[k] = w
		dk := ratDet(&cols[0], &cols[1], &cols[2])
		var lim big.Rat
		if dk.Abs(dk).Cmp(lim.Mul(&h[k], det)) > 0 {
			return false
		}
	}
	return true
}

// ratDet is the determinant of the matrix with columns a, b, c.
func ratDet(a, b, c *ratVec) *big.Rat {
	var bc ratVec
	bc.cross(b, c)
	return a.dot(&bc)
}
