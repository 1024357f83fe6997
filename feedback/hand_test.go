package feedback_test

import (
	"math"
	"testing"
	"time"

	"github.com/gloved/gloved/contact"
	"github.com/gloved/gloved/feedback"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
)

const frame = 10 * time.Millisecond

// rig feeds a hand's feedback frames: the index finger bent evenly to a
// curl, its distal link touching an object or not.
type rig struct {
	h     *feedback.Hand
	q     handmodel.Angles
	poses []geom.Transform
	t     time.Duration
}

func newRig(t *testing.T, o feedback.Options) *rig {
	t.Helper()
	h, err := feedback.NewHand(&handmodel.DefaultLimits, o)
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{h: h, poses: make([]geom.Transform, handmodel.FingerLinks)}
	for i := range r.poses {
		r.poses[i] = geom.Identity()
	}
	return r
}

// index bends the index finger to curl (each flexion joint the same
// share of its upper limit).
func (r *rig) index(curl float64) {
	for _, j := range []handmodel.Joint{handmodel.IndexMCP, handmodel.IndexPIP, handmodel.IndexDIP} {
		r.q[j] = curl * handmodel.DefaultLimits[j].Max
	}
}

// touch is the index's distal link touching object 0 at the origin, the
// object's normal +z.
var touch = []contact.Contact{{Link: int(handmodel.IndexDistal), Object: 0, Depth: 0.001, Normal: geom.Vec3{Z: 1}}}

func (r *rig) frame(c []contact.Contact) *feedback.State {
	r.t += frame
	r.h.Frame(r.t, &r.q, r.poses, c)
	return r.h.State()
}

// TestAFingerIsStoppedAtItsCurlAtFirstContactHeldAndReleased: the index
// touching at curl 0.4 is held at force 0.6 while the contact lasts (the
// finger opening a little leaves the limit where it was), still for
// EndFrames-1 frames without contact, and free after EndFrames; the other
// fingers stay free.
func TestAFingerIsStoppedAtItsCurlAtFirstContactHeldAndReleased(t *testing.T) {
	r := newRig(t, feedback.Options{})
	r.index(0.4)
	s := r.frame(touch)
	if !s.Held[1] || math.Abs(s.Force[1]-0.6) > 1e-9 {
		t.Fatalf("at first contact: held %v force %v, want held at 0.6", s.Held[1], s.Force[1])
	}
	r.index(0.3)
	if s = r.frame(touch); math.Abs(s.Force[1]-0.6) > 1e-9 {
		t.Fatalf("a finger opening while touching moved its limit: force %v", s.Force[1])
	}
	for i := range feedback.EndFrames - 1 {
		if s = r.frame(nil); !s.Held[1] {
			t.Fatalf("released %d frames after the contact ended, want %d", i+1, feedback.EndFrames)
		}
	}
	if s = r.frame(nil); s.Held[1] || s.Force[1] != 0 {
		t.Fatalf("%d frames after the contact: held %v force %v, want free", feedback.EndFrames, s.Held[1], s.Force[1])
	}
	for f, force := range s.Force {
		if force != 0 {
			t.Errorf("finger %d has force %v, never touched", f, force)
		}
	}
}

// TestALimitNeverOpensAFingerThatClosedPastIt: a finger that closed past
// its limit before the servo could stop it is held where it is, never
// pulled back open.
func TestALimitNeverOpensAFingerThatClosedPastIt(t *testing.T) {
	r := newRig(t, feedback.Options{})
	r.index(0.4)
	r.frame(touch)
	r.index(0.55)
	s := r.frame(touch)
	if math.Abs(s.Force[1]-0.45) > 1e-9 {
		t.Fatalf("force %v for a finger closed to 0.55, want 0.45 (its curl now, not the 0.6 that would open it)", s.Force[1])
	}
	line, _ := r.h.Due(r.t)
	if line.Servo[1] != 450 {
		t.Fatalf("servo value %d, want 450", line.Servo[1])
	}
}

// TestAHeldFingerReadAHairPastItsLimitKeepsIt: a held finger read past
// its limit by less than Deadband leaves the limit where it was set,
// frame after frame, instead of ratcheting it shut.
func TestAHeldFingerReadAHairPastItsLimitKeepsIt(t *testing.T) {
	r := newRig(t, feedback.Options{})
	r.index(0.4)
	r.frame(touch)
	for i, curl := range []float64{0.41, 0.405, 0.419, 0.41, 0.419} {
		r.index(curl)
		if s := r.frame(touch); math.Abs(s.Force[1]-0.6) > 1e-9 {
			t.Fatalf("frame %d, curl %v: force %v, want 0.6 (the limit set at first contact)", i, curl, s.Force[1])
		}
	}
}

