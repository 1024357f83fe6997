package cab_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/cab"
	"github.com/gloved/gloved/cab/cabtest"
	"github.com/gloved/gloved/cab/experiments"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
)

func randomHandPose(r *rand.Rand, hand *handmodel.Hand, out []geom.Transform) {
	var q handmodel.Angles
	for j := range q {
		lim := hand.Limits[j]
		q[j] = lim.Min + r.Float64()*(lim.Max-lim.Min)
	}
	quat := mgl64.Quat{W: r.NormFloat64(), V: mgl64.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}}
	w, _ := geom.FromQuat(quat, geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()})
	hand.Pose(&q, w, out)
}

func TestHandHierarchyShape(t *testing.T) {
	_, h := cabtest.Hand(t)
	if len(h.Nodes) != 15 || h.Root != 14 {
		t.Fatalf("%d nodes, root %d; want 15 internal nodes with the root last", len(h.Nodes), h.Root)
	}
	if got := h.Links(h.Root); len(got) != 16 {
		t.Fatalf("root covers %d links", len(got))
	}
	// Every node's links are exactly its children's.
	for i, n := range h.Nodes {
		a, b := h.Links(n.Child[0]), h.Links(n.Child[1])
		if len(a)+len(b) != int(n.L1-n.L0) {
			t.Fatalf("node %d covers %d links, children %d + %d", i, n.L1-n.L0, len(a), len(b))
		}
		if n.Child[0] >= int32(i) || n.Child[1] >= int32(i) {
			t.Fatalf("node %d refers to a later node", i)
		}
	}
	// A finger is one subtree: distal and middle phalanges, then the proximal.
	found := false
	for _, n := range h.Nodes {
		if ls := h.Links(int32(len(h.Nodes) - 1)); len(ls) == 16 && n.L1-n.L0 == 3 {
			found = true
		}
	}
	if !found || h.Depth() < 4 || h.Depth() > 6 {
		t.Fatalf("finger subtrees missing or depth %d", h.Depth())
	}
}

// TestHandBodyAdjacency: a hand body's links share a joint exactly when
// the hand's do.
func TestHandBodyAdjacency(t *testing.T) {
	hand, h := cabtest.Hand(t)
	pairs := 0
	for x := range h.Body.Links {
		for y := range h.Body.Links {
			want := hand.Parent(handmodel.Link(x)) == handmodel.Link(y) || hand.Parent(handmodel.Link(y)) == handmodel.Link(x)
			if got := h.Body.Adjacent(int32(x), int32(y)); got != want {
				t.Errorf("links %d, %d: got %v, want %v", x, y, got, want)
			}
			if want {
				pairs++
			}
		}
	}
	if pairs != 2*15 {
		t.Errorf("%d ordered adjacent pairs, want 30 (15 joints)", pairs)
	}
}

func TestChainHierarchyIsBalanced(t *testing.T) {
	body, err := experiments.ChainBody("c", 16, experiments.LinkShape{Length: 3, Thickness: 1})
	if err != nil {
		t.Fatal(err)
	}
	h, err := cab.Build(body)
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Nodes) != 15 || h.Depth() != 4 {
		t.Fatalf("%d nodes, depth %d; want 15 and 4", len(h.Nodes), h.Depth())
	}
}

// TestEveryStrategyBoundsItsGeometry: after a refit to any pose, every box
// contains every vertex of every link below it.
func TestEveryStrategyBoundsItsGeometry(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 41))
	hand, h := cabtest.Hand(t)
	chainBody, _ := experiments.ChainBody("c", 16, experiments.LinkShape{Length: 6, Thickness: 1, Dented: true})
	ch, _ := cab.Build(chainBody)
	poses := make([]geom.Transform, 17)
	bend := make([][2]float64, 16)
	trials := 1000
	if testing.Short() { // the race run: a third of the poses
		trials = 300
	}
	for _, s := range cab.Strategies {
		for _, hh := range []*cab.Hierarchy{h, ch} {
			ref, err := cab.NewRefitter(s, hh)
			if err != nil {
				t.Fatal(err)
			}
			for trial := range trials {
				if hh == h {
					randomHandPose(r, hand, poses)
				} else {
					for i := range bend {
						bend[i] = [2]float64{(r.Float64() - 0.5) * 2 * math.Pi, (r.Float64() - 0.5) * 2 * math.Pi}
					}
					experiments.ChainPose(6, geom.Transform{R: mgl64.Ident3()}, bend, poses)
				}
				ref.Refit(poses)
				for k := int32(-int32(len(hh.Body.Links))); k < int32(len(hh.Nodes)); k++ {
					box := hh.Box(k)
					if !finiteBox(box) {
						t.Fatalf("%s trial %d: box %d not finite: %+v", s, trial, k, box)
					}
					for _, l := range hh.Links(k) {
						for _, v := range hh.Body.Links[l].Verts {
							p := poses[l].Apply(v)
							if !box.Contains(p, 1e-9*(1+p.Len())) {
								t.Fatalf("%s trial %d: box of %d misses vertex %v of link %d", s, trial, k, p, l)
							}
						}
					}
				}
			}
		}
	}
}

