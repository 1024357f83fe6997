package openxr_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	goosc "github.com/hypebeast/go-osc/osc"

	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/osc/openxr"
	"github.com/gloved/gloved/osc/osctest"
	"github.com/gloved/gloved/osc/profile"
	"github.com/gloved/gloved/session"
)

// wireJoint is a joint as an app receives it.
type wireJoint struct {
	p      mgl64.Vec3
	q      mgl64.Quat
	radius float64
}

// wireFrame is a frame as an app receives it.
type wireFrame struct {
	active     int32
	handedness string
	joints     []wireJoint
}

// decode reads one frame's packets in convention c: every message must
// follow Methods(c), in order, its arguments within their ranges.
func decode(t *testing.T, packets [][]byte, hand string, c geom.Convention) wireFrame {
	t.Helper()
	contract := map[string]*osc.Method{}
	ms := openxr.Methods(c)
	for i := range ms {
		contract[ms[i].Address("/gloved", hand)] = &ms[i]
	}
	var f wireFrame
	n := 0
	var tag uint64
	for i, pk := range packets {
		p, err := goosc.ParsePacket(string(pk))
		if err != nil {
			t.Fatal(err)
		}
		// A frame is one bundle, or several of one timetag where it
		// would be over 1400 bytes (docs/profiles.md).
		b := p.(*goosc.Bundle)
		if len(pk) > 1400 {
			t.Fatalf("bundle %d of a frame: %d bytes, over 1400", i, len(pk))
		}
		if i == 0 {
			tag = b.Timetag.TimeTag()
		} else if b.Timetag.TimeTag() != tag {
			t.Fatalf("bundle %d of a frame: timetag %d, the first's %d", i, b.Timetag.TimeTag(), tag)
		}
		for _, m := range b.Messages {
			c, ok := contract[m.Address]
			if !ok || ms[n].Address("/gloved", hand) != m.Address {
				t.Fatalf("message %d: %s is not the contract's %s", n, m.Address, ms[n].Path)
			}
			if err := c.CheckArgs(m.Arguments, osc.Shape{}); err != nil {
				t.Fatalf("message %d: %v: %v", n, m.Arguments, err)
			}
			n++
			switch {
			case strings.HasSuffix(m.Address, "/active"):
				f.active = m.Arguments[0].(int32)
			case strings.HasSuffix(m.Address, "/handedness"):
				f.handedness = m.Arguments[0].(string)
			default:
				v := make([]float64, 8)
				for k := range v {
					v[k] = float64(m.Arguments[k].(float32))
				}
				f.joints = append(f.joints, wireJoint{p: mgl64.Vec3{v[0], v[1], v[2]}, q: mgl64.Quat{W: v[6], V: mgl64.Vec3{v[3], v[4], v[5]}}, radius: v[7]})
			}
		}
	}
	if n != len(ms) {
		t.Fatalf("%d messages in a frame, the contract has %d", n, len(ms))
	}
	return f
}

// sessions are the hands the profile is checked on: the shipped
// recording (a right hand) and a simulated left hand, each procedural
// and skinned.
var sessions = []struct {
	name, side string
	spec       session.Spec
	frames     int
}{
	{"recording, procedural", "right", osctest.Recording(), 0},
	{"recording, skinned", "right", osctest.Skinned(osctest.Recording(), "right"), 0},
	{"simulated left grasp, procedural", "left", osctest.Sim("left", "grasp"), 150},
	{"simulated left pinch, skinned", "left", osctest.Skinned(osctest.Sim("left", "pinch"), "left"), 150},
}