// TestAPulseIsTheApproachSpeedOverTheFullSpeed: the index's distal link
// moving onto the object at 0.25 m/s along its normal gives a pulse of
// amplitude 0.5 at the touch's beginning (full speed 0.5 m/s), none while
// the touch lasts; moving away or sideways gives none.
func TestAPulseIsTheApproachSpeedOverTheFullSpeed(t *testing.T) {
	r := newRig(t, feedback.Options{Approach: 0.5})
	l := handmodel.IndexDistal
	r.poses[l].T = geom.Vec3{Z: 0.0025}
	r.frame(nil)
	r.poses[l].T = geom.Vec3{} // 2.5 mm in 10 ms
	s := r.frame(touch)
	if math.Abs(s.Pulse-0.5) > 1e-9 {
		t.Fatalf("pulse %v, want 0.5", s.Pulse)
	}
	if s = r.frame(touch); s.Pulse != 0 {
		t.Fatalf("a lasting touch pulsed again: %v", s.Pulse)
	}
	line, ok := r.h.Due(r.t)
	if !ok || math.Abs(line.Amplitude-0.5) > 1e-9 || line.Duration != feedback.DefaultPulse || line.Hz != feedback.DefaultPulseHz {
		t.Fatalf("line %+v (due %v), want the pulse of amplitude 0.5", line, ok)
	}
	if line, _ = r.h.Due(r.t + time.Second); line.Amplitude != 0 {
		t.Fatalf("the pulse was sent twice: %+v", line)
	}

	r = newRig(t, feedback.Options{Approach: 0.5})
	r.frame(nil)
	r.poses[l].T = geom.Vec3{X: 0.01, Z: 0.001} // sideways and away
	if s = r.frame(touch); s.Pulse != 0 {
		t.Fatalf("a link moving away from the object pulsed: %v", s.Pulse)
	}
}

// TestLinesAreRateLimitedSentOnChangeAndRefreshed: the first frame sends
// the free state; an unchanged state is not sent again until the
// refresh; a change is sent at once unless the last line was within the
// rate's period, then at the first frame after it.
func TestLinesAreRateLimitedSentOnChangeAndRefreshed(t *testing.T) {
	r := newRig(t, feedback.Options{Rate: 50, Refresh: 200 * time.Millisecond})
	r.frame(nil)
	if line, ok := r.h.Due(r.t); !ok || line.Servo != [feedback.Fingers]uint16{} {
		t.Fatalf("first frame: line %+v due %v, want the free state", line, ok)
	}
	sentAt := r.t
	r.frame(nil)
	if _, ok := r.h.Due(r.t); ok {
		t.Fatal("an unchanged state was sent before the refresh")
	}
	r.index(0.2)
	r.frame(touch) // 20 ms after the last line: the 50 Hz period has passed
	if line, ok := r.h.Due(r.t); !ok || line.Servo[1] != 800 {
		t.Fatalf("a change was not sent: %+v %v", line, ok)
	}
	sentAt = r.t
	r.index(0.3)
	r.frame(touch)
	if _, ok := r.h.Due(r.t); ok {
		t.Fatal("a change 10 ms after the last line was sent: the rate is 50 a second")
	}
	r.frame(touch)
	if line, ok := r.h.Due(r.t); !ok || line.Servo[1] != 700 || r.t-sentAt != 20*time.Millisecond {
		t.Fatalf("the change waiting for the rate: %+v %v at %v", line, ok, r.t-sentAt)
	}
	sentAt = r.t
	for r.t-sentAt < 200*time.Millisecond-frame {
		r.frame(touch)
		if _, ok := r.h.Due(r.t); ok {
			t.Fatalf("an unchanged state sent again %v after, before the refresh", r.t-sentAt)
		}
	}
	r.frame(touch)
	if line, ok := r.h.Due(r.t); !ok || line.Servo[1] != 700 {
		t.Fatalf("the refresh: %+v %v", line, ok)
	}
}

// TestOptionsOutOfRangeAreRefused: each option outside its range is an
// error naming it.
func TestOptionsOutOfRangeAreRefused(t *testing.T) {
	for _, o := range []feedback.Options{{Rate: -1}, {Rate: math.NaN()}, {Rate: 5000}, {Refresh: time.Millisecond},
		{Approach: -1}, {Approach: 11}, {PulseHz: math.Inf(1)}, {Pulse: time.Hour}} {
		if _, err := feedback.NewHand(&handmodel.DefaultLimits, o); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
}

// TestAFrameAndItsLineAllocateNothing: the frame loop's feedback is
// allocation-free.
func TestAFrameAndItsLineAllocateNothing(t *testing.T) {
	r := newRig(t, feedback.Options{})
	r.index(0.4)
	n := testing.AllocsPerRun(100, func() {
		r.frame(touch)
		r.h.Due(r.t)
		r.frame(nil)
	})
	if n != 0 {
		t.Fatalf("%v allocations a frame", n)
	}
}

// TestResendSendsTheHeldLineAgainAtOnce: after Resend (the glove's port
// reopened), the next Due returns the current line, before the refresh
// and the rate would, and the finger stays held where it was.
func TestResendSendsTheHeldLineAgainAtOnce(t *testing.T) {
	r := newRig(t, feedback.Options{})
	r.index(0.4)
	r.frame(touch)
	if l, due := r.h.Due(r.t); !due || l.Servo[1] != 600 {
		t.Fatalf("first line %+v due %v, want the index at 600", l, due)
	}
	r.frame(touch)
	if _, due := r.h.Due(r.t); due {
		t.Fatal("an unchanged line was due a frame later")
	}
	r.h.Resend()
	s := r.frame(touch)
	if l, due := r.h.Due(r.t); !due || l.Servo[1] != 600 || !s.Held[1] {
		t.Fatalf("after Resend: line %+v due %v held %v, want the index's 600 sent again, still held", l, due, s.Held[1])
	}
}
