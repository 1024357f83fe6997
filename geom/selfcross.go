package geom

import (
	"math"
	"math/big"
)

// TrianglesCross reports whether two triangles of one surface meet other
// than where a surface's neighbours do: along the edge or at the vertex
// they share (vertices are shared when their coordinates are equal).
// Triangles that share nothing cross when they meet at all (TriTri);
// triangles that share an edge cross when they fold onto each other
// (coplanar, on the same side of it); triangles that share a vertex cross
// when they have a direction from it in common (a zero-area triangle's
// being the rays from the vertex along it). Two copies of one triangle
// cross, and so, to be safe, does a zero-area triangle with a neighbour
// at an edge. Like TriTri, it is decided in float64 where an
// error bound proves the answer and in exact rationals where not.
func TrianglesCross(p, q Triangle) bool {
	// The float filters need the differences of the coordinates between
	// 1e-55 and 1e55, where their products of five neither underflow nor
	// overflow; outside, every answer is the exact one. A coordinate that
	// is not finite is a crossing, to be safe.
	spread := 0.0
	for _, t := range [2]*Triangle{&p, &q} {
		for _, v := range t {
			if !v.Finite() {
				return true
			}
			spread = max(spread, v.Sub(p[0]).MaxAbs())
		}
	}
	filter := spread > 1e-55 && spread < 1e55
	var shared [3]int // for each vertex of p, the index+1 of its equal in q (0: none)
	n := 0
	for i := range 3 {
		for j := range 3 {
			if p[i] == q[j] {
				shared[i] = j + 1
				n++
				break
			}
		}
	}
	switch n {
	case 0:
		if !filter {
			return exactTriTri(p, q, 1<<11-1)
		}
		ans, unsure := triTriFilter(p, q)
		switch {
		case ans == filterApart:
			return false
		case ans == filterMeet:
			return true
		case inPlaneApart(p, q) || inPlaneApart(q, p):
			return false // coplanar neighbours' neighbours: apart within their plane
		}
		return exactTriTri(p, q, unsure)
	case 1:
		for i := range 3 {
			if j := shared[i]; j > 0 {
				if !filter {
					return intCrossAtVertex(p[i], p[(i+1)%3], p[(i+2)%3], q[j%3], q[(j+1)%3])
				}
				return crossAtVertex(p[i], p[(i+1)%3], p[(i+2)%3], q[j%3], q[(j+1)%3])
			}
		}
	case 2:
		for i := range 3 {
			if shared[i] == 0 {
				a := p[i]
				u, v := p[(i+1)%3], p[(i+2)%3]
				for _, b := range q {
					if b != u && b != v {
						if !filter {
							return intFold(u, v, a, b)
						}
						return foldAtEdge(u, v, a, b)
					}
				}
				return true // q has a vertex twice: zero area, to be safe
			}
		}
	}
	return true // the same three vertices: one face twice
}

// crossTol is the relative error bound the float filters below take on a
// polynomial of the coordinates: its rounding error is under depth·ε
// times the sum of its terms' magnitudes (m), depth under twenty here, so
// 1e-12·m is thousands of times the true bound.
const crossTol = 1e-12

// ef is a value computed in float64 with m, the sum of the magnitudes of
// the terms it was computed from: its rounding error is a small multiple
// of ε·m.
type ef struct{ v, m float64 }

// sign is ef's sign where the error bound proves it, else 0 (unknown).
func (x ef) sign() int {
	switch {
	case x.v > crossTol*x.m:
		return 1
	case x.v < -crossTol*x.m:
		return -1
	}
	return 0
}

type efVec [3]ef

// efSub is b-a with its own magnitude: a difference of two float64s is
// rounded once, a relative error the filters' bound takes in (as
// Shewchuk's permanents are of the differences).
func efSub(a, b Vec3) efVec {
	d := a.Sub(b)
	return efVec{{d.X, math.Abs(d.X)}, {d.Y, math.Abs(d.Y)}, {d.Z, math.Abs(d.Z)}}
}

func (x efVec) cross(y efVec) (r efVec) {
	for i := range 3 {
		j, k := (i+1)%3, (i+2)%3
		r[i] = ef{x[j].v*y[k].v - x[k].v*y[j].v, x[j].m*y[k].m + x[k].m*y[j].m}
	}
	return r
}

func (x efVec) dot(y efVec) ef {
	return ef{x[0].v*y[0].v + x[1].v*y[1].v + x[2].v*y[2].v, x[0].m*y[0].m + x[1].m*y[1].m + x[2].m*y[2].m}
}

