package calibrator

import (
	"context"
	"errors"
	"io"
	"math"
	"sync/atomic"
	"testing"

	"github.com/gloved/gloved/calibrator/calibratortest"
	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/cyberglove/layout"
	"github.com/gloved/gloved/devices/opengloves"
	"github.com/gloved/gloved/handmodel"
)

// TestRunRecoversAKnownCalibration: a glove with a known calibration, held
// in every pose with a count of noise, is calibrated back to it within the
// fit's error bound, for 22 and 18 sensors and a left glove whose
// abduction and wrist yaw sensors read backwards; the fitted hand in each
// pose is the pose.
func TestRunRecoversAKnownCalibration(t *testing.T) {
	const noise = 1.0
	for _, tc := range []struct {
		name    string
		sensors int
		left    bool
	}{{"22 right", 22, false}, {"18 right", 18, false}, {"22 left", 22, true}} {
		t.Run(tc.name, func(t *testing.T) {
			known := knownCalibration(t, tc.sensors, tc.left, noise)
			g := newPoseGlove(t, known, noise)
			u := &user{t: t, g: g}
			info := devices.GloveInfo{Model: "cyberglove", Sensors: tc.sensors, Right: !tc.left}
			r, err := Run(context.Background(), g, info, u, testOpts(g))
			if err != nil {
				t.Fatal(err)
			}
			fewest := math.MaxInt
			for _, st := range r.Steps {
				fewest = min(fewest, st.Hold.Samples)
			}
			calibratortest.Check(t, r.Cal, known, calibratortest.ReadingError(noise, fewest))
			for _, st := range r.Steps {
				for j, pinned := range st.Pinned {
					// One count is at most 0.5 degrees at these gains; the
					// fitted hand is within a few counts of the pose.
					if pinned && math.Abs(st.Fitted[j]-st.Target[j]) > 2*math.Pi/180 {
						t.Errorf("%s: %v fitted %.1f degrees, target %.1f", st.Pose.Name, handmodel.Joint(j), degrees(st.Fitted[j]), degrees(st.Target[j]))
					}
				}
			}
			for i, f := range r.Fits {
				if f.Fallback != "" {
					t.Errorf("%s fell back: %s", r.Cal.Sensor[i].Name, f.Fallback)
				}
			}
			if len(u.asks) != len(handmodel.CalPoses) || u.shown != 1 {
				t.Errorf("%d asks and %d shows, want one ask a pose and one show", len(u.asks), u.shown)
			}
		})
	}
}

// TestRunAsksAgainWhenTheHandMoves: a hand that changes pose during the
// hold is asked for the pose again, and the second, still hold is the one
// kept.
func TestRunAsksAgainWhenTheHandMoves(t *testing.T) {
	known := knownCalibration(t, 22, false, 0)
	g := newPoseGlove(t, known, 0)
	u := &user{t: t, g: g, fidget: func(s Step) bool { return s.Index == 1 && s.Attempt == 1 }}
	r, err := Run(context.Background(), g, devices.GloveInfo{Sensors: 22, Right: true}, u, testOpts(g))
	if err != nil {
		t.Fatal(err)
	}
	var notStill *NotStillError
	if len(u.asks) != len(handmodel.CalPoses)+1 || u.asks[2].Index != 1 || u.asks[2].Attempt != 2 || !errors.As(u.helds[1], &notStill) {
		t.Fatalf("asks %d (third: pose %d attempt %d), second hold %v: want pose 2 asked twice after a not-still hold",
			len(u.asks), u.asks[2].Index, u.asks[2].Attempt, u.helds[1])
	}
	if notStill.Spread <= DefaultStill || r.Steps[1].Attempts != 2 {
		t.Errorf("rejected with spread %v; kept attempt %d", notStill.Spread, r.Steps[1].Attempts)
	}
	calibratortest.Check(t, r.Cal, known, calibratortest.ReadingError(0, 1))
}

// TestRunAsksAgainWhenTheGloveStops: a hold during which the glove's
// reads time out is rejected as the glove having stopped.
func TestRunAsksAgainWhenTheGloveStops(t *testing.T) {
	g := newPoseGlove(t, knownCalibration(t, 18, false, 0), 0)
	u := &user{t: t, g: g, stall: func(s Step) bool { return s.Index == 2 && s.Attempt == 1 }}
	if _, err := Run(context.Background(), g, devices.GloveInfo{Sensors: 18, Right: true}, u, testOpts(g)); err != nil {
		t.Fatal(err)
	}
	var stopped *StoppedError
	if !errors.As(u.helds[2], &stopped) || !errors.Is(stopped, devices.ErrTimeout) || u.asks[3].Index != 2 {
		t.Fatalf("third hold: %v, fourth ask pose %d: want the glove stopped (timeout) and pose 3 asked again", u.helds[2], u.asks[3].Index)
	}
}

// TestRunEndsWhenTheUserStops: quitting, the input ending, an interrupt
// and a declined calibration end the session with no result.
func TestRunEndsWhenTheUserStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name    string
		ctx     context.Context
		quit    error
		answers []Decision
		want    error
	}{
		{"q", context.Background(), ErrQuit, nil, ErrQuit},
		{"end of input", context.Background(), io.EOF, nil, io.EOF},
		{"interrupt", ctx, nil, nil, context.Canceled},
		{"declined", context.Background(), nil, []Decision{{}}, ErrQuit},
	} {
		g := newPoseGlove(t, knownCalibration(t, 22, false, 0), 0)
		u := &user{t: t, g: g, answers: tc.answers, quit: func(s Step) error {
			if s.Index == 3 {
				return tc.quit
			}
			return nil
		}}
		r, err := Run(tc.ctx, g, devices.GloveInfo{Sensors: 22, Right: true}, u, testOpts(g))
		if r != nil || !errors.Is(err, tc.want) {
			t.Errorf("%s: got %v, %v; want no result and %v", tc.name, r, err, tc.want)
		}
	}
}

