package experiments

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gloved/gloved/bch"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
)

// TestCriticalDepthIsTheFirstWithinOnePercent: on synthetic series, the
// critical depth is the first whose mean lies within 1% of the
// unlimited one, even when a later depth strays out again, and -1 when
// none comes that close.
func TestCriticalDepthIsTheFirstWithinOnePercent(t *testing.T) {
	for _, tc := range []struct {
		means     []float64
		unlimited float64
		want      int
	}{
		{[]float64{0.3, 0.2, 0.1, 0.0504, 0.0501, 0.05}, 0.05, 3},
		{[]float64{0.3, 0.2, 0.1, 0.06, 0.052}, 0.05, -1},
		{[]float64{0.05, 0.2}, 0.05, 0},
		{[]float64{0.3, 0.0496, 0.07, 0.05}, 0.05, 1},
		{[]float64{0.1, 0}, 0, 1},
	} {
		if got := CriticalDepth(tc.means, tc.unlimited); got != tc.want {
			t.Errorf("CriticalDepth(%v, %v): got %d, want %d", tc.means, tc.unlimited, got, tc.want)
		}
	}
}

// handTrees poses n frames of the procedural hand and builds its trees.
func handTrees(t *testing.T, n int) (*Body, *Trees) {
	t.Helper()
	h, err := handmodel.New(handmodel.DefaultParams)
	if err != nil {
		t.Fatal(err)
	}
	b, err := HandBody(HandName, h, n, rand.New(rand.NewPCG(5, 5)))
	if err != nil {
		t.Fatal(err)
	}
	tr, _, err := Construct(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	return b, tr
}

// shadowDistance is the distance between the shadows (projections onto
// the ground plane) of two triangle sets, by brute force over triangle
// pairs in the plane, skipping pairs whose bounding disks are no nearer
// than the best so far.
func shadowDistance(f Frame, a, b []geom.Triangle) float64 {
	type flat struct {
		p      [3]geom.Vec3 // in the plane (z = 0)
		cx, cy float64
		r      float64
	}
	flatten := func(ts []geom.Triangle) []flat {
		out := make([]flat, len(ts))
		for i, tr := range ts {
			o := &out[i]
			for k, p := range tr {
				o.p[k] = geom.Vec3{X: p.Dot(f.U), Y: p.Dot(f.V)}
				o.cx, o.cy = o.cx+o.p[k].X/3, o.cy+o.p[k].Y/3
			}
			for _, p := range o.p {
				o.r = math.Max(o.r, math.Hypot(p.X-o.cx, p.Y-o.cy))
			}
		}
		return out
	}
	// inside reports whether q lies in triangle t (in the plane).
	inside := func(t [3]geom.Vec3, q geom.Vec3) bool {
		s := 0
		for k := range 3 {
			a, b := t[k], t[(k+1)%3]
			c := (b.X-a.X)*(q.Y-a.Y) - (b.Y-a.Y)*(q.X-a.X)
			switch {
			case c > 0:
				s |= 1
			case c < 0:
				s |= 2
			}
		}
		return s != 3
	}
	fa, fb := flatten(a), flatten(b)
	best := math.Inf(1)
	for _, x := range fa {
		for _, y := range fb {
			if math.Hypot(x.cx-y.cx, x.cy-y.cy)-x.r-y.r >= best {
				continue
			}
			if inside(y.p, x.p[0]) || inside(x.p, y.p[0]) {
				return 0
			}
			for i := range 3 {
				for j := range 3 {
					best = math.Min(best, math.Sqrt(geom.SegmentSegmentDistSq(x.p[i], x.p[(i+1)%3], y.p[j], y.p[(j+1)%3])))
				}
			}
		}
	}
	return best
}

// TestSlidesKeepWhatIsGuaranteed: on slides of the procedural hand, what
// the hierarchies guarantee holds where each method stops.
//   - Every distance is finite and not negative.
//   - A depth limit finds every collision a deeper query finds, so a
//     deeper limit stops no earlier (to within the step the slide is
//     searched in).
//   - The triangles tree never misses a meeting of triangles: just
//     before it stops, the exact test finds none, and the exact test
//     stops no earlier than it.
//   - The single cylinders stop where their disks touch.
//   - The contour tree with tall cylinders stops only where two leaves'
//     disks overlap, each no wider than the threshold and holding a
//     piece of its mesh's outline: the shadows are then within four
//     thresholds of each other.
func TestSlidesKeepWhatIsGuaranteed(t *testing.T) {
	b, tr := handTrees(t, 12)
	s := newSlider(tr, b)
	r := rand.New(rand.NewPCG(6, 6))
	tested := 0
	for trial := 0; tested < 4 && trial < 200; trial++ {
		test := Slide{A: r.IntN(12), B: r.IntN(12), ThetaA: 2 * math.Pi * r.Float64(), ThetaB: 2 * math.Pi * r.Float64(), Y: 0.06 * (2*r.Float64() - 1)}
		res := s.run(test)
		if !res.collision {
			continue
		}
		tested++
		for m := range methods {
			for di := range MaxDepth + 2 {
				if d := res.dist[m][di]; !(d >= 0) || math.IsInf(d, 0) {
					t.Fatalf("%+v: method %d depth slot %d: distance %v", test, m, di, d)
				}
				if di > 0 && res.found[m][di] && res.found[m][di-1] && res.hi[m][di] < res.hi[m][di-1]-res.step {
					t.Errorf("%+v: method %d stops at %.5f with limit slot %d, at %.5f with the shallower one", test, m, res.hi[m][di], di, res.hi[m][di-1])
				}
			}
		}
		const full = MaxDepth + 1
		if !res.found[trianglesM][full] || !res.found[exactM][0] {
			t.Fatalf("%+v: the triangles tree or the exact test found nothing, yet the meshes collide", test)
		}
		s.place(test)
		if s.hits(exactM, Unlimited, res.lo[trianglesM][full], test) {
			t.Errorf("%+v: the meshes meet at %.6f, where the triangles tree finds nothing", test, res.lo[trianglesM][full])
		}
		if res.hi[exactM][0] < res.lo[trianglesM][full] {
			t.Errorf("%+v: the exact test stops at %.6f, before the triangles tree (%.6f)", test, res.hi[exactM][0], res.lo[trianglesM][full])
		}
		if d := res.hi[singleM][0] - res.s0; d < -1e-9 || d > res.step/100 {
			t.Errorf("%+v: the single cylinders stop %.3g past where they touch", test, d)
		}
		if res.found[tallM][full] {
			x := res.hi[tallM][full]
			a := make([]geom.Triangle, len(s.aw))
			for i, tri := range s.aw {
				off := tr.Frame.U.Mul(x)
				a[i] = geom.Triangle{tri[0].Add(off), tri[1].Add(off), tri[2].Add(off)}
			}
			d := shadowDistance(tr.Frame, a, s.bw)
			if d > 4*b.Threshold+1e-9 {
				t.Errorf("%+v: the tall contour trees stop with the shadows %.4g m apart, more than four thresholds", test, d)
			}
		}
	}
	if tested < 4 {
		t.Fatalf("only %d slides collided", tested)
	}
}

// TestCollidingCasesCollide: every case the query experiment keeps
// collides by brute force (a triangle of one meeting a triangle of the
// other), and a placed tree bounds its placed triangles.
func TestCollidingCasesCollide(t *testing.T) {
	b, tr := handTrees(t, 8)
	cases, draws, err := CollidingCases(context.Background(), tr, 6, rand.New(rand.NewPCG(7, 7)))
	if err != nil || len(cases) != 6 || draws < 6 {
		t.Fatalf("%d cases in %d draws: %v", len(cases), draws, err)
	}
	for _, c := range cases {
		x := tr.Frame.Transform(c.P)
		meet := false
		for _, ta := range b.Poses[c.A] {
			for _, tb := range b.Poses[c.B] {
				if geom.TriTri(ta, tb.Transformed(x)) {
					meet = true
					break
				}
			}
			if meet {
				break
			}
		}
		if !meet {
			t.Errorf("case %+v: no triangles meet", c)
		}
		var placed bch.Tree
		Place(&placed, tr.Triangles[c.B], c.P)
		for i := range placed.Nodes {
			n := &placed.Nodes[i]
			for _, it := range placed.Items[n.First : n.First+n.Count] {
				for _, p := range b.Poses[c.B][it] {
					q := x.Apply(p)
					u, v, w := q.Dot(tr.Frame.U), q.Dot(tr.Frame.V), q.Dot(tr.Frame.Axis)
					if !n.Circle.Contains(u, v) && math.Hypot(u-n.Circle.X, v-n.Circle.Y) > n.Circle.Radius+1e-12 || w < n.Lo-1e-12 || w > n.Hi+1e-12 {
						t.Fatalf("case %+v: placed node %d does not hold its triangle %d", c, i, it)
					}
				}
			}
		}
	}
}
