package vmc_test

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl64"
	goosc "github.com/hypebeast/go-osc/osc"

	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/osc/osctest"
	"github.com/gloved/gloved/osc/profile"
	"github.com/gloved/gloved/osc/vmc"
	"github.com/gloved/gloved/session"
)

// bone is a finger bone as a marionette receives it.
type bone struct {
	name string
	p    mgl64.Vec3
	q    mgl64.Quat
}

// wireFrame is a frame as a marionette receives it.
type wireFrame struct {
	ok    []int32
	time  float64
	bones []bone
}

// decode reads one frame's packets: each message must be one of Methods,
// in its order, its arguments within their ranges.
func decode(t *testing.T, packets [][]byte) wireFrame {
	t.Helper()
	contract := map[string]*osc.Method{}
	ms := vmc.Methods()
	for i := range ms {
		contract[ms[i].Path] = &ms[i]
	}
	var f wireFrame
	var order []string
	for _, pk := range packets {
		p, err := goosc.ParsePacket(string(pk))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range p.(*goosc.Bundle).Messages {
			c, ok := contract[m.Address]
			if !ok {
				t.Fatalf("%s is not in the contract", m.Address)
			}
			if err := c.CheckArgs(m.Arguments, osc.Shape{}); err != nil {
				t.Fatalf("%v: %v", m.Arguments, err)
			}
			order = append(order, m.Address)
			switch m.Address {
			case vmc.AddrOK:
				for _, a := range m.Arguments {
					f.ok = append(f.ok, a.(int32))
				}
			case vmc.AddrTime:
				f.time = float64(m.Arguments[0].(float32))
			case vmc.AddrBone:
				v := make([]float64, 7)
				for k := range v {
					v[k] = float64(m.Arguments[1+k].(float32))
				}
				f.bones = append(f.bones, bone{m.Arguments[0].(string), mgl64.Vec3{v[0], v[1], v[2]}, mgl64.Quat{W: v[6], V: mgl64.Vec3{v[3], v[4], v[5]}}})
			}
		}
	}
	if len(order) != 2+vmc.NumBones || order[0] != vmc.AddrOK || order[1] != vmc.AddrTime {
		t.Fatalf("a frame of %v", order)
	}
	return f
}

// avatar composes a hand's bones down each finger as Unity does (a
// bone's world pose is its parent's times its local one), from the hand
// bone at the origin: each bone's rotation and position relative to the
// hand bone, in Unity's coordinates.
func avatar(bones []bone) (rot []mgl64.Quat, pos []mgl64.Vec3) {
	for i, b := range bones {
		if i%3 == 0 {
			rot, pos = append(rot, b.q), append(pos, b.p)
			continue
		}
		rot = append(rot, rot[i-1].Mul(b.q))
		pos = append(pos, pos[i-1].Add(rot[i-1].Rotate(b.p)))
	}
	return rot, pos
}

// handFrame carries a rotation and a position relative to the hand bone
// in Unity's coordinates back into the hand's frame (+Y toward the
// fingers, +Z out of the back): the inverse of the T-pose and of Unity's
// axes.
func handFrame(right bool, q mgl64.Quat, p mgl64.Vec3) (mgl64.Mat3, mgl64.Vec3) {
	back := geom.Unity.Inverse()
	b := vmc.TPose(right)
	r := b.Transpose().Mul3(back.Rotation(q.Normalize().Mat4().Mat3())).Mul3(b)
	return r, b.Transpose().Mul3x1(back.Point(p))
}

var sessions = []struct {
	name  string
	right bool
	spec  session.Spec
	n     int
}{
	{"recording, procedural", true, osctest.Recording(), 0},
	{"recording, skinned", true, osctest.Skinned(osctest.Recording(), "right"), 0},
	{"simulated left grasp, procedural", false, osctest.Sim("left", "grasp"), 150},
	{"simulated left fist, skinned", false, osctest.Skinned(osctest.Sim("left", "fist"), "left"), 150},
}

