package geom

import (
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// The rational reference: the integer reference of tritri_test.go carried
// over to big.Rat, so that it decides any float64 coordinates exactly. It
// shares nothing with exact.go: triangles meet iff an edge of one meets the
// other, by orientation signs.

type rq [3]*big.Rat

func rqOf(v Vec3) rq {
	return rq{new(big.Rat).SetFloat64(v.X), new(big.Rat).SetFloat64(v.Y), new(big.Rat).SetFloat64(v.Z)}
}

func qsub(a, b rq) rq {
	return rq{new(big.Rat).Sub(a[0], b[0]), new(big.Rat).Sub(a[1], b[1]), new(big.Rat).Sub(a[2], b[2])}
}

func qmul(a, b *big.Rat) *big.Rat { return new(big.Rat).Mul(a, b) }

func qcross(a, b rq) rq {
	var c rq
	for i := range 3 {
		j, k := (i+1)%3, (i+2)%3
		c[i] = new(big.Rat).Sub(qmul(a[j], b[k]), qmul(a[k], b[j]))
	}
	return c
}

func qdot(a, b rq) *big.Rat {
	s := new(big.Rat)
	for i := range 3 {
		s.Add(s, qmul(a[i], b[i]))
	}
	return s
}

func qzero(a rq) bool { return a[0].Sign() == 0 && a[1].Sign() == 0 && a[2].Sign() == 0 }

// qdrop projects onto the coordinate plane that drops n's largest
// component.
func qdrop(n, p rq) [2]*big.Rat {
	k := 0
	for i := 1; i < 3; i++ {
		if new(big.Rat).Abs(n[i]).Cmp(new(big.Rat).Abs(n[k])) > 0 {
			k = i
		}
	}
	return [2]*big.Rat{p[(k+1)%3], p[(k+2)%3]}
}

func qorient2(a, b, c [2]*big.Rat) int {
	x := qmul(new(big.Rat).Sub(b[0], a[0]), new(big.Rat).Sub(c[1], a[1]))
	y := qmul(new(big.Rat).Sub(b[1], a[1]), new(big.Rat).Sub(c[0], a[0]))
	return x.Cmp(y)
}

func qbetween(a, b, p *big.Rat) bool {
	lo, hi := a, b
	if lo.Cmp(hi) > 0 {
		lo, hi = hi, lo
	}
	return lo.Cmp(p) <= 0 && p.Cmp(hi) <= 0
}

func qonSeg2(a, b, p [2]*big.Rat) bool {
	return qbetween(a[0], b[0], p[0]) && qbetween(a[1], b[1], p[1])
}

func qsegSeg2(p, q, r, s [2]*big.Rat) bool {
	o1, o2, o3, o4 := qorient2(p, q, r), qorient2(p, q, s), qorient2(r, s, p), qorient2(r, s, q)
	if o1*o2 < 0 && o3*o4 < 0 {
		return true
	}
	return (o1 == 0 && qonSeg2(p, q, r)) || (o2 == 0 && qonSeg2(p, q, s)) ||
		(o3 == 0 && qonSeg2(r, s, p)) || (o4 == 0 && qonSeg2(r, s, q))
}

func qsegSeg3(p, q, r, s rq) bool {
	if qdot(qsub(s, p), qcross(qsub(q, p), qsub(r, p))).Sign() != 0 {
		return false
	}
	for _, n := range []rq{qcross(qsub(q, p), qsub(r, p)), qcross(qsub(q, p), qsub(s, p)), qcross(qsub(s, r), qsub(p, r)), qcross(qsub(s, r), qsub(q, r))} {
		if !qzero(n) {
			return qsegSeg2(qdrop(n, p), qdrop(n, q), qdrop(n, r), qdrop(n, s))
		}
	}
	for k := range 3 { // collinear: intervals on every axis
		if !(qbetween(p[k], q[k], r[k]) || qbetween(p[k], q[k], s[k]) || qbetween(r[k], s[k], p[k])) {
			return false
		}
	}
	return true
}

func qsegTri(p, q, a, b, c rq) bool {
	n := qcross(qsub(b, a), qsub(c, a))
	if qzero(n) {
		return qsegSeg3(p, q, a, b) || qsegSeg3(p, q, b, c) || qsegSeg3(p, q, c, a)
	}
	dp, dq := qdot(n, qsub(p, a)).Sign(), qdot(n, qsub(q, a)).Sign()
	if dp*dq > 0 {
		return false
	}
	if dp == 0 && dq == 0 {
		a2, b2, c2, p2, q2 := qdrop(n, a), qdrop(n, b), qdrop(n, c), qdrop(n, p), qdrop(n, q)
		inside := func(x [2]*big.Rat) bool {
			s1, s2, s3 := qorient2(a2, b2, x), qorient2(b2, c2, x), qorient2(c2, a2, x)
			return (s1 >= 0 && s2 >= 0 && s3 >= 0) || (s1 <= 0 && s2 <= 0 && s3 <= 0)
		}
		return inside(p2) || inside(q2) || qsegSeg2(p2, q2, a2, b2) || qsegSeg2(p2, q2, b2, c2) || qsegSeg2(p2, q2, c2, a2)
	}
	d := qsub(q, p)
	s1 := qdot(d, qcross(qsub(a, p), qsub(b, p))).Sign()
	s2 := qdot(d, qcross(qsub(b, p), qsub(c, p))).Sign()
	s3 := qdot(d, qcross(qsub(c, p), qsub(a, p))).Sign()
	return (s1 >= 0 && s2 >= 0 && s3 >= 0) || (s1 <= 0 && s2 <= 0 && s3 <= 0)
}

// refTriTri decides two float triangles exactly.
func refTriTri(p, q Triangle) bool {
	var a, b [3]rq
	for i := range 3 {
		a[i], b[i] = rqOf(p[i]), rqOf(q[i])
	}
	for i := range 3 {
		if qsegTri(a[i], a[(i+1)%3], b[0], b[1], b[2]) || qsegTri(b[i], b[(i+1)%3], a[0], a[1], a[2]) {
			return true
		}
	}
	return false
}

// hardPair draws a pair of triangles of one of the kinds where rounding
// decides a float test: near-touching across a face or an edge,
// coplanar and nearly coplanar, neighbours sharing an edge and shifted by
// a hair (the bunny against itself), shared corners, zero-area triangles.
func hardPair(r *rand.Rand, kind int) (Triangle, Triangle) {
	v := func() Vec3 { return Vec3{r.Float64(), r.Float64(), r.Float64()}.Mul(0.1) }
	hair := func() float64 {
		e := []float64{0, 0x1p-52, -0x1p-52, 1e-16, -1e-16, 1e-15, 3e-13, -3e-13, 3e-12, -3e-12, 1e-9}
		return e[r.IntN(len(e))]
	}
	ulp := func(x float64) float64 { return x + float64(r.IntN(5)-2)*math.Abs(x)*0x1p-52 }
	jiggle := func(t Triangle) Triangle {
		for i := range 3 {
			t[i] = Vec3{ulp(t[i].X), ulp(t[i].Y), ulp(t[i].Z)}
		}
		return t
	}
	p := Triangle{v(), v(), v()}
	n := p.Normal().Normalize()
	switch kind % 6 {
	case 0: // q's corner near p's face, q leaning away
		c := p[0].Mul(0.3).Add(p[1].Mul(0.3)).Add(p[2].Mul(0.4))
		q := Triangle{c.Add(n.Mul(hair())), c.Add(n.Mul(0.05)).Add(v()), c.Add(n.Mul(0.05)).Sub(v())}
		return p, jiggle(q)
	case 1: // coplanar, nearly coplanar
		q := Triangle{p[0].Add(p[1]).Mul(0.5), p[1].Add(p[2]).Mul(0.5).Add(n.Mul(hair())), v().Sub(n.Mul(v().Dot(n) - p[0].Dot(n)))}
		return jiggle(p), jiggle(q)
	case 2: // neighbours across edge p0-p1, q shifted by a hair
		far := p[0].Add(p[1]).Sub(p[2])
		d := Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize().Mul(hair())
		q := Triangle{p[1].Add(d), p[0].Add(d), far.Add(n.Mul(0.01 * r.NormFloat64())).Add(d)}
		return p, q
	case 3: // edges crossing near each other
		m := p[0].Add(p[1]).Mul(0.5)
		e := p[1].Sub(p[0]).Cross(n).Normalize()
		q := Triangle{m.Add(n.Mul(hair())).Sub(e.Mul(0.01)), m.Add(n.Mul(hair())).Add(e.Mul(0.01)), m.Add(n.Mul(0.05))}
		return p, jiggle(q)
	case 4: // a shared corner
		return p, Triangle{p[r.IntN(3)], v(), v()}
	default: // zero-area triangles near p
		c := p[0].Mul(0.5).Add(p[1].Mul(0.5))
		q := Triangle{c.Add(n.Mul(hair())), c.Add(n.Mul(hair())).Add(p[2].Sub(c).Mul(0.5)), c}
		if r.IntN(2) == 0 {
			q[2] = q[0]
		}
		return p, jiggle(q)
	}
}

// exactCases is how many pairs of each kind the exact comparisons draw:
// GLOVED_EXACT_CASES raises it for the long run.
func exactCases(def int) int {
	if n, err := strconv.Atoi(os.Getenv("GLOVED_EXACT_CASES")); err == nil && n > 0 {
		return n
	}
	return draws(def)
}

// draws is how many random cases a property test of full draws: a tenth
// under -short or the race detector (the geometry has no goroutines to
// race, and the race detector slows it several times), each checked as
// strictly.
func draws(full int) int {
	if testing.Short() || raceEnabled {
		return full / 10
	}
	return full
}

func TestTriTriIsExactOnHardCases(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(11, 12))
	n := exactCases(12_000)
	cases := make([][2]Triangle, n)
	for i := range cases {
		cases[i][0], cases[i][1] = hardPair(r, i)
	}
	meet := inShards(t, n, func(t *testing.T, i int) bool {
		p, q := cases[i][0], cases[i][1]
		want := refTriTri(p, q)
		if got := TriTri(p, q); got != want {
			t.Fatalf("case %d (kind %d): p=%v q=%v: got %v, exact %v", i, i%6, p, q, got, want)
		}
		if got := TriTri(q, p); got != want {
			t.Fatalf("case %d: not symmetric", i)
		}
		return want
	})
	if meet < n/10 || n-meet < n/10 {
		t.Fatalf("workload is lopsided: %d of %d meet", meet, n)
	}
}