// TestJointsFollowTheLinksAndOpenXRsAxes: at every frame of each session,
// each of the 26 joints on the wire is where handmodel.XRJoints puts it
// on the pipeline's link poses (to float32's precision), in OpenXR's
// axes: along each finger a joint's -Z points at the next joint (the bone
// toward the fingertip) and its +Y is its bone's back (the link's +Z); its
// quaternion keeps the hemisphere of its previous one, starting with
// W >= 0; its radius is the model's; the hand is active, of its side.
func TestJointsFollowTheLinksAndOpenXRsAxes(t *testing.T) {
	for _, s := range sessions {
		t.Run(s.name, func(t *testing.T) {
			var e *openxr.Hand
			var table *[handmodel.NumXRJoints]handmodel.XRJointPlace
			var w osc.Writer
			var last []wireJoint
			frames := 0
			osctest.Run(t, s.spec, s.frames, func(f osctest.Frame) {
				hand := f.Pipeline.Hand()
				if e == nil {
					e, table = openxr.NewHand(hand, "/gloved", s.side, geom.Gloved), hand.XRJoints()
				}
				e.Frame(&w, f.Frame, f.At)
				got := decode(t, w.Packets(), s.side, geom.Gloved)
				frames++
				if got.active != 1 || got.handedness != s.side {
					t.Fatalf("frame %d: active %d, handedness %q", frames, got.active, got.handedness)
				}
				links := f.Pipeline.Poses()
				for j, jt := range got.joints {
					fail := func(format string, a ...any) {
						t.Helper()
						t.Fatalf("frame %d, %v: %s", frames, handmodel.XRJoint(j), fmt.Sprintf(format, a...))
					}
					want := table[j].Pose(links[table[j].Link])
					r := jt.q.Normalize().Mat4().Mat3()
					if d := jt.p.Sub(want.T.Mgl()).Len(); d > 2e-6 {
						fail("at %v, %g m from %v", jt.p, d, want.T)
					}
					if !osctest.MatNear(r, want.R, 2e-6) {
						fail("rotation %v, the model's %v", r, want.R)
					}
					if math.Abs(jt.q.Len()-1) > 1e-6 || math.Abs(jt.radius-table[j].Radius) > 1e-7 || !(jt.radius > 0) {
						fail("quaternion length %v, radius %v (the model's %v)", jt.q.Len(), jt.radius, table[j].Radius)
					}
					if last != nil && jt.q.Dot(last[j].q) < 0 {
						fail("the quaternion changed hemisphere: %v after %v", jt.q, last[j].q)
					}
					if last == nil && jt.q.W < 0 {
						fail("the stream began with W = %v", jt.q.W)
					}
					// Along a finger, -Z points at the next joint: exactly
					// on the procedural hand, nearly on the skin's bones.
					jj := handmodel.XRJoint(j)
					if next := jj + 1; jj >= handmodel.XRThumbMetacarpal && next < handmodel.NumXRJoints && !strings.HasSuffix(jj.String(), "tip") {
						tol := 1e-5
						if hand.Rig() != nil {
							tol = 0.2
						}
						bone := got.joints[next].p.Sub(jt.p).Normalize()
						if minusZ := r.Col(2).Mul(-1); minusZ.Sub(bone).Len() > tol {
							fail("-Z is %v, the next joint is along %v", minusZ, bone)
						}
					}
					if l := table[j].Link; l != handmodel.Palm && r.Col(1).Sub(links[l].R.Col(2)).Len() > 0.1 {
						fail("+Y is %v, the back of its bone %v", r.Col(1), links[l].R.Col(2))
					}
				}
				last = got.joints
			})
			if frames < 150 {
				t.Fatalf("%d frames", frames)
			}
		})
	}
}

// TestCoordsCarryEveryJoint: under each coordinate preset, every joint of
// every frame is the gloved-coordinates joint carried by the preset: its
// position s·M·p, its rotation M·R·Mᵀ (as a quaternion, W kept), its
// radius in the preset's unit.
func TestCoordsCarryEveryJoint(t *testing.T) {
	var enc []*openxr.Hand
	var w osc.Writer
	osctest.Run(t, osctest.Recording(), 60, func(f osctest.Frame) {
		if enc == nil {
			for _, c := range geom.Conventions {
				enc = append(enc, openxr.NewHand(f.Pipeline.Hand(), "/gloved", "right", c))
			}
		}
		var base wireFrame
		for i, c := range geom.Conventions {
			enc[i].Frame(&w, f.Frame, f.At)
			got := decode(t, w.Packets(), "right", c)
			if i == 0 {
				base = got
				continue
			}
			s := c.Scale()
			for j, jt := range got.joints {
				b := base.joints[j]
				if d := jt.p.Sub(c.Point(b.p)).Len(); d > 2e-6*s {
					t.Fatalf("%s: %v at %v, the gloved position carried is %v", c.Name(), handmodel.XRJoint(j), jt.p, c.Point(b.p))
				}
				if !jt.q.ApproxEqualThreshold(c.Quat(b.q), 1e-6) || math.Abs(jt.radius-s*b.radius) > 1e-6*s {
					t.Fatalf("%s: %v rotation %v radius %v, carried %v and %v", c.Name(), handmodel.XRJoint(j), jt.q, jt.radius, c.Quat(b.q), s*b.radius)
				}
			}
		}
	})
}

