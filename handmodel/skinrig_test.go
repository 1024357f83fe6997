package handmodel

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
)

// rigged returns the WebXR hand of a side rigged to the default hand model
// of that side.
func rigged(t testing.TB, side string) (*SkinRig, *Hand) {
	t.Helper()
	p := DefaultParams
	p.Right = side == "right"
	h := mustHand(t, p)
	r, err := NewSkinRig(webxrHand(t, side), h)
	if err != nil {
		t.Fatal(err)
	}
	return r, h
}

// poseRig poses the rig for q with the wrist at the origin.
func poseRig(t testing.TB, r *SkinRig, h *Hand, q Angles) ([]mgl64.Mat4, *SkinPose) {
	t.Helper()
	links := make([]geom.Transform, h.NumLinks())
	h.Pose(&q, geom.Identity(), links)
	var p SkinPose
	if err := r.Pose(&q, links, &p); err != nil {
		t.Fatal(err)
	}
	return slices.Clone(r.Joints(&q, links)), &p
}

func jointAt(r *SkinRig, world []mgl64.Mat4, name string) geom.Vec3 {
	return geom.FromMgl(world[slices.Index(r.Skin.Joints, name)].Col(3).Vec3())
}

// TestSkinRigAtRestIsTheSkinOnThePalm: at zero angles the skin is the
// file's mesh moved rigidly so that its wrist joint is the hand frame's
// origin with the fingers along +Y and the back of the hand along +Z.
func TestSkinRigAtRestIsTheSkinOnThePalm(t *testing.T) {
	for _, side := range []string{"right", "left"} {
		r, h := rigged(t, side)
		world, p := poseRig(t, r, h, Angles{})
		s := r.Skin
		w := slices.Index(s.Joints, "wrist")
		move := world[w].Mul4(s.Rest[w].Inv())
		for v, x := range s.Verts {
			if d := p.Verts[v].Sub(geom.FromMgl(mgl64.TransformCoordinate(x.Mgl(), move))).Len(); d > 1e-6 {
				t.Fatalf("%s: vertex %d is %g m off the rigidly moved mesh", side, v, d)
			}
		}
		if o := world[w].Col(3).Vec3(); o.Len() > 1e-12 {
			t.Errorf("%s: the wrist joint is at %v, want the origin", side, o)
		}
		tip := jointAt(r, world, "middle-finger-tip")
		if tip.Y < 0.15 || math.Abs(tip.X) > 0.03 || math.Abs(tip.Z) > 0.04 {
			t.Errorf("%s: the middle fingertip is at %v, want about 0.17 m along +Y", side, tip)
		}
		// The skin keeps its own layout: seen from the back of the hand
		// (+Z) with the fingers up (+Y), a right hand's thumb is on the
		// left (-X), as the model's is (TestRightThumbIsOnTheLeft).
		thumb := jointAt(r, world, "thumb-tip")
		if (thumb.X < 0) != (side == "right") || thumb.Z > 0 {
			t.Errorf("%s: the thumb tip is at %v: want -X for a right hand, +X for a left, on the palm side (-Z)", side, thumb)
		}
	}
}

// TestSkinRigFlexesAboutTheJoint: 90 degrees of index MCP flexion turns
// the index finger about its knuckle by 90 degrees toward the palm (-Z),
// keeps its length, and moves no other finger; the vertices bound to the
// distal phalanx alone move rigidly with it.
func TestSkinRigFlexesAboutTheJoint(t *testing.T) {
	for _, side := range []string{"right", "left"} {
		r, h := rigged(t, side)
		rest, _ := poseRig(t, r, h, Angles{})
		var q Angles
		q[IndexMCP] = math.Pi / 2
		bent, p := poseRig(t, r, h, q)
		knuckle := jointAt(r, rest, "index-finger-phalanx-proximal")
		if d := jointAt(r, bent, "index-finger-phalanx-proximal").Sub(knuckle).Len(); d > 1e-9 {
			t.Errorf("%s: the knuckle moved %g m", side, d)
		}
		a := jointAt(r, rest, "index-finger-tip").Sub(knuckle)
		b := jointAt(r, bent, "index-finger-tip").Sub(knuckle)
		if math.Abs(a.Len()-b.Len()) > 1e-9 {
			t.Errorf("%s: the finger's length changed from %v to %v", side, a.Len(), b.Len())
		}
		// The chain says: the finger turns by 90 degrees about the
		// knuckle joint's flexion axis, its X.
		axis := rest[slices.Index(r.Skin.Joints, "index-finger-phalanx-proximal")].Col(0).Vec3().Normalize()
		flex := mgl64.HomogRotate3D(-math.Pi/2, axis)
		if want := geom.FromMgl(mgl64.TransformNormal(a.Mgl(), flex)); b.Sub(want).Len() > 1e-9 {
			t.Errorf("%s: the fingertip is at %v from the knuckle, the joint chain says %v", side, b, want)
		}
		if b.Z > -0.5*b.Len() {
			t.Errorf("%s: the bent finger points along %v: want toward the palm (-Z)", side, b.Normalize())
		}
		if d := jointAt(r, bent, "middle-finger-tip").Sub(jointAt(r, rest, "middle-finger-tip")).Len(); d > 1e-9 {
			t.Errorf("%s: the middle fingertip moved %g m", side, d)
		}
		s := r.Skin
		j := slices.Index(s.Joints, "index-finger-phalanx-distal")
		move := bent[j].Mul4(rest[j].Inv())
		_, p0 := poseRig(t, r, h, Angles{})
		n := 0
		for v := range s.Verts {
			if s.Weight[v][0] == 1 && int(s.Influence[v][0]) == j {
				n++
				if d := p.Verts[v].Sub(geom.FromMgl(mgl64.TransformCoordinate(p0.Verts[v].Mgl(), move))).Len(); d > 1e-9 {
					t.Fatalf("%s: distal vertex %d is %g m off its phalanx", side, v, d)
				}
			}
		}
		if n == 0 {
			t.Errorf("%s: no vertex is bound to the distal phalanx alone", side)
		}
	}
}

// TestSkinRigPoseAllocatesNothing: the frame loop can pose the skin.
func TestSkinRigPoseAllocatesNothing(t *testing.T) {
	r, h := rigged(t, "right")
	var q Angles
	q[IndexMCP], q[ThumbRoll] = 0.5, 0.3
	links := make([]geom.Transform, h.NumLinks())
	h.Pose(&q, geom.Identity(), links)
	var p SkinPose
	r.Pose(&q, links, &p)
	if n := testing.AllocsPerRun(10, func() { r.Pose(&q, links, &p) }); n != 0 {
		t.Errorf("Pose allocated %v times per run", n)
	}
}

// TestSkinRigNeedsWebXRNames: a skin with other joint names is refused,
// naming the joint it lacks.
func TestSkinRigNeedsWebXRNames(t *testing.T) {
	s := webxrHand(t, "right")
	s.Joints = slices.Clone(s.Joints)
	s.Joints[slices.Index(s.Joints, "ring-finger-tip")] = "RingTip"
	if _, err := NewSkinRig(s, mustHand(t, DefaultParams)); err == nil || !strings.Contains(err.Error(), `"ring-finger-tip"`) {
		t.Errorf("got %v, want an error naming ring-finger-tip", err)
	}
}
