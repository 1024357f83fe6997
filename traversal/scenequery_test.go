package traversal_test

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/cab"
	"github.com/gloved/gloved/cab/cabtest"
	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/sim"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/traversal"
)

// graspScene is the table-and-ball scene of the hand experiment.
func graspScene(t testing.TB, level int) *env.Tree {
	t.Helper()
	tree, err := env.Build(env.GraspScene(level), env.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// graspPose poses the hand at random joint angles with the wrist within
// 3 cm of the grasp over the ball, so that many links meet the scene.
func graspPose(r *rand.Rand, hand *handmodel.Hand, out []geom.Transform) {
	var q handmodel.Angles
	for j := range q {
		lim := hand.Limits[j]
		q[j] = lim.Min + r.Float64()*(lim.Max-lim.Min)
	}
	w := env.GraspWrist()
	w.T = w.T.Add(geom.Vec3{X: (r.Float64() - 0.5) * 0.06, Y: (r.Float64() - 0.5) * 0.06, Z: (r.Float64() - 0.5) * 0.06})
	hand.Pose(&q, w, out)
}

// ballBox is the box of GraspScene's ball.
var ballBox = geom.OBB{Center: geom.Vec3{Y: 0.78, Z: 0.01}, Axes: mgl64.Ident3(), Half: geom.Vec3{X: 0.06, Y: 0.06, Z: 0.06}}

// grown returns b grown by m in every direction.
func grown(b geom.OBB, m float64) geom.OBB {
	b.Half = b.Half.Add(geom.Vec3{X: m, Y: m, Z: m})
	return b
}

// TestSceneQueryEqualsBruteForce: for every strategy, with and without a
// margin, on a coarse and a fine ball (whose node boxes fall wholly inside
// link boxes), the descent finds exactly the (link, triangle) pairs whose
// grown leaf box meets the triangle when tested one by one.
func TestSceneQueryEqualsBruteForce(t *testing.T) {
	hand, h := cabtest.Hand(t)
	frames := 40
	if testing.Short() { // the race run: a quarter of the poses
		frames = 10
	}
	for _, level := range []int{3, 5} {
		scene := graspScene(t, level)
		r := rand.New(rand.NewPCG(52, 52))
		poses := make([]geom.Transform, 16)
		var sq traversal.SceneQuery
		total := 0
		for frame := range frames {
			graspPose(r, hand, poses)
			for _, s := range cab.Strategies {
				ref, _ := cab.NewRefitter(s, h)
				ref.Refit(poses)
				sq.Margin = []float64{0, 0.01}[frame%2]
				want := bruteSceneQuery(h, scene, sq.Margin)
				sq.Run(h, scene)
				got := slices.Clone(sq.Pairs)
				slices.SortFunc(got, func(a, b traversal.LinkTri) int {
					if a.Link != b.Link {
						return int(a.Link - b.Link)
					}
					return int(a.Tri - b.Tri)
				})
				if !slices.Equal(got, want) {
					t.Fatalf("level %d frame %d %s margin %v: %d pairs, brute force %d", level, frame, s, sq.Margin, len(got), len(want))
				}
				total += len(want)
			}
		}
		if total < 500*frames/40 {
			t.Fatalf("level %d: only %d pairs over the workload", level, total)
		}
	}
}

// bruteSceneQuery tests every link's leaf box, grown by margin, against
// every triangle, in (link, triangle) order.
func bruteSceneQuery(h *cab.Hierarchy, scene *env.Tree, margin float64) []traversal.LinkTri {
	var want []traversal.LinkTri
	for l := range h.Leaves {
		box := grown(h.Leaves[l], margin)
		for k := range scene.Mesh.Tris {
			if geom.TriOBBMayMeet(scene.Mesh.Triangle(k), &box) {
				want = append(want, traversal.LinkTri{Link: int32(l), Tri: int32(k)})
			}
		}
	}
	return want
}

// TestLinksNearEqualsBruteForce: the links near a box are exactly those
// whose leaf boxes, grown by the margin, meet it.
func TestLinksNearEqualsBruteForce(t *testing.T) {
	hand, h := cabtest.Hand(t)
	r := rand.New(rand.NewPCG(53, 53))
	poses := make([]geom.Transform, 16)
	ball := ballBox
	near := 0
	for frame := range 200 {
		graspPose(r, hand, poses)
		ref, _ := cab.NewRefitter(cab.CAB, h)
		ref.Refit(poses)
		for _, margin := range []float64{0, 0.01} {
			sq := traversal.SceneQuery{Margin: margin}
			got := sq.LinksNear(h, &ball, nil)
			for l := range h.Leaves {
				in := slices.Contains(got, int32(l))
				g := grown(h.Leaves[l], margin)
				if touching := !geom.BoxesDisjoint(&g, &ball); in != touching {
					t.Fatalf("frame %d margin %v: link %d near %v, grown box touching %v", frame, margin, l, in, touching)
				}
			}
			near += len(got)
		}
	}
	if near < 100 {
		t.Fatalf("only %d links near the ball over the workload", near)
	}
}

func TestSceneQueryReuseAllocatesNothing(t *testing.T) {
	hand, h := cabtest.Hand(t)
	scene := graspScene(t, 5)
	r := rand.New(rand.NewPCG(54, 54))
	poses := make([]geom.Transform, 16)
	ref, _ := cab.NewRefitter(cab.CAB, h)
	sq := traversal.SceneQuery{Margin: 0.01}
	ball := &ballBox
	var near []int32
	for range 100 { // a pose with candidates
		graspPose(r, hand, poses)
		ref.Refit(poses)
		near = sq.LinksNear(h, ball, near[:0])
		if sq.Run(h, scene) > 0 && len(near) > 0 {
			break
		}
	}
	if len(sq.Pairs) == 0 || len(near) == 0 {
		t.Fatal("the workload has no candidate")
	}
	if n := testing.AllocsPerRun(20, func() {
		sq.Run(h, scene)
		near = sq.LinksNear(h, ball, near[:0])
	}); n != 0 {
		t.Fatalf("%v allocations per query after warm-up", n)
	}
}

func BenchmarkSceneQueryHandGrasp100k(b *testing.B) {
	hand, h := cabtest.Hand(b)
	scene := graspScene(b, 7) // ball of 131,072 triangles plus the table
	cal, _ := handmodel.DefaultCalibration(22)
	glove, _ := sim.New(sim.Grasp, 22, 10*time.Millisecond, true)
	var frames [][]geom.Transform
	var s devices.Sample
	var q handmodel.Angles
	for range 300 {
		glove.Read(&s)
		cal.Angles(&s, &hand.Limits, &q)
		p := make([]geom.Transform, 16)
		hand.Pose(&q, env.GraspWrist(), p)
		frames = append(frames, p)
	}
	ref, _ := cab.NewRefitter(cab.CAB, h)
	var sq traversal.SceneQuery
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
