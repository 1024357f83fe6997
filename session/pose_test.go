package session

import (
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
)

// TestWristPoseIsTheOSCWristMessagesOrder: a pose read position first,
// tx ty tz qx qy qz qw, as a config's wrist_pose, places the wrist where
// the OSC wrist message of the same numbers does (position, then
// quaternion x y z w), and PositionFirstValues writes the numbers PoseFrom
// reads back in that order.
func TestWristPoseIsTheOSCWristMessagesOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for range 100 {
		var v [7]float64
		for i := range v {
			v[i] = 2*r.Float64() - 1
		}
		fromOSC, err := geom.FromQuat(mgl64.Quat{W: v[6], V: mgl64.Vec3{v[3], v[4], v[5]}}, geom.Vec3{X: v[0], Y: v[1], Z: v[2]})
		if err != nil {
			t.Fatal(err)
		}
		p, err := ReadPose(v[:], PositionFirst)
		if err != nil {
			t.Fatal(err)
		}
		got, err := PoseFrom(p)
		if err != nil {
			t.Fatal(err)
		}
		if got != fromOSC {
			t.Fatalf("wrist_pose %v: got %v, want the OSC message's %v", v, got, fromOSC)
		}
		if back := PositionFirstValues(p); [7]float64(back) != v {
			t.Fatalf("PositionFirstValues(ReadPose(%v)) = %v", v, back)
		}
	}
}

// TestNormalizeTakesTheWristPose: Normalize moves a wrist_pose to Wrist
// in PoseFrom's order, and is the same when run again.
func TestNormalizeTakesTheWristPose(t *testing.T) {
	s := Spec{Device: DeviceSim, WristPose: []float64{0, 0.91, 0.1, -0.70710678, 0, 0, 0.70710678}}
	for range 2 {
		if err := s.Normalize(); err != nil {
			t.Fatal(err)
		}
		want := []float64{0.70710678, -0.70710678, 0, 0, 0, 0.91, 0.1}
		if [7]float64(s.Wrist) != [7]float64(want) || s.WristPose != nil {
			t.Fatalf("got Wrist %v, WristPose %v; want %v, nil", s.Wrist, s.WristPose, want)
		}
	}
}

// TestParsePoseNormalisesTheQuaternion: a pose flag's quaternion need not
// be of unit length; its position is taken as written.
func TestParsePoseNormalisesTheQuaternion(t *testing.T) {
	v, err := ParsePose("1 2 3 0 0 0 2", PositionFirst)
	if err != nil {
		t.Fatal(err)
	}
	x, err := PoseFrom(v)
	if err != nil {
		t.Fatal(err)
	}
	if x.R != mgl64.Ident3() || x.T != (geom.Vec3{X: 1, Y: 2, Z: 3}) {
		t.Fatalf("got %+v", x)
	}
}