// inShards checks cases 0 to n-1, each by check, in parallel subtests of
// consecutive cases (the exact references take most of a minute in one
// goroutine), and returns how many check answered true.
func inShards(t *testing.T, n int, check func(t *testing.T, i int) bool) int {
	t.Helper()
	const shards = 4
	var yes [shards]int
	t.Run("cases", func(t *testing.T) {
		for k := range shards {
			t.Run(strconv.Itoa(k), func(t *testing.T) {
				t.Parallel()
				for i := k * n / shards; i < (k+1)*n/shards; i++ {
					if check(t, i) {
						yes[k]++
					}
				}
			})
		}
	})
	total := 0
	for _, y := range yes {
		total += y
	}
	return total
}

// refInBox returns p's coordinates along the box's stored axes, exactly
// (Cramer's rule on the axes as given), or false for a box whose axes are
// linearly dependent.
func refInBox(p rq, c rq, u [3]rq) ([3]*big.Rat, bool) {
	det := qdot(u[0], qcross(u[1], u[2]))
	var a [3]*big.Rat
	if det.Sign() == 0 {
		return a, false
	}
	w := qsub(p, c)
	for k := range 3 {
		cols := u
		cols[k] = w
		a[k] = new(big.Rat).Quo(qdot(cols[0], qcross(cols[1], cols[2])), det)
	}
	return a, true
}

