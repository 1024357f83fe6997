package animation_test

import (
	"errors"
	"io"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"

	"github.com/gloved/gloved/animation"
	"github.com/gloved/gloved/contact"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
)

// still is the hand at rest, every link at the identity.
func still(h *handmodel.Hand) []geom.Transform {
	x := make([]geom.Transform, h.NumLinks())
	for i := range x {
		x[i] = geom.Identity()
	}
	return x
}

// TestRecorderRefusesWhatIsNotAFrame: link transforms of the wrong count
// or not finite, a skinned hand's frame without its angles, and writing
// nothing or twice are errors, not a broken file.
func TestRecorderRefusesWhatIsNotAFrame(t *testing.T) {
	scene := env.GraspScene(1)
	h := mustHand(t, handmodel.DefaultParams)
	r := animation.NewRecorder(h, scene)
	if err := r.Add(animation.Frame{Links: still(h)[:3]}); err == nil || !strings.Contains(err.Error(), "3 link transforms for 16 links") {
		t.Errorf("3 links: error %v", err)
	}
	bad := still(h)
	bad[5].T.Y = math.NaN()
	if err := r.Add(animation.Frame{Links: bad}); err == nil || !strings.Contains(err.Error(), "index2 is not posed") {
		t.Errorf("a NaN link: error %v", err)
	}
	if err := r.Write(io.Discard, true); !errors.Is(err, animation.ErrNoFrames) {
		t.Errorf("no frames: error %v, want ErrNoFrames", err)
	}
	if err := r.Add(animation.Frame{Links: still(h)}); err != nil {
		t.Fatal(err)
	}
	if err := r.Write(io.Discard, true); err != nil {
		t.Fatal(err)
	}
	if err := r.Write(io.Discard, true); err == nil {
		t.Error("written twice: no error")
	}
	if err := r.Add(animation.Frame{Links: still(h)}); err == nil {
		t.Error("a frame after writing: no error")
	}
	sk := skinnedHand(t, true, "right.glb")
	if err := animation.NewRecorder(sk, scene).Add(animation.Frame{Links: still(sk)}); err == nil || !strings.Contains(err.Error(), "joint angles") {
		t.Errorf("a skinned hand without angles: error %v", err)
	}
}

// TestRecorderTakesStampsThatRepeatOrStepBack: frames whose stamps repeat
// (one chunk's samples) or step back (a damaged recording) are all kept,
// keyed strictly increasing from 0: the file is valid and has a key per
// frame.
func TestRecorderTakesStampsThatRepeatOrStepBack(t *testing.T) {
	h := mustHand(t, handmodel.DefaultParams)
	r := animation.NewRecorder(h, env.GraspScene(1))
	stamps := []time.Duration{time.Second, time.Second, time.Second, 1030 * time.Millisecond, 1010 * time.Millisecond, 1040 * time.Millisecond, 1040 * time.Millisecond}
	for k, s := range stamps {
		x := still(h)
		x[0].T.X = float64(k) * 0.01 // the palm moves, so there is a channel
		if err := r.Add(animation.Frame{Time: s, Links: x}); err != nil {
			t.Fatal(err)
		}
	}
	doc, _ := export(t, r)
	clip, err := animation.ReadClip(doc, 0)
	if err != nil {
		t.Fatal(err)
	}
	times := clip.Times(node(t, doc, "palm"), gltf.TRSTranslation)
	if len(times) != len(stamps) || times[0] != 0 {
		t.Fatalf("keys at %v for %d frames, want one per frame from 0", times, len(stamps))
	}
}

// rotationKeys returns the rotation keys of node's channel in doc.
func rotationKeys(t *testing.T, doc *gltf.Document, node int) [][4]float32 {
	t.Helper()
	for _, c := range doc.Animations[0].Channels {
		if *c.Target.Node == node && c.Target.Path == gltf.TRSRotation {
			keys, err := modeler.ReadAccessor(doc, doc.Accessors[doc.Animations[0].Samplers[c.Sampler].Output], nil)
			if err != nil {
				t.Fatal(err)
			}
			return keys.([][4]float32)
		}
	}
	t.Fatalf("node %d has no rotation channel", node)
	return nil
}

