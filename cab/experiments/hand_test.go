package experiments

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/gloved/gloved/cab"
	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/sim"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/traversal"
)

// graspWrist places the hand palm down over the ball (as the demo does),
// moved by up to 3 cm along each axis.
func graspWrist(r *rand.Rand) geom.Transform {
	w := env.GraspWrist()
	w.T = w.T.Add(geom.Vec3{X: (r.Float64() - 0.5) * 0.06, Y: (r.Float64() - 0.5) * 0.06, Z: (r.Float64() - 0.5) * 0.06})
	return w
}

// TestSceneCandidatesHoldEveryContact: every (link, triangle) pair that
// meets exactly is a candidate of the scene query, for every strategy.
func TestSceneCandidatesHoldEveryContact(t *testing.T) {
	rig, err := newHandRig(3) // a ball coarse enough for brute force
	if err != nil {
		t.Fatal(err)
	}
	hand, h, exact, scene, cal := rig.hand, rig.h, rig.exact, rig.tree, rig.cal
	glove, _ := sim.New(sim.Grasp, 22, 50*time.Millisecond, true)
	r := rand.New(rand.NewPCG(51, 51))
	poses := make([]geom.Transform, 16)
	var s devices.Sample
	var q handmodel.Angles
	var sq traversal.SceneQuery
	contacts := 0
	for frame := range 40 {
		glove.Read(&s)
		cal.Angles(&s, &hand.Limits, &q)
		hand.Pose(&q, graspWrist(r), poses)
		var truth []traversal.LinkTri
		for l := range 16 {
			for k := range scene.Mesh.Tris {
				if exact.LinkTriangle(l, poses[l], scene.Mesh.Triangle(k)) {
					truth = append(truth, traversal.LinkTri{Link: int32(l), Tri: int32(k)})
				}
			}
		}
		contacts += len(truth)
		for _, strat := range cab.Strategies {
			ref, _ := cab.NewRefitter(strat, h)
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
