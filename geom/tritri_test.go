package geom

import (
	"math/rand/v2"
	"testing"
)

// The exact reference works on small integer coordinates, where every
// predicate is an exact int64 sign: two closed triangles meet iff an edge of
// one meets the other (an extreme point of the intersection lies on an edge).

type ip [3]int64

func isub(a, b ip) ip { return ip{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
func icross(a, b ip) ip {
	return ip{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}
func idot(a, b ip) int64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
func sgn(x int64) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// drop projects to the coordinate plane that drops the largest |n| component.
func drop(n, p ip) [2]int64 {
	k := 0
	for i := 1; i < 3; i++ {
		if abs64(n[i]) > abs64(n[k]) {
			k = i
		}
	}
	return [2]int64{p[(k+1)%3], p[(k+2)%3]}
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

func orient2(a, b, c [2]int64) int {
	return sgn((b[0]-a[0])*(c[1]-a[1]) - (b[1]-a[1])*(c[0]-a[0]))
}

func onSeg2(a, b, p [2]int64) bool {
	return min(a[0], b[0]) <= p[0] && p[0] <= max(a[0], b[0]) && min(a[1], b[1]) <= p[1] && p[1] <= max(a[1], b[1])
}

func segSeg2(p, q, r, s [2]int64) bool {
	o1, o2, o3, o4 := orient2(p, q, r), orient2(p, q, s), orient2(r, s, p), orient2(r, s, q)
	if o1*o2 < 0 && o3*o4 < 0 {
		return true
	}
	return (o1 == 0 && onSeg2(p, q, r)) || (o2 == 0 && onSeg2(p, q, s)) ||
		(o3 == 0 && onSeg2(r, s, p)) || (o4 == 0 && onSeg2(r, s, q))
}

// segSeg3 decides whether closed segments pq and rs meet.
func segSeg3(p, q, r, s ip) bool {
	if idot(isub(s, p), icross(isub(q, p), isub(r, p))) != 0 {
		return false // not coplanar
	}
	// A normal of their common plane, if the four points are not collinear.
	var n ip
	for _, c := range []ip{icross(isub(q, p), isub(r, p)), icross(isub(q, p), isub(s, p)), icross(isub(s, r), isub(p, r)), icross(isub(s, r), isub(q, r))} {
		if c != (ip{}) {
			n = c
			break
		}
	}
	if n == (ip{}) {
		// Collinear (or points): compare intervals on every axis.
		for k := range 3 {
			if max(p[k], q[k]) < min(r[k], s[k]) || max(r[k], s[k]) < min(p[k], q[k]) {
				return false
			}
		}
		return true
	}
	return segSeg2(drop(n, p), drop(n, q), drop(n, r), drop(n, s))
}

// segTri decides whether closed segment pq meets closed triangle abc.
func segTri(p, q, a, b, c ip) bool {
	n := icross(isub(b, a), isub(c, a))
	if n == (ip{}) {
		return segSeg3(p, q, a, b) || segSeg3(p, q, b, c) || segSeg3(p, q, c, a)
	}
	dp, dq := sgn(idot(n, isub(p, a))), sgn(idot(n, isub(q, a)))
	if dp*dq > 0 {
		return false
	}
	if dp == 0 && dq == 0 {
		a2, b2, c2, p2, q2 := drop(n, a), drop(n, b), drop(n, c), drop(n, p), drop(n, q)
		inside := func(x [2]int64) bool {
			s1, s2, s3 := orient2(a2, b2, x), orient2(b2, c2, x), orient2(c2, a2, x)
			return (s1 >= 0 && s2 >= 0 && s3 >= 0) || (s1 <= 0 && s2 <= 0 && s3 <= 0)
		}
		return inside(p2) || inside(q2) || segSeg2(p2, q2, a2, b2) || segSeg2(p2, q2, b2, c2) || segSeg2(p2, q2, c2, a2)
	}
	d := isub(q, p)
	s1 := sgn(idot(d, icross(isub(a, p), isub(b, p))))
	s2 := sgn(idot(d, icross(isub(b, p), isub(c, p))))
	s3 := sgn(idot(d, icross(isub(c, p), isub(a, p))))
	return (s1 >= 0 && s2 >= 0 && s3 >= 0) || (s1 <= 0 && s2 <= 0 && s3 <= 0)
}

func triTriExact(p, q [3]ip) bool {
	for i := range 3 {
		if segTri(p[i], p[(i+1)%3], q[0], q[1], q[2]) || segTri(q[i], q[(i+1)%3], p[0], p[1], p[2]) {
			return true
		}
	}
	return false
}

func toTri(t [3]ip, scale float64, x Transform) Triangle {
	var r Triangle
	for i := range 3 {
		r[i] = x.Apply(Vec3{float64(t[i][0]) * scale, float64(t[i][1]) * scale, float64(t[i][2]) * scale})
	}
	return r
}

// TestTriTriMatchesExactReference draws triangles on a 5x5x5 integer grid,
// where coplanar pairs, shared vertices, touching edges, collinear and
// single-point triangles are frequent, and compares with exact predicates.
func TestTriTriMatchesExactReference(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(4, 4))
	pt := func() ip { return ip{r.Int64N(5) - 2, r.Int64N(5) - 2, r.Int64N(5) - 2} }
	flat := func() ip { return ip{r.Int64N(5) - 2, r.Int64N(5) - 2, 0} }
	n := exactCases(60_000)
	cases := make([][2][3]ip, n)
	for i := range cases {
		p, q := &cases[i][0], &cases[i][1]
		for k := range 3 {
			if i%3 == 0 { // coplanar pairs in z=0
				p[k], q[k] = flat(), flat()
			} else {
				p[k], q[k] = pt(), pt()
			}
		}
		if i%7 == 0 {
			p[2] = p[1] // zero-area
		}
	}
	meet := inShards(t, n, func(t *testing.T, i int) bool {
		p, q := cases[i][0], cases[i][1]
		want := triTriExact(p, q)
		got := TriTri(toTri(p, 1, Identity()), toTri(q, 1, Identity()))
		if got != want {
			t.Fatalf("case %d: p=%v q=%v: got %v, want %v", i, p, q, got, want)
		}
		if got != TriTri(toTri(q, 1, Identity()), toTri(p, 1, Identity())) {
			t.Fatalf("case %d: not symmetric", i)
		}
		return want
	})
	if meet < n/10 || n-meet < n/10 {
		t.Fatalf("workload is lopsided: %d of %d meet", meet, n)
	}
}

// TestTriTriScaledAndMoved: separations of the grid cases are at least
// 1/sqrt(3*16^2) in grid units, so after scaling by huge or tiny factors and a
// rigid motion the answers are unchanged, except that exactly touching pairs
// may be decided either way by rounding, and so are skipped.
func TestTriTriScaledAndMoved(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	pt := func() ip { return ip{r.Int64N(5) - 2, r.Int64N(5) - 2, r.Int64N(5) - 2} }
	for _, scale := range []float64{1e-6, 1, 1e6} {
		for i := range 20_000 {
			p := [3]ip{pt(), pt(), pt()}
			q := [3]ip{pt(), pt(), pt()}
			want := triTriExact(p, q)
			if want && !touchingOnly(p, q) {
				x := Transform{R: randRotation(r), T: randVec(r, 3*scale)}
				if !TriTri(toTri(p, scale, x), toTri(q, scale, x)) {
					t.Fatalf("scale %g case %d: p=%v q=%v: lost a crossing under motion", scale, i, p, q)
				}
			}
			if !want {
				x := Transform{R: randRotation(r), T: randVec(r, 3*scale)}
				if TriTri(toTri(p, scale, x), toTri(q, scale, x)) {
					t.Fatalf("scale %g case %d: p=%v q=%v: apart triangles reported as meeting", scale, i, p, q)
				}
			}
		}
	}
}

// touchingOnly reports whether the triangles meet but stop meeting when q is
// shifted by a small amount in some grid direction (contact, not crossing).
func touchingOnly(p, q [3]ip) bool {
	scaled := func(t [3]ip) [3]ip {
		for i := range t {
			for k := range 3 {
				t[i][k] *= 64
			}
		}
		return t
	}
	ps, qs := scaled(p), scaled(q)
	for dx := int64(-1); dx <= 1; dx++ {
		for dy := int64(-1); dy <= 1; dy++ {
			for dz := int64(-1); dz <= 1; dz++ {
				m := qs
				for i := range m {
					m[i] = ip{m[i][0] + dx, m[i][1] + dy, m[i][2] + dz}
				}
				if !triTriExact(ps, m) {
					return true
				}
			}
		}
	}
	return false
}

func TestTriTriAnalytic(t *testing.T) {
	base := Triangle{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}
	tests := []struct {
		name string
		q    Triangle
		want bool
	}{
		{"piercing", Triangle{{0.2, 0.2, -1}, {0.2, 0.2, 1}, {0.3, 0.25, 1}}, true},
		{"above", Triangle{{0.2, 0.2, 0.1}, {0.5, 0.2, 0.1}, {0.2, 0.5, 0.1}}, false},
		{"shared vertex only", Triangle{{1, 0, 0}, {2, 0, 1}, {2, 1, 0}}, true},
		{"coplanar overlapping", Triangle{{0.5, 0.5, 0}, {-0.5, 0.2, 0}, {0.1, -0.5, 0}}, true},
		{"coplanar apart across the hypotenuse", Triangle{{0.6, 0.6, 0}, {2, 0.6, 0}, {0.6, 2, 0}}, false},
		{"point on the face", Triangle{{0.25, 0.25, 0}, {0.25, 0.25, 0}, {0.25, 0.25, 0}}, true},
		{"point off the face", Triangle{{0.25, 0.25, 1e-9}, {0.25, 0.25, 1e-9}, {0.25, 0.25, 1e-9}}, false},
		{"segment crossing an edge in plane", Triangle{{0.5, -1, 0}, {0.5, 1, 0}, {0.5, 1, 0}}, true},
		{"segment parallel above an edge", Triangle{{0, -1e-6, 1e-6}, {1, -1e-6, 1e-6}, {1, -1e-6, 1e-6}}, false},
	}
	for _, tc := range tests {
		if got := TriTri(base, tc.q); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

// triPairs returns 256 random triangle pairs of about unit size whose
// overlap status is kind ("meet", "apart" or "mixed").
func triPairs(kind string) (ps, qs [256]Triangle) {
	r := rand.New(rand.NewPCG(6, 6))
	for i := 0; i < len(ps); {
		var p, q Triangle
		for k := range 3 {
			p[k], q[k] = randVec(r, 1), randVec(r, 1).Add(Vec3{0.8, 0, 0})
		}
		meet := TriTri(p, q)
		if (kind == "meet" && !meet) || (kind == "apart" && meet) {
			continue
		}
		ps[i], qs[i] = p, q
		i++
	}
	return ps, qs
}

func benchTriTri(b *testing.B, kind string) {
	ps, qs := triPairs(kind)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		sinkBool = TriTri(ps[i&255], qs[i&255])
		i++
	}
}

func BenchmarkTriTriMeet(b *testing.B)  { benchTriTri(b, "meet") }
func BenchmarkTriTriApart(b *testing.B) { benchTriTri(b, "apart") }
func BenchmarkTriTriMixed(b *testing.B) { benchTriTri(b, "mixed") }