// refSegBox decides whether segment pq meets the box exactly: the part of
// [0, 1] where every box coordinate of p + t(q-p) is within its half.
func refSegBox(p, q, c rq, u [3]rq, h [3]*big.Rat) bool {
	ap, ok := refInBox(p, c, u)
	aq, _ := refInBox(q, c, u)
	if !ok {
		return false
	}
	lo, hi := new(big.Rat), big.NewRat(1, 1)
	for k := range 3 {
		d := new(big.Rat).Sub(aq[k], ap[k])
		neg := new(big.Rat).Neg(h[k])
		if d.Sign() == 0 {
			if ap[k].Cmp(h[k]) > 0 || ap[k].Cmp(neg) < 0 {
				return false
			}
			continue
		}
		t0 := new(big.Rat).Quo(new(big.Rat).Sub(neg, ap[k]), d)
		t1 := new(big.Rat).Quo(new(big.Rat).Sub(h[k], ap[k]), d)
		if t0.Cmp(t1) > 0 {
			t0, t1 = t1, t0
		}
		if t0.Cmp(lo) > 0 {
			lo = t0
		}
		if t1.Cmp(hi) < 0 {
			hi = t1
		}
	}
	return lo.Cmp(hi) <= 0
}

// refTriOBB decides a triangle against a box exactly: they meet iff an
// edge of the triangle meets the box or an edge of the box meets the
// triangle (where a triangle cuts a box, the section's corners lie on box
// edges inside the triangle).
func refTriOBB(t Triangle, b OBB) bool {
	var tri [3]rq
	for i := range 3 {
		tri[i] = rqOf(t[i])
	}
	c := rqOf(b.Center)
	var u [3]rq
	var h [3]*big.Rat
	for k := range 3 {
		u[k], h[k] = rqOf(b.Axis(k)), new(big.Rat).SetFloat64(b.Half.At(k))
	}
	for i := range 3 {
		if refSegBox(tri[i], tri[(i+1)%3], c, u, h) {
			return true
		}
	}
	var corner [8]rq
	for i := range 8 {
		corner[i] = c
		for k := range 3 {
			var off rq
			for j := range 3 {
				off[j] = qmul(h[k], u[k][j])
			}
			if i&(1<<k) != 0 {
				corner[i] = qsub(corner[i], off)
			} else {
				corner[i] = qsub(corner[i], qsub(rq{new(big.Rat), new(big.Rat), new(big.Rat)}, off))
			}
		}
	}
	for i := range 8 {
		for k := range 3 {
			if j := i | 1<<k; j != i && qsegTri(corner[i], corner[j], tri[0], tri[1], tri[2]) {
				return true
			}
		}
	}
	return false
}

