package session

import (
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/sim"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handcontact"
)

// TestAFrameWithNothingNearSkipsTheRefitAndTraversal: a hand grasping as
// it goes down to a terrain between a torus and a ball and up again
// passes the frames where it is beyond the band of all of them over
// (contact.Scene.PassOver) without refitting its hierarchy; every frame's
// answers are those of a pipeline with the accelerations off, which never
// passes one over; and the boxes another hand would test against
// (HandPose) are refitted when asked.
func TestAFrameWithNothingNearSkipsTheRefitAndTraversal(t *testing.T) {
	hand, cal := defaultHand(t)
	scene := func() *env.Mesh {
		m := env.Terrain("ground", 32, func(x, z float64) float64 { return 0.7 + 0.02*x*z })
		m.Append(env.Torus("torus", geom.Vec3{X: 0.2, Y: 0.78}, 0.035, 0.015, 24, 12))
		m.Append(env.Sphere("ball", geom.Vec3{X: -0.2, Y: 0.78}, 0.03, 2))
		return m
	}
	open := func(noAccel bool) *Pipeline {
		p, err := NewPipeline(hand, cal, scene(), PipelineOptions{Proximity: 0.01, NoAccel: noAccel})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	on, off := open(false), open(true)
	glove, _ := sim.New(sim.Grasp, 22, 10*time.Millisecond, true)
	var s devices.Sample
	var a, b handcontact.Pose
	passed, busy := 0, 0
	for f := range 200 {
		glove.Read(&s)
		// The grasp's wrist, lowered to the ground and raised again.
		wrist := env.GraspWrist()
		wrist.T.Y -= 0.25 * math.Sin(math.Pi*float64(f)/200)
		for _, p := range []*Pipeline{on, off} {
			if err := p.Frame(&s, wrist); err != nil {
				t.Fatal(err)
			}
		}
		if len(off.Contacts())+len(off.Near()) > 0 {
			busy++
		}
		if !reflect.DeepEqual(on.Contacts(), off.Contacts()) || !reflect.DeepEqual(on.Near(), off.Near()) {
			t.Fatalf("frame %d: %v %v, with the accelerations off %v %v", f, on.Contacts(), on.Near(), off.Contacts(), off.Near())
		}
		if on.Contact().Passed() {
			passed++
			if on.Stages()[StageRefit] != 0 {
				t.Fatalf("frame %d was passed over and refitted", f)
			}
		}
		on.HandPose(&a)
		off.HandPose(&b)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("frame %d: the boxes another hand would meet are not this frame's", f)
		}
	}
	if off.Contact().Passed() || passed < 50 || busy < 20 {
		t.Fatalf("%d of 200 frames passed over (and with the accelerations off: %v), %d touched or came near: the test needs more of both", passed, off.Contact().Passed(), busy)
	}
}