// TestBonesComposeBackIntoTheLinks: at every frame of each session, the
// bones a marionette receives, composed down each finger as Unity does
// and carried back out of Unity's coordinates and the T-pose, are the
// pipeline's links relative to the palm: each link's turn from its rest
// pose (R_palmᵀ·R_link·R_restᵀ) and its origin. They are named for the
// hand's side; their quaternions keep their hemispheres, starting with W
// >= 0; /VMC/Ext/OK says loaded, calibrated, normal mode, tracked; and
// /VMC/Ext/T is the frame's time since the start.
func TestBonesComposeBackIntoTheLinks(t *testing.T) {
	for _, s := range sessions {
		t.Run(s.name, func(t *testing.T) {
			var e *vmc.Hand
			var rest []geom.Transform
			var w osc.Writer
			var last []bone
			frames := 0
			start := osctest.Epoch.Add(-2 * time.Second)
			osctest.Run(t, s.spec, s.n, func(f osctest.Frame) {
				hand := f.Pipeline.Hand()
				if e == nil {
					e = vmc.NewHand(hand, vmc.NewPerformer(start, 1), 0)
					rest = make([]geom.Transform, hand.NumLinks())
					hand.Pose(&handmodel.Angles{}, geom.Identity(), rest)
				}
				e.Frame(&w, f.Frame, f.At)
				got := decode(t, w.Packets())
				frames++
				if fmt.Sprint(got.ok) != "[1 3 0 1]" || math.Abs(got.time-f.At.Sub(start).Seconds()) > 1e-6*got.time {
					t.Fatalf("frame %d: OK %v, time %v", frames, got.ok, got.time)
				}
				rot, pos := avatar(got.bones)
				links := f.Pipeline.Poses()
				palm := links[handmodel.Palm]
				for i, b := range got.bones {
					l := vmc.BoneLink(i)
					if b.name != vmc.BoneName(i, s.right) {
						t.Fatalf("bone %d is %s", i, b.name)
					}
					r, p := handFrame(s.right, rot[i], pos[i])
					want := palm.R.Transpose().Mul3(links[l].R).Mul3(rest[l].R.Transpose())
					if !osctest.MatNear(r, want, 2e-5) {
						t.Fatalf("frame %d, %s: composed back %v, the link's turn %v", frames, b.name, r, want)
					}
					if at := palm.Inverse().Apply(links[l].T).Mgl(); p.Sub(at).Len() > 2e-6 {
						t.Fatalf("frame %d, %s: composed back to %v, the link is at %v", frames, b.name, p, at)
					}
					if last != nil && b.q.Dot(last[i].q) < 0 {
						t.Fatalf("frame %d, %s: the quaternion changed hemisphere", frames, b.name)
					}
					if last == nil && b.q.W < 0 {
						t.Fatalf("%s: the stream began with W = %v", b.name, b.q.W)
					}
				}
				last = got.bones
			})
			if frames < 150 {
				t.Fatalf("%d frames", frames)
			}
		})
	}
}

// flat is a frame of hand flat (all angles 0) at the origin.
func flat(hand *handmodel.Hand) *osc.Frame {
	poses := make([]geom.Transform, hand.NumLinks())
	hand.Pose(&handmodel.Angles{}, geom.Identity(), poses)
	f := &osc.Frame{Joints: make([]float64, handmodel.NumJoints)}
	for _, x := range poses {
		f.Links = append(f.Links, osc.PoseOf(x))
	}
	return f
}

// TestRestIsTheTPose: with the fingers straight every bone's local
// rotation is the identity, as a normalized rig's at rest, and the bones
// lie as an avatar's in a T-pose: a left hand's fingers run along -X, a
// right hand's along +X, both thumbs toward +Z (forward, in Unity), the
// fingers level (Y).
func TestRestIsTheTPose(t *testing.T) {
	for _, right := range []bool{false, true} {
		p := handmodel.DefaultParams
		p.Right = right
		hand, err := handmodel.New(p)
		if err != nil {
			t.Fatal(err)
		}
		var w osc.Writer
		vmc.NewHand(hand, vmc.NewPerformer(osctest.Epoch, 1), 0).Frame(&w, flat(hand), osctest.Epoch)
		got := decode(t, w.Packets())
		_, pos := avatar(got.bones)
		out := -1.0
		if right {
			out = 1
		}
		for i, b := range got.bones {
			if math.Abs(math.Abs(b.q.W)-1) > 1e-6 {
				t.Errorf("%s: %v at rest, want the identity", b.name, b.q)
			}
			if i%3 > 0 && i >= 3 && ((pos[i][0]-pos[i-1][0])*out <= 0 || math.Abs(pos[i][1]) > 1e-6) {
				t.Errorf("%s at %v after %v: want it further along %+.0f X, level", b.name, pos[i], pos[i-1], out)
			}
		}
		if thumb := pos[2]; thumb[2] <= 0.02 {
			t.Errorf("right %v: the thumb's distal bone at %v: want it forward (+Z)", right, thumb)
		}
	}
}

// performerState reads a bundle's /VMC/Ext/OK and /VMC/Ext/T.
func performerState(t *testing.T, w *osc.Writer) (string, float32) {
	t.Helper()
	p, err := goosc.ParsePacket(string(w.Packets()[0]))
	if err != nil {
		t.Fatal(err)
	}
	ms := p.(*goosc.Bundle).Messages
	if len(ms) < 2 || ms[0].Address != vmc.AddrOK || ms[1].Address != vmc.AddrTime {
		t.Fatalf("a bundle of %v", ms)
	}
	return fmt.Sprint(ms[0].Arguments), ms[1].Arguments[0].(float32)
}