// TestMethodsSayTheCoordinates: the profile's contract in each preset
// gives positions and radii in the preset's unit and a joint's axes as
// the preset names them: under unreal, centimetres, +X along the bone
// and +Z out of the back of the hand, and the description says Unreal's
// axes; in gloved's own, metres, OpenXR's -Z and +Y.
func TestMethodsSayTheCoordinates(t *testing.T) {
	tests := []struct {
		c          geom.Convention
		unit, axes string
	}{
		{geom.Gloved, "distance.m", "(-Z along the bone toward the fingertip, +Y out of the back of the hand) and its radius."},
		{geom.Unity, "distance.m", "(+Z along the bone toward the fingertip, +Y out of the back of the hand) and its radius. In unity's coordinates (left-handed, +Y up, +Z forward, +X right), lengths in metres."},
		{geom.Unreal, "distance.cm", "(+X along the bone toward the fingertip, +Z out of the back of the hand) and its radius. In unreal's coordinates (left-handed, +Z up, +X forward, +Y right), lengths in centimetres."},
		{geom.ROS, "distance.m", "(+X along the bone toward the fingertip, +Z out of the back of the hand) and its radius. In ros's coordinates (right-handed, +Z up, +X forward, +Y left), lengths in metres."},
	}
	for _, tc := range tests {
		for _, m := range openxr.Methods(tc.c)[2:] {
			for _, a := range m.Args {
				if want := map[bool]string{true: tc.unit, false: ""}[a.Name == "radius" || strings.HasPrefix(a.Name, "position")]; a.Unit != want {
					t.Errorf("%s: %s %s: unit %q, want %q", tc.c.Name(), m.Path, a.Name, a.Unit, want)
				}
			}
			if !strings.HasSuffix(m.Description, tc.axes) {
				t.Errorf("%s: %s: %q, want it to end %q", tc.c.Name(), m.Path, m.Description, tc.axes)
			}
		}
	}
}

// TestStatusSaysWhetherTheHandIsTracked: a status bundle holds active, 1
// or 0.
func TestStatusSaysWhetherTheHandIsTracked(t *testing.T) {
	var w osc.Writer
	for _, tracked := range []bool{true, false} {
		openxr.Status(&w, "/gloved", "left", tracked, osctest.Epoch)
		p, err := goosc.ParsePacket(string(w.Packets()[0]))
		if err != nil {
			t.Fatal(err)
		}
		m := p.(*goosc.Bundle).Messages[0]
		if want := map[bool]int32{true: 1, false: 0}[tracked]; m.Address != "/gloved/left/xr/active" || m.Arguments[0] != want {
			t.Errorf("tracked %v: %v", tracked, m)
		}
	}
}

// encoder is the profile encoding the recording's grasp half-way, in
// Unity's coordinates.
func encoder(tb testing.TB) func() {
	return osctest.Repeat(tb, func(f osctest.Frame) profile.Encoder {
		return openxr.NewHand(f.Pipeline.Hand(), "/gloved", "right", geom.Unity)
	})
}

// TestFrameAllocatesNothing: encoding a frame allocates nothing once the
// writer has grown.
func TestFrameAllocatesNothing(t *testing.T) { osctest.AllocatesNothing(t, encoder(t)) }

// BenchmarkFrame: one frame of the 26 joints (poses, radii, continuity,
// carried into Unity's coordinates) into its bundles.
func BenchmarkFrame(b *testing.B) { osctest.Benchmark(b, encoder(b)) }
