package bch

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gloved/gloved/geom"
)

// blob is n small random triangles (edges up to size) around centre
// within spread: a stand-in for a posed mesh's patch of surface.
func blob(r *rand.Rand, n int, centre geom.Vec3, spread, size float64) []geom.Triangle {
	out := make([]geom.Triangle, n)
	for i := range out {
		c := centre.Add(geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Mul(spread))
		for k := range 3 {
			out[i][k] = c.Add(geom.Vec3{X: r.Float64() - 0.5, Y: r.Float64() - 0.5, Z: r.Float64() - 0.5}.Mul(size))
		}
	}
	return out
}

func randomAxis(r *rand.Rand) geom.Vec3 {
	return geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}
}

// TestEveryCylinderHoldsItsTriangles: in trees of random triangle sets
// about random axes, every node's cylinder holds each of its triangles'
// vertices, the children split their parent's triangles between them, and
// splitting stops where the options say.
func TestEveryCylinderHoldsItsTriangles(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 1))
	var tr Tree
	for trial := range 200 {
		tris := blob(r, 1+r.IntN(300), geom.Vec3{}, 0.05, 0.02)
		o := Options{Variant: Variant(trial % 3), Threshold: []float64{0, 0.005, 0.01, 0.03}[trial%4]}
		if o.Variant == Contour && o.Threshold == 0 {
			o.Threshold = 0.002
		}
		if err := tr.Build(tris, randomAxis(r), o); err != nil {
			t.Fatal(err)
		}
		// A contour tree's items are its outline's pieces.
		points := func(it int32) [][3]float64 {
			if o.Variant != Contour {
				var out [][3]float64
				for _, p := range tris[it] {
					out = append(out, [3]float64{p.Dot(tr.U), p.Dot(tr.V), p.Dot(tr.Axis)})
				}
				return out
			}
			a, b := tr.Piece(it)
			return [][3]float64{{a[0], a[1], math.NaN()}, {b[0], b[1], math.NaN()}}
		}
		if o.Variant == Single && len(tr.Nodes) != 1 {
			t.Fatalf("trial %d: a single cylinder has %d nodes", trial, len(tr.Nodes))
		}
		if root := tr.Nodes[0]; int(root.Count) != len(tr.Items) || root.First != 0 || (o.Variant != Contour && len(tr.Items) != len(tris)) {
			t.Fatalf("trial %d: the root holds %d of %d items", trial, root.Count, len(tr.Items))
		}
		seen := make([]bool, len(tr.Items))
		for i := range tr.Nodes {
			n := &tr.Nodes[i]
			for _, it := range tr.Items[n.First : n.First+n.Count] {
				for _, p := range points(it) {
					u, v, w := p[0], p[1], p[2]
					if !n.Circle.Contains(u, v) || w < n.Lo || w > n.Hi {
						t.Fatalf("trial %d node %d: vertex (%v, %v, %v) outside %+v [%v, %v]", trial, i, u, v, w, n.Circle, n.Lo, n.Hi)
					}
				}
				if n.Leaf() {
					if seen[it] {
						t.Fatalf("trial %d: triangle %d in two leaves", trial, it)
					}
					seen[it] = true
				}
			}
			if n.Leaf() {
				if o.Variant != Single && n.Count > 1 && n.Circle.Radius > o.Threshold {
					t.Fatalf("trial %d node %d: a leaf of %d triangles, radius %v over %v", trial, i, n.Count, n.Circle.Radius, o.Threshold)
				}
				continue
			}
			a, b := &tr.Nodes[n.Child[0]], &tr.Nodes[n.Child[1]]
			if a.First != n.First || b.First != a.First+a.Count || a.Count+b.Count != n.Count || a.Count == 0 || b.Count == 0 {
				t.Fatalf("trial %d node %d: children %+v and %+v do not split %+v", trial, i, a, b, n)
			}
			if a.Depth != n.Depth+1 || b.Depth != n.Depth+1 {
				t.Fatalf("trial %d node %d: child depths %d, %d under %d", trial, i, a.Depth, b.Depth, n.Depth)
			}
		}
		for it, ok := range seen {
			if !ok {
				t.Fatalf("trial %d: triangle %d in no leaf", trial, it)
			}
		}
	}
}