func finiteBox(b *geom.OBB) bool {
	for _, x := range b.Axes {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return b.Center.Finite() && b.Half.Finite()
}

func rod(center, dir geom.Vec3, length, thick float64) geom.OBB {
	d := dir.Normalize()
	ref := geom.Vec3{Z: 1}
	if math.Abs(d.Z) > 0.9 {
		ref = geom.Vec3{X: 1}
	}
	y := d.Cross(ref).Normalize()
	return geom.OBB{Center: center, Axes: geom.FromCols(d, y, d.Cross(y)), Half: geom.Vec3{X: length / 2, Y: thick / 2, Z: thick / 2}}
}

func TestMergeCABSpecialCases(t *testing.T) {
	j := geom.Vec3{}
	tests := []struct {
		name   string
		b1, b2 geom.OBB
		major  geom.Vec3 // expected first axis (up to sign), or zero to skip
		volume float64   // expected volume, or 0 to skip
	}{
		{"straight chain (antiparallel major axes)", rod(geom.Vec3{Y: 1.5}, geom.Vec3{Y: 1}, 3, 1), rod(geom.Vec3{Y: -1.5}, geom.Vec3{Y: 1}, 3, 1), geom.Vec3{Y: 1}, 6},
		{"fully folded (parallel, same side)", rod(geom.Vec3{X: 0.5, Y: 1.5}, geom.Vec3{Y: 1}, 3, 1), rod(geom.Vec3{X: -0.5, Y: 1.5}, geom.Vec3{Y: 1}, 3, 1), geom.Vec3{Y: 1}, 6},
		{"right angle: endpoint vector wins", rod(geom.Vec3{Y: 1.5}, geom.Vec3{Y: 1}, 3, 1), rod(geom.Vec3{X: 1.5}, geom.Vec3{X: 1}, 3, 1), geom.Vec3{X: 1, Y: -1}.Normalize(), 0},
		{"nearly folded: a child's axis wins", rod(geom.Vec3{Y: 1.5}, geom.Vec3{Y: 1}, 3, 1), rod(geom.Vec3{X: 0.05, Y: 0.5}, geom.Vec3{X: 0.1, Y: 1}, 1, 1), geom.Vec3{Y: 1}, 0},
		{"nearly straight: the endpoint vector wins", rod(geom.Vec3{Y: 1.5}, geom.Vec3{Y: 1}, 3, 1), rod(geom.Vec3{X: 0.05, Y: -0.5}, geom.Vec3{X: 0.1, Y: -1}, 1, 1), geom.Vec3{X: -0.0995037, Y: 3.9950372}.Normalize(), 0},
		{"zero-length child (a point)", rod(geom.Vec3{Y: 1.5}, geom.Vec3{Y: 1}, 3, 1), geom.OBB{Center: j, Axes: mgl64.Ident3()}, geom.Vec3{Y: 1}, 0},
		{"both points at the junction", geom.OBB{Axes: mgl64.Ident3()}, geom.OBB{Axes: mgl64.Ident3()}, geom.Vec3{}, 0},
	}
	for _, tc := range tests {
		var p geom.OBB
		cab.MergeCAB(&p, &tc.b1, &tc.b2, j)
		if !finiteBox(&p) || math.Abs(p.Axes.Det()-1) > 1e-9 {
			t.Errorf("%s: bad parent %+v", tc.name, p)
			continue
		}
		var c [8]geom.Vec3
		for _, b := range []geom.OBB{tc.b1, tc.b2} {
			b.Corners(&c)
			for _, v := range c {
				if !p.Contains(v, 1e-12) {
					t.Errorf("%s: parent misses child corner %v", tc.name, v)
				}
			}
		}
		if tc.major != (geom.Vec3{}) {
			if d := math.Abs(p.Axis(0).Dot(tc.major)); d < 1-1e-9 {
				t.Errorf("%s: first axis %v, want ±%v", tc.name, p.Axis(0), tc.major)
			}
		}
		if tc.volume > 0 && math.Abs(p.Volume()-tc.volume) > 1e-9 {
			t.Errorf("%s: volume %v, want %v", tc.name, p.Volume(), tc.volume)
		}
	}
}

func TestRefitAllocatesNothing(t *testing.T) {
	hand, h := cabtest.Hand(t)
	poses := make([]geom.Transform, 16)
	randomHandPose(rand.New(rand.NewPCG(1, 2)), hand, poses)
	for _, s := range cab.Strategies {
		ref, _ := cab.NewRefitter(s, h)
		if n := testing.AllocsPerRun(50, func() { ref.Refit(poses) }); n != 0 {
			t.Errorf("%s: %v allocations per refit", s, n)
		}
	}
}

func BenchmarkRefitHand(b *testing.B) {
	hand, h := cabtest.Hand(b)
	poses := make([]geom.Transform, 16)
	randomHandPose(rand.New(rand.NewPCG(1, 2)), hand, poses)
	for _, s := range cab.Strategies {
		ref, _ := cab.NewRefitter(s, h)
		b.Run(string(s), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				ref.Refit(poses)
			}
		})
	}
}
