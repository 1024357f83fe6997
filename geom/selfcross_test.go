package geom

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestTrianglesCrossAnalytic: neighbours of one surface that only share
// their edge or vertex do not cross; folds, overlaps and piercings do.
func TestTrianglesCrossAnalytic(t *testing.T) {
	o, x, y := Vec3{}, Vec3{X: 1}, Vec3{Y: 1}
	p := Triangle{o, x, y}
	cases := []struct {
		name string
		q    Triangle
		want bool
	}{
		{"far apart", Triangle{{X: 5}, {X: 6}, {X: 5, Y: 1}}, false},
		{"pierced, nothing shared", Triangle{{X: 0.2, Y: 0.2, Z: -1}, {X: 0.2, Y: 0.2, Z: 1}, {X: 0.3, Y: 0.2, Z: 1}}, true},
		{"touching a face at a vertex, nothing shared", Triangle{{X: 0.2, Y: 0.2}, {X: 0.2, Y: 0.2, Z: 1}, {X: 0.3, Y: 0.2, Z: 1}}, true},
		{"an edge, bent", Triangle{o, x, {Y: 1, Z: 1}}, false},
		{"an edge, flat, the other side", Triangle{x, o, {Y: -1}}, false},
		{"an edge, folded over", Triangle{x, o, {X: 0.5, Y: 0.5}}, true},
		{"an edge, folded over, wound the other way", Triangle{o, x, {X: 0.5, Y: 0.5}}, true},
		{"an edge, zero area", Triangle{o, x, {X: 2}}, true},
		{"a vertex, a fan's next but one", Triangle{o, {X: -1, Y: 1}, {X: -1, Y: -1}}, false},
		{"a vertex, the same plane, overlapping", Triangle{o, {X: 1, Y: 1}, {X: -1, Y: 2}}, true},
		{"a vertex, along an edge", Triangle{o, {X: 2}, {X: 1, Y: -1}}, true},
		{"a vertex, a saddle crossing through", Triangle{o, {X: 1, Y: 1, Z: 1}, {X: 1, Y: 1, Z: -1}}, true},
		{"a vertex, a saddle the other way", Triangle{o, {X: -1, Y: -1, Z: 1}, {X: -1, Y: -1, Z: -1}}, false},
		{"a vertex, above", Triangle{o, {X: 1, Y: 1, Z: 1}, {X: -1, Y: 1, Z: 1}}, false},
		{"a vertex, zero area, beside", Triangle{o, {X: -1}, {X: -2}}, false},
		{"a vertex, zero area, along an edge", Triangle{o, {X: 0.5}, {X: 2}}, true},
		{"the same face", Triangle{y, o, x}, true},
		{"not finite", Triangle{o, x, {Z: math.NaN()}}, true},
	}
	// The same at scales where products of five coordinates underflow or
	// overflow float64: the exact arithmetic alone decides there.
	for _, scale := range []float64{1, 1e-70, 1e70} {
		for _, c := range cases {
			sp, sq := scaled(p, scale), scaled(c.q, scale)
			if got := TrianglesCross(sp, sq); got != c.want {
				t.Errorf("%s at scale %g: TrianglesCross(p, q) = %v, want %v", c.name, scale, got, c.want)
			}
		}
	}
	for _, c := range cases {
		if got := TrianglesCross(p, c.q); got != c.want {
			t.Errorf("%s: TrianglesCross(p, q) = %v, want %v", c.name, got, c.want)
		}
		if got := TrianglesCross(c.q, p); got != c.want {
			t.Errorf("%s: TrianglesCross(q, p) = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestTrianglesCrossFiltersAgreeWithExact: on neighbours at a vertex and
// at an edge, and on triangles that share no vertex (a quarter of them in
// one plane), with small integer coordinates (so that coplanar, collinear
// and touching come up often) and with random ones, scaled and moved, the
// float filters and the integer arithmetic never decide otherwise than
// rationals.
func TestTrianglesCrossFiltersAgreeWithExact(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 27))
	point := func(grid bool) Vec3 {
		if grid {
			return Vec3{float64(r.IntN(5) - 2), float64(r.IntN(5) - 2), float64(r.IntN(3) - 1)}
		}
		return Vec3{r.Float64()*2 - 1, r.Float64()*2 - 1, r.Float64()*2 - 1}
	}
	crossed, n := [3]int{}, 1500
	if testing.Short() || raceEnabled {
		n = 400
	}
	for i := range n {
		grid := i%2 == 0
		s, m := 1.0, Vec3{}
		if i%3 == 0 {
			s, m = 1e-3*float64(1+r.IntN(7)), Vec3{X: 0.5, Y: -3, Z: 8}
		}
		place := func(v Vec3) Vec3 { return v.Mul(s).Add(m) }
		v, a1, a2, b1, b2 := place(point(grid)), place(point(grid)), place(point(grid)), place(point(grid)), place(point(grid))
		if v == a1 || v == a2 || v == b1 || v == b2 || a1 == a2 || b1 == b2 || a1 == b1 || a1 == b2 || a2 == b1 || a2 == b2 {
			continue
		}
		got := crossAtVertex(v, a1, a2, b1, b2)
		if want := ratCrossAtVertex(ratOf(v), ratOf(a1), ratOf(a2), ratOf(b1), ratOf(b2)); got != want {
			t.Fatalf("at a vertex %v: (%v %v) (%v %v): filtered %v, exact %v", v, a1, a2, b1, b2, got, want)
		}
		if got {
			crossed[0]++
		}
		// a1, a2 as the shared edge, v and b1 the other vertices.
		got = foldAtEdge(a1, a2, v, b1)
		if want := ratFold(a1, a2, v, b1); got != want {
			t.Fatalf("at an edge %v-%v: %v, %v: filtered %v, exact %v", a1, a2, v, b1, got, want)
		}
		if got {
			crossed[1]++
		}
		// Six of the points as two triangles that share none, in one plane
		// half the time.
		c1, c2 := place(point(grid)), place(point(grid))
		if grid && i%4 == 0 {
			v.Z, a1.Z, a2.Z, b1.Z, c1.Z, c2.Z = m.Z, m.Z, m.Z, m.Z, m.Z, m.Z
		}
		p, q := Triangle{v, a1, a2}, Triangle{b1, c1, c2}
		if shares(p, q) {
			continue
		}
		got = TrianglesCross(p, q)
		if want := exactTriTri(p, q, 1<<11-1); got != want {
			t.Fatalf("apart %v %v: filtered %v, exact %v", p, q, got, want)
		}
		if got {
			crossed[2]++
		}
	}
	if crossed[0] < n/40 || crossed[1] < n/400 || crossed[2] < n/40 {
		t.Fatalf("only %v crossings at a vertex and at an edge: the test needs more", crossed)
	}
}

// scaled is t with every coordinate times s.
func scaled(t Triangle, s float64) Triangle {
	for i := range t {
		t[i] = t[i].Mul(s)
	}
	return t
}

// shares reports whether p and q have a vertex in common.
func shares(p, q Triangle) bool {
	for _, a := range p {
		for _, b := range q {
			if a == b {
				return true
			}
		}
	}
	return false
}

// ratFold is foldAtEdge in rationals alone: a and b on one side of uv in
// one plane, or either triangle of zero area.
func ratFold(u, v, a, b Vec3) bool {
	ru, rv, ra, rb := ratOf(u), ratOf(v), ratOf(a), ratOf(b)
	var e, ea, eb, n, s ratVec
	e.sub(&rv, &ru)
	ea.sub(&ra, &ru)
	eb.sub(&rb, &ru)
	n.cross(&e, &ea)
	if n.zero() || s.cross(&e, &eb).zero() {
		return true
	}
	s.cross(&n, &e)
	return n.dot(&eb).Sign() == 0 && s.dot(&eb).Sign() > 0
}

// ratCrossAtVertex is crossAtVertex in rationals, written apart from the
// integer version it checks (which scales the coordinates to integers).
func ratCrossAtVertex(v, a1, a2, b1, b2 ratVec) bool {
	var e1, e2, f1, f2, nP, nQ, l, nl ratVec
	e1.sub(&a1, &v)
	e2.sub(&a2, &v)
	f1.sub(&b1, &v)
	f2.sub(&b2, &v)
	nP.cross(&e1, &e2)
	nQ.cross(&f1, &f2)
	inCone := func(d, e1, e2, n *ratVec) bool {
		var c ratVec
		return !d.zero() && d.dot(n).Sign() == 0 && c.cross(e1, d).dot(n).Sign() >= 0 && c.cross(d, e2).dot(n).Sign() >= 0
	}
	sameRay := func(d, e *ratVec) bool {
		var c ratVec
		return !d.zero() && !e.zero() && c.cross(d, e).zero() && d.dot(e).Sign() > 0
	}
	switch {
	case nP.zero() && nQ.zero():
		return sameRay(&e1, &f1) || sameRay(&e1, &f2) || sameRay(&e2, &f1) || sameRay(&e2, &f2)
	case nP.zero():
		return inCone(&e1, &f1, &f2, &nQ) || inCone(&e2, &f1, &f2, &nQ)
	case nQ.zero():
		return inCone(&f1, &e1, &e2, &nP) || inCone(&f2, &e1, &e2, &nP)
	}
	l.cross(&nP, &nQ)
	if !l.zero() {
		for i := range 3 {
			nl[i].Neg(&l[i])
		}
		return inCone(&l, &e1, &e2, &nP) && inCone(&l, &f1, &f2, &nQ) || inCone(&nl, &e1, &e2, &nP) && inCone(&nl, &f1, &f2, &nQ)
	}
	return inCone(&f1, &e1, &e2, &nP) || inCone(&f2, &e1, &e2, &nP) || inCone(&e1, &f1, &f2, &nQ) || inCone(&e2, &f1, &f2, &nQ)
}