// TestRunHoldsAgainThePosesTheUserNames: asked to redo poses 2 and 5, the
// session asks for those two again, fits again and shows the new fit.
func TestRunHoldsAgainThePosesTheUserNames(t *testing.T) {
	g := newPoseGlove(t, knownCalibration(t, 22, false, 0), 0)
	u := &user{t: t, g: g, answers: []Decision{{Redo: []int{1, 4}}, {Write: true}}}
	if _, err := Run(context.Background(), g, devices.GloveInfo{Sensors: 22, Right: true}, u, testOpts(g)); err != nil {
		t.Fatal(err)
	}
	n := len(handmodel.CalPoses)
	if len(u.asks) != n+2 || u.asks[n].Index != 1 || u.asks[n+1].Index != 4 || u.shown != 2 {
		t.Errorf("%d asks (then poses %d, %d), %d shows: want poses 2 and 5 again and a second show", len(u.asks), u.asks[n].Index, u.asks[n+1].Index, u.shown)
	}
	if _, err := Run(context.Background(), g, devices.GloveInfo{Sensors: 20}, u, testOpts(g)); err == nil {
		t.Error("a 20-sensor glove was accepted")
	}
}

// TestMeasureTakesMediansAndJudgesStillness: the held reading is the
// median; a hold is still when the middle 90% of each sensor's readings
// lie within Still counts, so a stray reading or two is forgiven.
func TestMeasureTakesMediansAndJudgesStillness(t *testing.T) {
	samples := make([]devices.Sample, 40)
	for i := range samples {
		samples[i].N = 18
		for k := range 18 {
			samples[i].Raw[k] = uint16(100 + i%5) // 100..104: median 102, spread 4
		}
	}
	samples[7].Raw[3] = 250 // one stray reading
	h, err := measure(samples, cyber18, 8)
	if err != nil || h.Raw[0] != 102 || h.Spread[0] != 4 || h.Raw[3] != 102 {
		t.Fatalf("got %+v, %v: want medians 102, spread 4, the stray forgiven", h, err)
	}
	for i := range 10 { // a quarter of the hold elsewhere: moved
		samples[i].Raw[5] = 180
	}
	_, err = measure(samples, cyber18, 8)
	var ns *NotStillError
	if !errors.As(err, &ns) || ns.Sensor != "index_pip" || ns.Spread != 80 {
		t.Fatalf("got %v, want index_pip not still by 80 counts", err)
	}
	var st *StoppedError
	if _, err := measure(samples[:minSamples-1], cyber18, 8); !errors.As(err, &st) {
		t.Errorf("%d samples: %v, want the glove stopped", minSamples-1, err)
	}
}

// cyber18 is the 18-sensor CyberGlove's layout.
var cyber18 = layout.Layouts(devices.Bits8)[0]

// TestOnlyTheSensorsOfTheHandMustKeepStill: an OpenGloves glove's hold is
// still while its buttons are pressed and released and its joystick
// moves, and its whole-finger curl (which moves no joint itself) too, but
// not while a per-joint curl moves; a reading at 0, the firmware's open
// end, is a reading like any other, not a saturated one.
func TestOnlyTheSensorsOfTheHandMustKeepStill(t *testing.T) {
	samples := make([]devices.Sample, 40)
	for i := range samples {
		s := &samples[i]
		s.N, s.Bits = opengloves.Channels, devices.Bits12
		s.Raw[opengloves.JoyX] = uint16(100 * i)
		s.Raw[opengloves.Flag+2] = uint16(i % 2 * opengloves.MaxESP32)
		s.Raw[opengloves.Curl+1] = uint16(50 * i)
	}
	h, err := measure(samples, opengloves.Layout, 8)
	if err != nil || h.saturated(opengloves.Layout) != 0 {
		t.Fatalf("the controls moving: %v, saturated %b", err, h.saturated(opengloves.Layout))
	}
	for i := range samples {
		samples[i].Raw[opengloves.Joint+5] = uint16(50 * i)
	}
	var ns *NotStillError
	if _, err := measure(samples, opengloves.Layout, 8); !errors.As(err, &ns) || ns.Sensor != "index_mcp" {
		t.Errorf("index_mcp moving: %v", err)
	}
}

// liveUser is a user whose UI also shows the hand live.
type liveUser struct {
	*user
	samples atomic.Int64
}

func (l *liveUser) Live(s *devices.Sample) {
	if s.N == 18 {
		l.samples.Add(1)
	}
}

// TestRunGivesALiveUIEverySample: a UI that is also Live is given the
// glove's samples all through the session, not only the held ones.
func TestRunGivesALiveUIEverySample(t *testing.T) {
	g := newPoseGlove(t, knownCalibration(t, 18, false, 0), 0)
	u := &liveUser{user: &user{t: t, g: g}}
	r, err := Run(context.Background(), g, devices.GloveInfo{Sensors: 18, Right: true}, u, testOpts(g))
	if err != nil {
		t.Fatal(err)
	}
	held := 0
	for _, st := range r.Steps {
		held += st.Hold.Samples
	}
	if n := u.samples.Load(); n <= int64(held) {
		t.Errorf("the live UI was given %d samples, the holds alone had %d", n, held)
	}
}
