package tracker

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/osc/openxr"
	"github.com/gloved/gloved/osc/vmc"
)

// angleTolerance is the round trip's stated tolerance: gloved's output
// carries rotations as float32, some 1e-7 of a turn, and the joint
// angles come back within 1e-4 rad (0.006°).
const angleTolerance = 1e-4

// pose draws joint angles over the hand's limits, kept 5% inside them
// (at a limit the angle itself is clamped), the wrist's at 0: gloved's
// vmc and openxr profiles leave the wrist to the wrist pose.
func pose(rng *rand.Rand, h *handmodel.Hand) handmodel.Angles {
	var q handmodel.Angles
	for j := handmodel.PalmArch; j < handmodel.NumJoints; j++ {
		l := h.Limits[j]
		q[j] = l.Min + (l.Max-l.Min)*(0.05+0.9*rng.Float64())
	}
	return q
}

// frame is hand posed at q as gloved's frame loop gives it to a profile.
func frame(h *handmodel.Hand, q *handmodel.Angles, wrist geom.Transform) *osc.Frame {
	links := make([]geom.Transform, h.NumLinks())
	h.Pose(q, wrist, links)
	f := &osc.Frame{Joints: q[:]}
	for _, x := range links {
		f.Links = append(f.Links, osc.PoseOf(x))
	}
	return f
}

// feed walks the writer's packets through d as the glove takes them,
// and returns whether they posed the hand.
func feed(t *testing.T, d decoder, w *osc.Writer, q *handmodel.Angles) bool {
	t.Helper()
	var f devices.Faults
	d.begin(&f)
	for _, p := range w.Packets() {
		if !walk(p, 0, d) {
			t.Fatal("gloved's own packet read as malformed")
		}
	}
	posed := d.end()
	if posed {
		d.pose(q)
	}
	if f != (devices.Faults{}) {
		t.Fatalf("gloved's own messages counted as faults: %+v", f)
	}
	return posed
}

// check compares the joints but the wrist's.
func check(t *testing.T, i int, got, want *handmodel.Angles) {
	t.Helper()
	for j := handmodel.PalmArch; j < handmodel.NumJoints; j++ {
		if math.Abs(got[j]-want[j]) > angleTolerance {
			t.Fatalf("pose %d: %s came back %v, sent %v", i, j, got[j], want[j])
		}
	}
}

// TestGlovedsVMCFedBackGivesItsJointAngles: a hand posed at random,
// either side, sent by gloved's vmc profile and read back by the vmc
// tracker, gives every joint angle but the wrist's (the profile leaves
// the hand bone to the avatar) within angleTolerance, each pose read
// from the previous one as a stream is.
func TestGlovedsVMCFedBackGivesItsJointAngles(t *testing.T) {
	for _, right := range []bool{true, false} {
		p := handmodel.DefaultParams
		p.Right, p.Length, p.Breadth = right, 0.17, 0.08
		h, err := handmodel.New(p)
		if err != nil {
			t.Fatal(err)
		}
		enc := vmc.NewHand(h, vmc.NewPerformer(time.Now(), 1), 0)
		d, err := newVMC(p)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(3, 4))
		var got handmodel.Angles
		for i := range 100 {
			want := pose(rng, h)
			var w osc.Writer
			enc.Frame(&w, frame(h, &want, geom.Identity()), time.Now())
			if !feed(t, d, &w, &got) {
				t.Fatalf("pose %d did not pose the hand", i)
			}
			check(t, i, &got, &want)
		}
	}
}

