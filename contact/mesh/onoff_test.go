package mesh_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/contact"
	"github.com/gloved/gloved/contact/contacttest"
	"github.com/gloved/gloved/contact/mesh"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
)

// resultsString is a frame's answers, every digit.
func resultsString(r *contact.Results) string {
	return fmt.Sprintf("%+v | %+v", r.Contacts, r.Near)
}

// onOff runs link through poses over scene twice, the accelerations on
// and off, and fails on any frame whose answers differ in any digit.
func onOff(t *testing.T, scene *env.Mesh, band float64, link hull, poses []geom.Transform) {
	t.Helper()
	mk := func(noAccel bool) *contacttest.Rig {
		return contacttest.NewRig(t, []contacttest.Body{{Verts: link.verts, Tris: link.tris}}, scene, contact.Options{Proximity: band, NoAccel: noAccel})
	}
	on, off := mk(false), mk(true)
	diffs := 0
	for f, x := range poses {
		a, b := resultsString(on.Frame([]geom.Transform{x})), resultsString(off.Frame([]geom.Transform{x}))
		if a != b {
			diffs++
			if diffs <= 3 {
				t.Errorf("frame %d:\non:  %s\noff: %s", f, a, b)
			}
		}
	}
	if diffs > 0 {
		t.Errorf("%d of %d frames differ", diffs, len(poses))
	}
}

// TestTiesOnAFlatFloorGoTheSameWayWithoutAccelerations: a box lying flat
// over a finely tessellated flat floor, sliding, is as near many
// triangles as it is to the nearest: the answer is the same, to the last
// digit, whatever order the search met them in.
func TestTiesOnAFlatFloorGoTheSameWayWithoutAccelerations(t *testing.T) {
	scene, link, poses := flatFloor(t, 0.0093)
	onOff(t, scene, 0.01, link, poses)
}

// flatFloor is a finely tessellated flat floor and a box lying flat over
// it, its centre at height y, sliding in 200 poses.
func flatFloor(t *testing.T, y float64) (*env.Mesh, hull, []geom.Transform) {
	scene := env.Terrain("floor", 64, func(x, z float64) float64 { return 0 })
	scene.DetectConvex()
	link := boxHull(t, geom.Vec3{X: 0.012, Y: 0.004, Z: 0.009})
	var poses []geom.Transform
	for i := range 200 {
		poses = append(poses, geom.Transform{R: geom.Identity().R, T: geom.Vec3{X: -0.05 + 0.0007*float64(i), Y: y, Z: 0.013 + 0.0003*float64(i)}})
	}
	return scene, link, poses
}

// TestAWanderingLinkGetsTheSameAnswersWithoutAccelerations: a link
// wandering in and out of the band of a torus and a wall, with jumps,
// gets every frame's answers to the last digit with the accelerations on
// and off, over many seeds.
func TestAWanderingLinkGetsTheSameAnswersWithoutAccelerations(t *testing.T) {
	seeds := uint64(12)
	if testing.Short() { // the race run (one goroutine, nothing to race): a third of the seeds
		seeds = 4
	}
	for seed := range seeds {
		r := rand.New(rand.NewPCG(seed, 8))
		torus := torusAndWall()
		link := randomHull(t, r, 20, 0.006)
		onOff(t, torus, 0.01, link, wander(r, geom.Vec3{X: 0.16}, 1500, 0.0015, 0.03))
	}
}

// TestClearancesCutShortByTheirBudgetKeepTheAnswers: the search that
// raises a link's clearance beyond the band stops after a budget of boxes
// and leaves, leaving the rest at the bounds they had. With budgets of
// one to a few, where it always stops short, a link wandering about the
// torus and the wall still gets every frame's answers to the last digit
// with the accelerations on and off.
func TestClearancesCutShortByTheirBudgetKeepTheAnswers(t *testing.T) {
	seeds := uint64(4)
	if testing.Short() { // the race run (one goroutine, nothing to race): half the seeds
		seeds = 2
	}
	for _, budget := range []int{1, 3, 17} {
		restore := mesh.SetRaiseBudget(budget)
		for seed := range seeds {
			r := rand.New(rand.NewPCG(seed, 10))
			link := randomHull(t, r, 20, 0.006)
			onOff(t, torusAndWall(), 0.01, link, wander(r, geom.Vec3{X: 0.16}, 1500, 0.0015, 0.03))
		}
		restore()
	}
}

// TestALinkInASolidThatCrossesItselfGetsTheSameAnswersWithoutAccelerations:
// two boxes laid into each other as one closed object cross each other,
// so which side of it a point is on follows the nearest box face, and
// changes within one empty region of space: the grid keeps no sides for
// it, and a link wandering in and out of both boxes gets every frame's
// answers to the last digit with the accelerations on and off.
func TestALinkInASolidThatCrossesItselfGetsTheSameAnswersWithoutAccelerations(t *testing.T) {
	scene := crossedBoxes(0.03, geom.Vec3{X: 0.03, Y: 0.015, Z: 0.0075})
	for seed := range uint64(6) {
		r := rand.New(rand.NewPCG(seed, 9))
		link := randomHull(t, r, 20, 0.004)
		onOff(t, scene, 0.01, link, wander(r, geom.Vec3{X: -0.012}, 800, 0.002, 0.002))
	}
}

// TestALinkSlidingInsideACrossedSolidGetsTheSameAnswersWithoutAccelerations:
// inside box A and outside box B, which crosses it as one object, a small
// cube slides from where B's face is nearest (outside, by the nearest
// part) to where A's is (inside), never within the band of a face: the
// clearance an earlier frame measured must not pass it over, since the
// link went in without coming near the surface.
func TestALinkSlidingInsideACrossedSolidGetsTheSameAnswersWithoutAccelerations(t *testing.T) {
	scene := crossedBoxes(0.05, geom.Vec3{X: 0.05, Y: 0.02, Z: 0.01})
	link := boxHull(t, geom.Vec3{X: 0.002, Y: 0.002, Z: 0.002})
	var poses []geom.Transform
	for i := range 40 {
		poses = append(poses, geom.Transform{R: geom.Identity().R, T: geom.Vec3{X: -0.018 - 0.0005*float64(i)}})
	}
	onOff(t, scene, 0.001, link, poses)
}

// crossedBoxes is one closed object of two cubes of half-size half, the
// second moved by offset into the first: a solid that crosses itself.
func crossedBoxes(half float64, offset geom.Vec3) *env.Mesh {
	h := geom.Vec3{X: half, Y: half, Z: half}
	scene := &env.Mesh{}
	scene.Append(env.Box("a", geom.Vec3{}, h))
	scene.Append(env.Box("b", offset, h))
	scene.Objects = []string{"crossed"}
	clear(scene.Object)
	scene.DetectConvex()
	return scene
}

// wander returns n poses of a link random-walking around home: each frame
// a step in a random direction (jump every 97th frame), pulled 2% back
// toward home, and turned 0.05 rad about a random axis.
func wander(r *rand.Rand, home geom.Vec3, n int, step, jump float64) []geom.Transform {
	pos, rot := home, mgl64.QuatIdent()
	var poses []geom.Transform
	for f := range n {
		d := step
		if f%97 == 0 {
			d = jump
		}
		pos = pos.Add(geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Normalize().Mul(d))
		pos = pos.Add(home.Sub(pos).Mul(0.02))
		rot = rot.Mul(mgl64.QuatRotate(0.05, mgl64.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize())).Normalize()
		x, _ := geom.FromQuat(rot, pos)
		poses = append(poses, x)
	}
	return poses
}