// hardBoxPair draws a rotated box and a triangle touching or nearly
// touching one of its faces, edges or corners (a hair in or out), or
// cutting it; some boxes are flat or collapsed to a segment.
func hardBoxPair(r *rand.Rand, kind int) (Triangle, OBB) {
	q := mgl64.Quat{W: r.NormFloat64(), V: mgl64.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}}
	x, _ := FromQuat(q, Vec3{r.Float64(), r.Float64(), r.Float64()})
	b := OBB{Center: x.T, Axes: x.R, Half: Vec3{0.01 + r.Float64()*0.05, 0.01 + r.Float64()*0.05, 0.01 + r.Float64()*0.05}}
	half := b.Half.Mgl()
	switch kind % 7 {
	case 5:
		half[r.IntN(3)] = 0
	case 6:
		half[0], half[2] = 0, 0
	}
	b.Half = FromMgl(half)
	hair := []float64{0, 0x1p-52, -0x1p-52, 1e-16, -1e-16, 3e-13, -3e-13, 1e-9, -1e-9}[r.IntN(9)]
	// A point on the box's surface: a corner, an edge or a face point.
	var sk mgl64.Vec3
	for k := range 3 {
		sk[k] = float64(2*r.IntN(2)-1) * half[k]
		if k < kind%3 {
			sk[k] = (2*r.Float64() - 1) * half[k]
		}
	}
	s := FromMgl(sk)
	out := s.Normalize()
	if s.Len() == 0 {
		out = Vec3{1, 0, 0}
	}
	p := x.Apply(s.Add(out.Mul(hair)))
	away := x.Rotate(out)
	side := away.Cross(Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}).Normalize()
	t := Triangle{p, p.Add(away.Mul(0.02)).Add(side.Mul(0.02)), p.Add(away.Mul(0.02)).Sub(side.Mul(0.02))}
	if kind%4 == 3 { // an edge of the triangle along the surface instead
		t[1] = p.Add(side.Mul(0.03))
	}
	return t, b
}

func TestTriOBBIsExactOnHardCases(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(13, 14))
	n := exactCases(3_000)
	type pair struct {
		tri Triangle
		b   OBB
	}
	cases := make([]pair, n)
	for i := range cases {
		cases[i].tri, cases[i].b = hardBoxPair(r, i)
	}
	meet := inShards(t, n, func(t *testing.T, i int) bool {
		tri, b := cases[i].tri, cases[i].b
		want := refTriOBB(tri, b)
		if got := TriOBB(tri, b); got != want {
			t.Fatalf("case %d (kind %d): %v vs %+v: got %v, exact %v", i, i%7, tri, b, got, want)
		}
		if want && !TriOBBMayMeet(tri, &b) {
			t.Fatalf("case %d (kind %d): %v vs %+v meet, but the pruning test says apart", i, i%7, tri, b)
		}
		return want
	})
	if meet < n/10 || n-meet < n/10 {
		t.Fatalf("workload is lopsided: %d of %d meet", meet, n)
	}
}
