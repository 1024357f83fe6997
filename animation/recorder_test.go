package animation_test

import (
	"errors"
	"io"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/qmuntal/gltf"

	"github.com/gloved/gloved/animation"
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
	bad[5].T[1] = math.NaN()
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
		x[0].T[0] = float64(k) * 0.01 // the palm moves, so there is a channel
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