// foldAtEdge reports whether triangles (u, v, a) and (u, v, b), sharing
// edge uv, fold onto each other: coplanar, a and b on the same side of
// the edge. Apart from that they meet only along it.
func foldAtEdge(u, v, a, b Vec3) bool {
	e, ea, eb := efSub(v, u), efSub(a, u), efSub(b, u)
	// The in-plane normal of the edge toward a: b surely on the other side
	// of the plane through uv it makes, or surely off a's plane, and they
	// cannot fold.
	n := e.cross(ea)
	if s := n.cross(e).dot(eb).sign(); s < 0 { // n×e points toward a: (n×e)·ea = |n|² > 0
		return false
	}
	if n.dot(eb).sign() != 0 {
		return false
	}
	return intFold(u, v, a, b)
}

// intFold is foldAtEdge in exact integers.
func intFold(u, v, a, b Vec3) bool {
	w := scaledInts(u, v, a, b)
	var e, ea, eb, n, c ivec
	e.sub(&w[1], &w[0])
	ea.sub(&w[2], &w[0])
	eb.sub(&w[3], &w[0])
	n.cross(&e, &ea)
	c.cross(&e, &eb)
	if n.zero() || c.zero() {
		return true // a zero-area triangle, either one: no side to tell
	}
	if n.dot(&eb).Sign() != 0 {
		return false
	}
	c.cross(&n, &e)
	return c.dot(&eb).Sign() > 0
}

// crossAtVertex reports whether triangles (v, a1, a2) and (v, b1, b2),
// sharing vertex v, have a direction from v in common: near v each is the
// cone its edges from v span, so they then meet beyond v.
func crossAtVertex(v, a1, a2, b1, b2 Vec3) bool {
	e1, e2, f1, f2 := efSub(a1, v), efSub(a2, v), efSub(b1, v), efSub(b2, v)
	nP, nQ := e1.cross(e2), f1.cross(f2)
	// One triangle wholly on one side of the other's plane but for v.
	if s := nP.dot(f1).sign(); s != 0 && s == nP.dot(f2).sign() {
		return false
	}
	if s := nQ.dot(e1).sign(); s != 0 && s == nQ.dot(e2).sign() {
		return false
	}
	// A plane through v and an edge, across which the triangles lie: the
	// edge's normal within its triangle, toward the triangle's other edge.
	if edgeSeparates(nP, e1, e2, f1, f2) || edgeSeparates(nP, e2, e1, f1, f2) ||
		edgeSeparates(nQ, f1, f2, e1, e2) || edgeSeparates(nQ, f2, f1, e1, e2) {
		return false
	}
	return intCrossAtVertex(v, a1, a2, b1, b2)
}

// edgeSeparates reports whether the plane through edge e (from the shared
// vertex) at right angles to its triangle (normal n, other edge o) surely
// has the other triangle's edges g1, g2 on the side away from o.
func edgeSeparates(n, e, o, g1, g2 efVec) bool {
	s := n.cross(e)
	side := s.dot(o).sign()
	if side == 0 {
		return false
	}
	return s.dot(g1).sign() == -side && s.dot(g2).sign() == -side
}

// intCrossAtVertex is crossAtVertex in exact integers.
func intCrossAtVertex(v, a1, a2, b1, b2 Vec3) bool {
	w := scaledInts(v, a1, a2, b1, b2)
	var e1, e2, f1, f2, nP, nQ, l, nl ivec
	e1.sub(&w[1], &w[0])
	e2.sub(&w[2], &w[0])
	f1.sub(&w[3], &w[0])
	f2.sub(&w[4], &w[0])
	nP.cross(&e1, &e2)
	nQ.cross(&f1, &f2)
	switch {
	case nP.zero() && nQ.zero(): // two segments: a ray of one along a ray of the other
		return sameRay(&e1, &f1) || sameRay(&e1, &f2) || sameRay(&e2, &f1) || sameRay(&e2, &f2)
	case nP.zero(): // p is a segment: its rays from v
		return rayInCone(&e1, &f1, &f2, &nQ) || rayInCone(&e2, &f1, &f2, &nQ)
	case nQ.zero():
		return rayInCone(&f1, &e1, &e2, &nP) || rayInCone(&f2, &e1, &e2, &nP)
	}
	l.cross(&nP, &nQ)
	if !l.zero() { // the planes meet in a line: a common direction is along it
		for i := range 3 {
			nl[i].Neg(&l[i])
		}
		return inCone(&l, &e1, &e2, &nP) && inCone(&l, &f1, &f2, &nQ) ||
			inCone(&nl, &e1, &e2, &nP) && inCone(&nl, &f1, &f2, &nQ)
	}
	// One plane: two cones of the plane share a direction when an edge of
	// one lies in the other.
	return inCone(&f1, &e1, &e2, &nP) || inCone(&f2, &e1, &e2, &nP) ||
		inCone(&e1, &f1, &f2, &nQ) || inCone(&e2, &f1, &f2, &nQ)
}

