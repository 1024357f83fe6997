package cab

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
)

// graspScene is the table-and-ball scene of the hand experiment, coarse
// enough for brute force in tests.
func graspScene(t testing.TB, level int) *env.Tree {
	t.Helper()
	tree, err := env.Build(env.GraspScene(level), env.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// graspWrist places the hand palm down over the ball (as the demo does).
func graspWrist(r *rand.Rand) geom.Transform {
	w := env.GraspWrist()
	if r != nil {
		w.T = w.T.Add(mgl64.Vec3{(r.Float64() - 0.5) * 0.06, (r.Float64() - 0.5) * 0.06, (r.Float64() - 0.5) * 0.06})
	}
	return w
}

func TestSceneCandidatesHoldEveryContact(t *testing.T) {
	hand, h := handSetup(t)
	scene := graspScene(t, 3)
	exact, err := NewExact(h.Body)
	if err != nil {
		t.Fatal(err)
	}
	cal, _ := handmodel.DefaultCalibration(22)
	glove, _ := devices.NewSimGlove(devices.Grasp, 22, 50*time.Millisecond, true)
	r := rand.New(rand.NewPCG(51, 51))
	poses := make([]geom.Transform, 16)
	var s devices.Sample
	var q handmodel.Angles
	var sq SceneQuery
	contacts := 0
	for frame := range 40 {
		glove.Read(&s)
		cal.Angles(&s, &hand.Limits, &q)
		hand.Pose(&q, graspWrist(r), poses)
		var truth []LinkTri
		for l := range 16 {
			for k := range scene.Mesh.Tris {
				if exact.LinkTriangle(l, poses[l], scene.Mesh.Triangle(k)) {
					truth = append(truth, LinkTri{int32(l), int32(k)})
				}
			}
		}
		contacts += len(truth)
		for _, strat := range Strategies {
			ref, _ := NewRefitter(strat, h)
			ref.Refit(poses)
			sq.Run(h, scene)
			for _, p := range truth {
				if !slices.Contains(sq.Pairs, p) {
					t.Fatalf("frame %d %s: contact %+v missing from %d candidates", frame, strat, p, len(sq.Pairs))
				}
			}
		}
	}
	if contacts < 100 {
		t.Fatalf("only %d contacts in the workload", contacts)
	}
}

func chainsSetup(t testing.TB, s LinkShape) (*Hierarchy, *Hierarchy, *Exact, *Exact) {
	t.Helper()
	ba, _ := ChainBody("a", 8, s)
	bb, _ := ChainBody("b", 8, s)
	ha, _ := Build(ba)
	hb, _ := Build(bb)
	ea, err := NewExact(ba)
	if err != nil {
		t.Fatal(err)
	}
	eb, _ := NewExact(bb)
	return ha, hb, ea, eb
}

func TestChainCandidatesHoldEveryContact(t *testing.T) {
	for _, tc := range []struct {
		m Motion
		s LinkShape
	}{{Wave, LinkShape{Length: 3, Thickness: 1}}, {Wave, LinkShape{Length: 6, Thickness: 1, Dented: true}}, {Braid, LinkShape{Length: 6, Thickness: 1}}} {
		ha, hb, ea, eb := chainsSetup(t, tc.s)
		pa, pb := make([]geom.Transform, 8), make([]geom.Transform, 8)
		ba, bb := make([][2]float64, 8), make([][2]float64, 8)
		var bq BodyQuery
		bq.SkipAdjacent = true
		cross, self := 0, 0
		for frame := range 150 {
			TwoChainPoses(tc.m, tc.s, 8, float64(frame)*0.05, ba, bb, pa, pb)
			for _, strat := range Strategies {
				ra, _ := NewRefitter(strat, ha)
				rb, _ := NewRefitter(strat, hb)
				ra.Refit(pa)
				rb.Refit(pb)
				bq.Run(ha, hb)
				for i := range 8 {
					for j := range 8 {
						if ea.LinkLink(i, pa[i], eb, j, pb[j]) {
							if strat == CAB {
								cross++
							}
							if !slices.Contains(bq.Pairs, LinkPair{int32(i), int32(j)}) {
								t.Fatalf("%s %+v frame %d %s: links %d,%d touch but are no candidate", tc.m, tc.s, frame, strat, i, j)
							}
						}
					}
				}
				bq.Self(ha)
				for i := range 8 {
					for j := i + 2; j < 8; j++ {
						if ea.LinkLink(i, pa[i], ea, j, pa[j]) {
							if strat == CAB {
								self++
							}
							if !slices.Contains(bq.Pairs, LinkPair{int32(i), int32(j)}) {
								t.Fatalf("%s frame %d %s: self pair %d,%d touches but is no candidate", tc.m, frame, strat, i, j)
							}
						}
					}
				}
			}
		}
		if cross < 5 {
			t.Errorf("%s %+v: only %d chain-to-chain contacts: the motion does not bring the chains together", tc.m, tc.s, cross)
		}
		t.Logf("%s %+v: %d cross contacts, %d self contacts over 150 frames", tc.m, tc.s, cross, self)
	}
}

func TestExactQueries(t *testing.T) {
	body, _ := ChainBody("r", 1, LinkShape{Length: 6, Thickness: 1})
	dented, _ := ChainBody("d", 1, LinkShape{Length: 6, Thickness: 1, Dented: true})
	e, _ := NewExact(body)
	ed, _ := NewExact(dented)
	id := geom.Identity()
	tests := []struct {
		name string
		tri  geom.Triangle
		want bool
	}{
		{"crossing", geom.Triangle{{-2, 3, -2}, {2, 3, -2}, {0, 3, 2}}, true},
		{"far", geom.Triangle{{-2, 9, -2}, {2, 9, -2}, {0, 9, 2}}, false},
		{"inside the solid", geom.Triangle{{0, 3, 0}, {0.1, 3, 0}, {0, 3.1, 0}}, true},
		{"beside it", geom.Triangle{{0.6, 3, -1}, {0.6, 3.5, 1}, {0.6, 2.5, 1}}, false},
	}
	for _, tc := range tests {
		if got := e.LinkTriangle(0, id, tc.tri); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
	// Inside the dent of the non-convex link is outside its solid.
	inDent := geom.Triangle{{0, 3, 0.4}, {0.02, 3, 0.4}, {0, 3.02, 0.4}}
	if ed.LinkTriangle(0, id, inDent) {
		t.Error("a triangle in the dent is not inside the dented link")
	}
	if !ed.LinkTriangle(0, id, geom.Triangle{{0, 3, -0.2}, {0.02, 3, -0.2}, {0, 3.02, -0.2}}) {
		t.Error("a triangle in the dented link's solid part is inside it")
	}
	// Two links: crossing, apart, and one wholly inside the other.
	big, _ := ChainBody("big", 1, LinkShape{Length: 6, Thickness: 3})
	eb, _ := NewExact(big)
	small := geom.Transform{R: mgl64.Ident3(), T: mgl64.Vec3{0, 2, 0}}
	small.R = mgl64.HomogRotate3DZ(0.1).Mat3()
	if !eb.LinkLink(0, id, e, 0, geom.Transform{R: mgl64.HomogRotate3DX(1.5).Mat3(), T: mgl64.Vec3{0, 3, -3}}) {
		t.Error("crossing links")
	}
	if eb.LinkLink(0, id, e, 0, geom.Transform{R: mgl64.Ident3(), T: mgl64.Vec3{5, 0, 0}}) {
		t.Error("links apart")
	}
	tiny, _ := ChainBody("tiny", 1, LinkShape{Length: 1, Thickness: 0.3})
	et, _ := NewExact(tiny)
	if !eb.LinkLink(0, id, et, 0, small) || !et.LinkLink(0, small, eb, 0, id) {
		t.Error("a link inside another meets it, both ways")
	}
}

func BenchmarkSceneQueryHandGrasp100k(b *testing.B) {
	hand, h := handSetup(b)
	scene := graspScene(b, 7) // ball of 131,072 triangles plus the table
	cal, _ := handmodel.DefaultCalibration(22)
	glove, _ := devices.NewSimGlove(devices.Grasp, 22, 10*time.Millisecond, true)
	var frames [][]geom.Transform
	var s devices.Sample
	var q handmodel.Angles
	for range 300 {
		glove.Read(&s)
		cal.Angles(&s, &hand.Limits, &q)
		p := make([]geom.Transform, 16)
		hand.Pose(&q, graspWrist(nil), p)
		frames = append(frames, p)
	}
	ref, _ := NewRefitter(CAB, h)
	var sq SceneQuery
	b.ReportAllocs()
	i := 0
	pairs := 0
	for b.Loop() {
		p := frames[i%len(frames)]
		ref.Refit(p)
		pairs += sq.Run(h, scene)
		i++
	}
	b.ReportMetric(float64(pairs)/float64(i), "candidates/frame")
	b.ReportMetric(float64(len(scene.Mesh.Tris)), "scene-tris")
}