// TestRotationKeysStayInOneHemisphere: a link turning 400° about Y, 20° a
// frame, is keyed with quaternions each within 90° of the one before
// (dot product not negative), though the turn passes 180° where a
// matrix's quaternion changes sign; and halfway between frames it is 10°
// further on, not 170° back.
func TestRotationKeysStayInOneHemisphere(t *testing.T) {
	h := mustHand(t, handmodel.DefaultParams)
	r := animation.NewRecorder(h, env.GraspScene(1))
	turn := func(deg float64) geom.Transform {
		return geom.Transform{R: mgl64.Rotate3DY(deg * math.Pi / 180)}
	}
	for k := range 21 {
		x := still(h)
		x[0] = turn(20 * float64(k))
		if err := r.Add(animation.Frame{Time: time.Duration(k) * 10 * time.Millisecond, Links: x}); err != nil {
			t.Fatal(err)
		}
	}
	doc, _ := export(t, r)
	keys := rotationKeys(t, doc, node(t, doc, "palm"))
	for k := 1; k < len(keys); k++ {
		a, b := keys[k-1], keys[k]
		if dot := a[0]*b[0] + a[1]*b[1] + a[2]*b[2] + a[3]*b[3]; dot < 0 {
			t.Errorf("keys %d and %d are in opposite hemispheres: %v, %v", k-1, k, a, b)
		}
	}
	clip, err := animation.ReadClip(doc, 0)
	if err != nil {
		t.Fatal(err)
	}
	for k := range 20 {
		at := (float64(k) + 0.5) * 0.01
		got := clip.Sample(node(t, doc, "palm"), at).Transform()
		want := turn(20*float64(k) + 10)
		for i := range want.R {
			if math.Abs(got.R[i]-want.R[i]) > 1e-5 {
				t.Fatalf("at %v s: %v, want the turn by %v°", at, got.R, 20*k+10)
			}
		}
	}
}

// TestAContactKeepsItsMarker: a contact keeps its marker while its link
// and object stay in contact; a new contact takes the lowest marker free
// that frame; the pool is the most contacts of a frame.
func TestAContactKeepsItsMarker(t *testing.T) {
	h := mustHand(t, handmodel.DefaultParams)
	r := animation.NewRecorder(h, env.GraspScene(1))
	touch := func(link int, x float64) contact.Contact {
		return contact.Contact{Link: link, Object: 1, Depth: 0.002, Normal: geom.Vec3{Y: 1}, Point: geom.Vec3{X: x, Y: 0.8}}
	}
	frames := [][]contact.Contact{
		{touch(6, 0.01)},
		{touch(6, 0.02), touch(9, 0.03)},
		{touch(9, 0.04)},
		{touch(3, 0.05), touch(9, 0.06)},
	}
	// The marker each contact should be shown by, frame by frame.
	want := [][]int{{0}, {0, 1}, {1}, {0, 1}}
	for k, cs := range frames {
		if err := r.Add(animation.Frame{Time: time.Duration(k) * 10 * time.Millisecond, Links: still(h), Contacts: cs}); err != nil {
			t.Fatal(err)
		}
	}
	if r.Markers() != 2 {
		t.Fatalf("%d markers, want 2", r.Markers())
	}
	doc, _ := export(t, r)
	clip, err := animation.ReadClip(doc, 0)
	if err != nil {
		t.Fatal(err)
	}
	for k, cs := range frames {
		for i, c := range cs {
			x := clip.Sample(node(t, doc, animation.MarkerName(want[k][i])), float64(k)*0.01)
			if x.Translation.Sub(c.Point.Mgl()).Len() > 1e-7 || x.Scale[0] != 1 {
				t.Errorf("frame %d: %s is at %v scaled %v, want link %d's contact at %v", k, animation.MarkerName(want[k][i]), x.Translation, x.Scale, c.Link, c.Point)
			}
		}
	}
	if x := clip.Sample(node(t, doc, animation.MarkerName(0)), 0.02); x.Scale != (mgl64.Vec3{}) {
		t.Errorf("frame 2: contact-0 is unused but scaled %v", x.Scale)
	}
}