// sameRay reports whether nonzero d and e point the same way.
func sameRay(d, e *ivec) bool {
	var c ivec
	if d.zero() || e.zero() {
		return false
	}
	c.cross(d, e)
	return c.zero() && d.dot(e).Sign() > 0
}

// rayInCone reports whether direction d (nonzero) lies in the plane of
// normal n = e1×e2 and in the cone e1 and e2 span there.
func rayInCone(d, e1, e2, n *ivec) bool {
	return !d.zero() && d.dot(n).Sign() == 0 && inCone(d, e1, e2, n)
}

// inCone reports whether direction d, in the plane of normal n = e1×e2,
// lies in the closed cone e1 and e2 span (an angle under π).
func inCone(d, e1, e2, n *ivec) bool {
	var c ivec
	if c.cross(e1, d); c.dot(n).Sign() < 0 {
		return false
	}
	c.cross(d, e2)
	return c.dot(n).Sign() >= 0
}

// inPlaneApart reports whether the float filter proves triangles p and q
// apart along one of p's edges' normals within p's plane: the axes that
// separate coplanar triangles, which TriTri's filter, built for crossing
// planes, does not try.
func inPlaneApart(p, q Triangle) bool {
	var e [3]efVec
	for i := range 3 {
		e[i] = efSub(p[(i+1)%3], p[i])
	}
	n := e[0].cross(e[1])
	var qs [3]efVec
	for j := range 3 {
		qs[j] = efSub(q[j], p[0])
	}
	for i := range 3 {
		s := n.cross(e[i])
		// p's projections relative to p[0]: 0 at p[0], and at the others.
		ps := [3]ef{{0, 0}, s.dot(e[0]), s.dot(efSub(p[2], p[0]))}
		lo, hi := ps[0], ps[0]
		for _, x := range ps[1:] {
			if x.v < lo.v {
				lo = x
			}
			if x.v > hi.v {
				hi = x
			}
		}
		above, below := true, true
		for j := range 3 {
			x := s.dot(qs[j])
			above = above && (ef{x.v - hi.v, x.m + hi.m}).sign() > 0
			below = below && (ef{lo.v - x.v, x.m + lo.m}).sign() > 0
		}
		if above || below {
			return true
		}
	}
	return false
}

// ivec is an exact 3-vector of integers: float64 coordinates scaled by a
// common power of two (scaledInts), so that sums and products need no
// fractions.
type ivec [3]big.Int

// scaledInts returns pts as integers: each coordinate divided by 2^e,
// where 2^e is the weight of the lowest bit any of their mantissas holds.
func scaledInts(pts ...Vec3) []ivec {
	emin := math.MaxInt
	for _, p := range pts {
		for _, x := range [3]float64{p.X, p.Y, p.Z} {
			if x != 0 {
				_, e := math.Frexp(x)
				emin = min(emin, e-53)
			}
		}
	}
	out := make([]ivec, len(pts))
	for i, p := range pts {
		for k, x := range [3]float64{p.X, p.Y, p.Z} {
			if x == 0 {
				continue
			}
			f, e := math.Frexp(x)
			out[i][k].SetInt64(int64(f * (1 << 53)))
			out[i][k].Lsh(&out[i][k], uint(e-53-emin))
		}
	}
	return out
}

func (r *ivec) sub(a, b *ivec) {
	for i := range 3 {
		r[i].Sub(&a[i], &b[i])
	}
}

func (r *ivec) cross(a, b *ivec) {
	var x, y big.Int
	var out ivec
	for i := range 3 {
		j, k := (i+1)%3, (i+2)%3
		x.Mul(&a[j], &b[k])
		y.Mul(&a[k], &b[j])
		out[i].Sub(&x, &y)
	}
	*r = out
}

func (r *ivec) dot(a *ivec) *big.Int {
	var s, x big.Int
	for i := range 3 {
		s.Add(&s, x.Mul(&r[i], &a[i]))
	}
	return &s
}

func (r *ivec) zero() bool { return r[0].Sign() == 0 && r[1].Sign() == 0 && r[2].Sign() == 0 }