// TestPerformerIsTrackedWhileAnyHandIs: the two hands of one performer
// share its /VMC/Ext/OK and /VMC/Ext/T, in their frames' bundles and in
// the status bundles: tracking 1 while either hand is tracked (a hand's
// frame says it is, its status says whether), 0 once neither is; the
// time is the latest frame's since the start, never going back (a frame
// of the other hand's older sample, a status, repeat it), 0 before the
// first frame.
func TestPerformerIsTrackedWhileAnyHandIs(t *testing.T) {
	hands := [2]*handmodel.Hand{}
	for i, right := range []bool{false, true} {
		p := handmodel.DefaultParams
		p.Right = right
		h, err := handmodel.New(p)
		if err != nil {
			t.Fatal(err)
		}
		hands[i] = h
	}
	p := vmc.NewPerformer(osctest.Epoch, 2)
	left, right := vmc.NewHand(hands[0], p, 0), vmc.NewHand(hands[1], p, 1)
	at := func(ms int) time.Time { return osctest.Epoch.Add(time.Duration(ms) * time.Millisecond) }
	var w osc.Writer
	steps := []struct {
		name string
		send func()
		ok   string
		time float32
	}{
		{"the left hand no glove, before any frame", func() { p.Status(&w, 0, false, at(100)) }, "[1 3 0 0]", 0},
		{"the right hand's frame", func() { right.Frame(&w, flat(hands[1]), at(1500)) }, "[1 3 0 1]", 1.5},
		{"the left hand still no glove", func() { p.Status(&w, 0, false, at(1600)) }, "[1 3 0 1]", 1.5},
		{"the right hand streaming", func() { p.Status(&w, 1, true, at(1700)) }, "[1 3 0 1]", 1.5},
		{"the left hand's frame of an older sample", func() { left.Frame(&w, flat(hands[0]), at(1400)) }, "[1 3 0 1]", 1.5},
		{"the left hand's next", func() { left.Frame(&w, flat(hands[0]), at(2000)) }, "[1 3 0 1]", 2},
		{"the right hand ended", func() { p.Status(&w, 1, false, at(2100)) }, "[1 3 0 1]", 2},
		{"the left hand unplugged", func() { p.Status(&w, 0, false, at(2200)) }, "[1 3 0 0]", 2},
	}
	for _, s := range steps {
		s.send()
		if ok, tm := performerState(t, &w); ok != s.ok || tm != s.time {
			t.Errorf("%s: OK %s, T %v; want %s, %v", s.name, ok, tm, s.ok, s.time)
		}
	}
}

// encoder is the profile encoding the recording's grasp half-way.
func encoder(tb testing.TB) func() {
	return osctest.Repeat(tb, func(f osctest.Frame) profile.Encoder {
		return vmc.NewHand(f.Pipeline.Hand(), vmc.NewPerformer(osctest.Epoch, 1), 0)
	})
}

// TestFrameAllocatesNothing: encoding a frame allocates nothing once the
// writer has grown.
func TestFrameAllocatesNothing(t *testing.T) { osctest.AllocatesNothing(t, encoder(t)) }

// BenchmarkFrame: one frame's 15 finger bones (turns from rest, local to
// their parents, in the T-pose and Unity's axes, continuous) into its
// bundles.
func BenchmarkFrame(b *testing.B) { osctest.Benchmark(b, encoder(b)) }

// TestTheTimeGoesOnThroughAReload: the output a reload opens (Run.Opened
// 5 s after Run.Start, the service's start) says 5 s in its status
// bundles before its first frame, and its frames count from the service's
// start: the time never goes back (it said 0, then restarted at 0.1).
func TestTheTimeGoesOnThroughAReload(t *testing.T) {
	h, err := handmodel.New(handmodel.DefaultParams)
	if err != nil {
		t.Fatal(err)
	}
	reg, ok := profile.Lookup(vmc.Name)
	if !ok {
		t.Fatal("the vmc profile is not registered")
	}
	cfg, err := reg.Configure(profile.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	at := func(ms int) time.Time { return osctest.Epoch.Add(time.Duration(ms) * time.Millisecond) }
	out := cfg.Open(profile.Run{Start: osctest.Epoch, Opened: at(5000), Hands: []string{"right"}})
	var w osc.Writer
	out.Status(&w, 0, profile.Status{Tracked: true, Now: at(5010)})
	if _, tm := performerState(t, &w); tm != 5 {
		t.Errorf("status before the reloaded run's first frame: T %v, want 5", tm)
	}
	out.Hand(0, h).Frame(&w, flat(h), at(5100))
	if _, tm := performerState(t, &w); tm != 5.1 {
		t.Errorf("the reloaded run's first frame: T %v, want 5.1", tm)
	}
}