// TestNeverMissesAnExactCollision: for seeded random pairs of triangle
// sets placed near each other, whenever a triangle of one meets a
// triangle of the other (the exact test), the triangle trees collide at
// every depth limit, unlimited included; and for every variant a limited
// query never denies what a deeper one finds (a shallower level is
// coarser, never finer).
func TestNeverMissesAnExactCollision(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 2))
	var ta, tb Tree
	var stack [][2]int32
	meets, hits, n := 0, 0, trials(400)
	for trial := range n {
		a := blob(r, 20+r.IntN(120), geom.Vec3{}, 0.03, 0.02)
		b := blob(r, 20+r.IntN(120), geom.Vec3{X: r.Float64() * 0.12}, 0.03, 0.02)
		axis := randomAxis(r)
		o := []Options{{Triangles, 0}, {Triangles, 0.01}, {Contour, 0.003}}[trial%3]
		if err := ta.Build(a, axis, o); err != nil {
			t.Fatal(err)
		}
		if err := tb.Build(b, axis, o); err != nil {
			t.Fatal(err)
		}
		exact := false
		for i := range a {
			for j := range b {
				if geom.TriTri(a[i], b[j]) {
					exact = true
					break
				}
			}
			if exact {
				break
			}
		}
		full := Query(&ta, &tb, -1, &stack)
		if exact && o.Variant == Triangles {
			meets++
			if !full.Hit {
				t.Fatalf("trial %d: the triangles meet but the trees do not collide (%+v)", trial, full)
			}
		}
		if full.Hit {
			hits++
			if full.Limited {
				t.Fatalf("trial %d: an unlimited query reports a limit: %+v", trial, full)
			}
		}
		prev := full.Hit
		for d := 12; d >= 0; d-- {
			res := Query(&ta, &tb, d, &stack)
			if prev && !res.Hit {
				t.Fatalf("trial %d: depth %d denies a collision a deeper query finds", trial, d)
			}
			if res.Hit && res.Level > d {
				t.Fatalf("trial %d: depth limit %d, hit at level %d", trial, d, res.Level)
			}
			prev = res.Hit
		}
	}
	if meets < 30*n/400 || hits == n {
		t.Fatalf("workload lopsided: %d exact collisions, %d tree hits of %d", meets, hits, n)
	}
	t.Logf("%d exact collisions, %d tree collisions of %d pairs", meets, hits, n)
}

// trials is full, or a quarter of it under -short (as CI runs the race
// detector): the trees are built and queried on one goroutine, where the
// race detector finds nothing and is several times slower. Each trial is
// checked as strictly; the run without -short draws them all.
func trials(full int) int {
	if testing.Short() {
		return full / 4
	}
	return full
}

