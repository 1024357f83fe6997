package geom

import (
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// overlap is the box test as the tests state it: the boxes meet.
func overlap(a, b OBB) bool { return !BoxesDisjoint(&a, &b) }

// relative places b in a's frame: the inputs of disjoint.
func relative(a, b OBB) (mgl64.Mat3, Vec3) {
	at := a.Axes.Transpose()
	return at.Mul3(b.Axes), FromMgl(at.Mul3x1(b.Center.Sub(a.Center).Mgl()))
}

func zeroExtents(b OBB) int {
	n := 0
	for _, h := range b.Half.Mgl() {
		if h == 0 {
			n++
		}
	}
	return n
}

// TestOverlapMatchesVertexEnumeration checks the 15-axis test against an
// exact, unrelated reference on 100k seeded random pairs that include
// zero-thickness boxes, shared axes (parallel edges) and exact touching.
func TestOverlapMatchesVertexEnumeration(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	n := draws(100_000)
	var hs []halfspace
	counts := map[string]int{}
	for i := range n {
		ra := randRotation(r)
		rb := randRotation(r)
		switch i % 4 {
		case 1: // B shares A's axes up to a rotation about A's first axis
			rb = ra.Mul3(mgl64.HomogRotate3DX(r.Float64() * 6.3).Mat3())
		case 2: // both axis aligned on a coarse grid: exact face contact
			ra, rb = mgl64.Ident3(), mgl64.Ident3()
		}
		a, b := randBox(r, ra), randBox(r, rb)
		if i%4 == 2 {
			a.Center = Vec3{float64(r.IntN(5)) * 0.5, float64(r.IntN(5)) * 0.5, 0}
			b.Center = Vec3{float64(r.IntN(5)) * 0.5, float64(r.IntN(5)) * 0.5, 0}
			a.Half = Vec3{0.5, 0.5, float64(r.IntN(2)) * 0.5}
			b.Half = Vec3{0.5, 0.25 * float64(r.IntN(3)), 0.5}
		}
		hs = boxHalfspaces(b, boxHalfspaces(a, hs[:0]))
		got := overlap(a, b)
		exact := feasible(hs, 0, 1e-12)
		if exact && !got {
			t.Fatalf("pair %d: boxes intersect but the test found a separating axis\nA=%+v\nB=%+v", i, a, b)
		}
		segments := zeroExtents(a) >= 2 && zeroExtents(b) >= 2
		if got && !exact && !segments && !feasible(hs, 1e-6, 1e-12) {
			t.Fatalf("pair %d: boxes are apart by more than 1e-6 but the test reports overlap\nA=%+v\nB=%+v", i, a, b)
		}
		if got {
			counts["overlap"]++
		} else {
			counts["disjoint"]++
		}
	}
	if counts["overlap"] < n/10 || counts["disjoint"] < n/10 {
		t.Fatalf("workload is lopsided: %v", counts)
	}
}

// TestOverlapSymmetricAndFrameInvariant: swapping the boxes, or moving both
// by one rigid motion, does not change the answer for clearly decided pairs.
func TestOverlapSymmetricAndFrameInvariant(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	for i := range draws(20_000) {
		a, b := randBox(r, randRotation(r)), randBox(r, randRotation(r))
		x := Transform{R: randRotation(r), T: randVec(r, 10)}
		got := overlap(a, b)
		if overlap(b, a) != got {
			t.Fatalf("pair %d: Overlap(a,b)=%v but Overlap(b,a)=%v", i, got, !got)
		}
		var hs []halfspace
		hs = boxHalfspaces(b, boxHalfspaces(a, hs))
		// Skip pairs within 1e-6 of contact, where rounding may decide.
		if feasible(hs, 1e-6, 0) != feasible(hs, -1e-6, 0) {
			continue
		}
		if overlap(a.Transformed(x), b.Transformed(x)) != got {
			t.Fatalf("pair %d: answer changed under a rigid motion", i)
		}
	}
}

func TestDisjointAnalytic(t *testing.T) {
	unit := Vec3{1, 1, 1}
	rot45 := mgl64.HomogRotate3DZ(mgl64.DegToRad(45)).Mat3()
	tests := []struct {
		name string
		a, b OBB
		want bool
	}{
		{"faces touching", OBB{Axes: mgl64.Ident3(), Half: unit}, OBB{Center: Vec3{2, 0, 0}, Axes: mgl64.Ident3(), Half: unit}, true},
		{"gap along x", OBB{Axes: mgl64.Ident3(), Half: unit}, OBB{Center: Vec3{2.001, 0, 0}, Axes: mgl64.Ident3(), Half: unit}, false},
		{"rotated corner reaches in", OBB{Axes: mgl64.Ident3(), Half: unit}, OBB{Center: Vec3{2.4, 0, 0}, Axes: rot45, Half: unit}, true},
		{"rotated corner stops short", OBB{Axes: mgl64.Ident3(), Half: unit}, OBB{Center: Vec3{2.42, 0, 0}, Axes: rot45, Half: unit}, false},
		{"two tilted boxes apart",
			OBB{Axes: mgl64.HomogRotate3DX(mgl64.DegToRad(45)).Mat3(), Half: unit},
			OBB{Center: Vec3{0, 2.9, 2.9}, Axes: mgl64.HomogRotate3DY(mgl64.DegToRad(45)).Mat3(), Half: unit}, false},
		{"rectangles crossing", OBB{Axes: mgl64.Ident3(), Half: Vec3{1, 1, 0}}, OBB{Axes: mgl64.HomogRotate3DX(1).Mat3(), Half: Vec3{0.5, 2, 0}}, true},
		{"parallel rectangles apart", OBB{Axes: mgl64.Ident3(), Half: Vec3{1, 1, 0}}, OBB{Center: Vec3{0, 0, 1e-3}, Axes: mgl64.Ident3(), Half: Vec3{1, 1, 0}}, false},
	}
	for _, tc := range tests {
		if got := overlap(tc.a, tc.b); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

func benchPairs(seed uint64, kind string) ([]mgl64.Mat3, []Vec3, []Vec3, []Vec3) {
	r := rand.New(rand.NewPCG(seed, seed))
	const n = 1024
	rs, ts, as, bs := make([]mgl64.Mat3, 0, n), make([]Vec3, 0, n), make([]Vec3, 0, n), make([]Vec3, 0, n)
	for len(rs) < n {
		a, b := randBox(r, randRotation(r)), randBox(r, randRotation(r))
		rr, tt := relative(a, b)
		d := disjoint(&rr, &tt, &a.Half, &b.Half)
		if (kind == "disjoint" && !d) || (kind == "overlap" && d) {
			continue
		}
		rs, ts, as, bs = append(rs, rr), append(ts, tt), append(as, a.Half), append(bs, b.Half)
	}
	return rs, ts, as, bs
}

var sinkBool bool

func benchDisjoint(b *testing.B, kind string) {
	rs, ts, as, bs := benchPairs(3, kind)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		k := i & 1023
		sinkBool = disjoint(&rs[k], &ts[k], &as[k], &bs[k])
		i++
	}
}

func BenchmarkDisjointSeparated(b *testing.B)   { benchDisjoint(b, "disjoint") }
func BenchmarkDisjointOverlapping(b *testing.B) { benchDisjoint(b, "overlap") }
func BenchmarkDisjointMixed(b *testing.B)       { benchDisjoint(b, "mixed") }