// TestAVMCHandBoneTurnsTheWrist: a performer that sends the hand bone,
// turned in its lower arm's frame as the T-pose's axes carry the wrist's
// turn, drives the wrist's pitch and yaw.
func TestAVMCHandBoneTurnsTheWrist(t *testing.T) {
	h, _ := handmodel.New(handmodel.DefaultParams)
	d, err := newVMC(handmodel.DefaultParams)
	if err != nil {
		t.Fatal(err)
	}
	want := handmodel.Angles{handmodel.WristPitch: 0.4, handmodel.WristYaw: -0.2, handmodel.IndexMCP: 0.7}
	var w osc.Writer
	vmc.NewHand(h, vmc.NewPerformer(time.Now(), 1), 0).Frame(&w, frame(h, &want, geom.Identity()), time.Now())
	// The palm's turn at the wrist, carried as the encoder carries a
	// finger's first bone: into the T-pose's axes, then Unity's.
	links := make([]geom.Transform, h.NumLinks())
	h.Pose(&want, geom.Identity(), links)
	tpose := geom.Transform{R: vmc.TPose(true)}.Quat()
	turn := geom.QuatMul(geom.QuatMul(tpose, links[handmodel.Palm].Quat()), geom.QuatConj(tpose))
	u := geom.Unity.Quat(turn)
	w.Message(vmc.AddrBone)
	w.String(vmc.HandBone(true))
	var at = geom.Vec3{}.Mgl()
	w.Pose(&at, &u)
	w.End()
	var got handmodel.Angles
	feed(t, d, &w, &got)
	if math.Abs(got[handmodel.WristPitch]-0.4) > angleTolerance || math.Abs(got[handmodel.WristYaw]+0.2) > angleTolerance {
		t.Fatalf("the wrist came back %v, %v", got[handmodel.WristPitch], got[handmodel.WristYaw])
	}
	check(t, 0, &got, &want)
}

// TestGlovedsOpenXRJointsFedBackGiveItsJointAngles: the openxr profile's
// 26 joints, in gloved's world and in Unity's, the wrist placed anywhere,
// read back by the osc tracker give every joint angle but the wrist's
// (OpenXR places the palm in the world) within angleTolerance.
func TestGlovedsOpenXRJointsFedBackGiveItsJointAngles(t *testing.T) {
	for _, c := range []geom.Convention{geom.Gloved, geom.Unity} {
		p := handmodel.Params{Length: 0.2, Breadth: 0.09}
		h, _ := handmodel.New(p)
		enc := openxr.NewHand(h, "/gloved", "left", c)
		d, err := newOSC("/gloved", "left", p, c)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(5, 6))
		var got handmodel.Angles
		for i := range 100 {
			want := pose(rng, h)
			turn := mgl64.AnglesToQuat(rng.Float64(), rng.Float64(), rng.Float64(), mgl64.XYZ)
			wrist, err := geom.FromQuat(turn, geom.Vec3{X: 0.1, Y: 1, Z: -0.3})
			if err != nil {
				t.Fatal(err)
			}
			var w osc.Writer
			enc.Frame(&w, frame(h, &want, wrist), time.Now())
			if !feed(t, d, &w, &got) {
				t.Fatalf("pose %d did not pose the hand", i)
			}
			check(t, i, &got, &want)
		}
	}
}

// TestGlovedsJointsFedBackAreItsJointAngles: gloved's own joints
// message, as the gloved profile sends it, read back by the osc tracker
// is the frame's joint angles to float32's precision, the wrist's too;
// another hand's is not this hand's.
func TestGlovedsJointsFedBackAreItsJointAngles(t *testing.T) {
	h, _ := handmodel.New(handmodel.DefaultParams)
	d, err := newOSC("/lab", "r", handmodel.DefaultParams, geom.Gloved)
	if err != nil {
		t.Fatal(err)
	}
	want := pose(rand.New(rand.NewPCG(7, 8)), h)
	want[handmodel.WristPitch] = -0.5
	var w osc.Writer
	w.Begin(osc.Timetag(time.Now()))
	osc.AppendFrame(&w, osc.HandAddresses("/lab", "l"), frame(h, &want, geom.Identity()))
	var got handmodel.Angles
	if feed(t, d, &w, &got) {
		t.Fatal("hand l's joints posed hand r")
	}
	w.Begin(osc.Timetag(time.Now()))
	osc.AppendFrame(&w, osc.HandAddresses("/lab", "r"), frame(h, &want, geom.Identity()))
	if !feed(t, d, &w, &got) {
		t.Fatal("the joints did not pose the hand")
	}
	for j := range got {
		if math.Abs(got[j]-want[j]) > 1e-6 {
			t.Fatalf("%s came back %v, sent %v", handmodel.Joint(j), got[j], want[j])
		}
	}
}