// TestCylindersOverlap: the overlap test on cases with known answers:
// disks apart, touching, nested; extents apart and touching.
func TestCylindersOverlap(t *testing.T) {
	n := func(x, y, r, lo, hi float64) Node {
		return Node{Circle: geom.Circle{X: x, Y: y, Radius: r}, Lo: lo, Hi: hi}
	}
	for _, tc := range []struct {
		name string
		a, b Node
		want bool
	}{
		{"apart in the plane", n(0, 0, 1, 0, 1), n(2.5, 0, 1, 0, 1), false},
		{"touching in the plane", n(0, 0, 1, 0, 1), n(0, 2, 1, 0, 1), true},
		{"nested", n(0, 0, 3, 0, 1), n(0.5, 0.5, 0.1, 0.2, 0.3), true},
		{"apart along the axis", n(0, 0, 1, 0, 1), n(0, 0, 1, 1.5, 2), false},
		{"touching along the axis", n(0, 0, 1, 0, 1), n(0.5, 0, 1, 1, 2), true},
		{"diagonal, just apart", n(0, 0, 1, 0, 1), n(1.5, 1.5, 1, 0, 1), false},
	} {
		if got := Overlaps(&tc.a, &tc.b); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
		if got := Overlaps(&tc.b, &tc.a); got != tc.want {
			t.Errorf("%s, swapped: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestRebuildAndQueryAllocateNothing: once its buffers have grown, a tree
// is rebuilt for a new pose, and queried, with no allocation.
func TestRebuildAndQueryAllocateNothing(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 3))
	a, b := blob(r, 500, geom.Vec3{}, 0.04, 0.02), blob(r, 500, geom.Vec3{X: 0.05}, 0.04, 0.02)
	for _, o := range []Options{DefaultOptions, {Variant: Contour, Threshold: 0.01}} {
		var ta, tb Tree
		var stack [][2]int32
		axis := geom.Vec3{Z: 1}
		ta.Build(a, axis, o)
		tb.Build(b, axis, o)
		Query(&ta, &tb, -1, &stack)
		if n := testing.AllocsPerRun(20, func() {
			for i := range a { // a new pose: the set moved
				for k := range 3 {
					a[i][k] = a[i][k].Add(geom.Vec3{X: 1e-4})
				}
			}
			ta.Build(a, axis, o)
			Query(&ta, &tb, -1, &stack)
			Query(&ta, &tb, 3, &stack)
		}); n != 0 {
			t.Fatalf("%v: %v allocations per rebuild and query", o.Variant, n)
		}
	}
}

// TestBuildRefusesWhatCannotWork: no triangles, no axis, a negative or
// infinite threshold; the tree is then empty, not its last pose.
func TestBuildRefusesWhatCannotWork(t *testing.T) {
	tri := []geom.Triangle{{{}, {X: 1}, {Y: 1}}}
	var tr Tree
	for _, tc := range []struct {
		name string
		tris []geom.Triangle
		axis geom.Vec3
		o    Options
	}{
		{"no triangles", nil, geom.Vec3{Z: 1}, DefaultOptions},
		{"zero axis", tri, geom.Vec3{}, DefaultOptions},
		{"NaN axis", tri, geom.Vec3{X: math.NaN(), Z: 1}, DefaultOptions},
		{"negative threshold", tri, geom.Vec3{Z: 1}, Options{Threshold: -1}},
		{"infinite threshold", tri, geom.Vec3{Z: 1}, Options{Threshold: math.Inf(1)}},
	} {
		if err := tr.Build(tri, geom.Vec3{Z: 1}, DefaultOptions); err != nil {
			t.Fatal(err)
		}
		if err := tr.Build(tc.tris, tc.axis, tc.o); err == nil {
			t.Errorf("%s: built", tc.name)
		}
		if len(tr.Nodes) != 0 || Query(&tr, &tr, -1, nil).Hit {
			t.Errorf("%s: the failed build left %d nodes of the last", tc.name, len(tr.Nodes))
		}
	}
}

// BenchmarkBuild is a tree's rebuild for 2,300 triangles (the WebXR
// hand's count) and BenchmarkQuery a colliding query of two such trees.
func BenchmarkBuild(b *testing.B) {
	for _, o := range []Options{DefaultOptions, {Variant: Contour, Threshold: 0.01}, {Variant: Single}} {
		b.Run(o.Variant.String(), func(b *testing.B) {
			r := rand.New(rand.NewPCG(16, 4))
			tris := blob(r, 2300, geom.Vec3{}, 0.05, 0.01)
			var tr Tree
			b.ReportAllocs()
			for b.Loop() {
				tr.Build(tris, geom.Vec3{Z: 1}, o)
			}
			b.ReportMetric(float64(len(tr.Nodes)), "nodes")
		})
	}
}

func BenchmarkQuery(b *testing.B) {
	r := rand.New(rand.NewPCG(17, 5))
	var ta, tb Tree
	ta.Build(blob(r, 2300, geom.Vec3{}, 0.05, 0.01), geom.Vec3{Z: 1}, DefaultOptions)
	tb.Build(blob(r, 2300, geom.Vec3{X: 0.12}, 0.05, 0.01), geom.Vec3{Z: 1}, DefaultOptions)
	var stack [][2]int32
	b.ReportAllocs()
	tests := 0
	for b.Loop() {
		tests += Query(&ta, &tb, -1, &stack).Tests
	}
	b.ReportMetric(float64(tests)/float64(b.N), "tests/query")
}
