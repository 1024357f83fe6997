package calibrator

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gloved/gloved/calibrator/calibratortest"
	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/cyberglove/layout"
	"github.com/gloved/gloved/devices/emulator"
	"github.com/gloved/gloved/handmodel"
)

// Test timing: a sample every 2 ms, holds of 60 ms after 20 ms to settle,
// on the glove's clock.
const (
	testPeriod = 2 * time.Millisecond
	testHold   = 60 * time.Millisecond
	testSettle = 20 * time.Millisecond
)

// testOpts are the options of a session on g: its holds are timed by g's
// clock, so each holds testHold/testPeriod samples however loaded the
// machine is (on the wall clock, a test descheduled for a while saw
// fewer than minSamples and asked again).
func testOpts(g *poseGlove) Opts {
	return Opts{Hold: testHold, Settle: testSettle, Clock: g.clock, Now: func() time.Time { return time.Date(2026, 3, 2, 14, 5, 9, 0, time.UTC) }}
}

// gloveClock is the time of a test's glove: it moves testPeriod at each
// read, and fires the timers it passes.
type gloveClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []gloveTimer
}

type gloveTimer struct {
	at time.Time
	c  chan time.Time
}

func (c *gloveClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *gloveClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := gloveTimer{at: c.now.Add(d), c: make(chan time.Time, 1)}
	c.timers = append(c.timers, t)
	return t.c
}

// advance moves the clock by d and returns the time since start.
func (c *gloveClock) advance(d time.Duration, start time.Time) time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	c.timers = slices.DeleteFunc(c.timers, func(t gloveTimer) bool {
		if c.now.Before(t.at) {
			return false
		}
		t.c <- c.now
		return true
	})
	return c.now.Sub(start)
}

// poseGlove is a glove whose wearer holds the poses of an emulator script
// read through a known calibration, a sample every testPeriod (of its
// clock; it is paced by the wall clock as well).
type poseGlove struct {
	script  *emulator.Script
	n       int
	clock   *gloveClock
	start   time.Time
	seq     uint64
	closed  atomic.Bool
	stalled atomic.Bool // reads time out, as a glove that stopped sending

	mu      sync.Mutex
	playing string
}

// newPoseGlove returns a glove calibrated by known, held flat, with noise
// (counts, seeded) on every reading; the test closes it.
func newPoseGlove(t *testing.T, known *handmodel.Calibration, noise float64) *poseGlove {
	t.Helper()
	poses := map[string][layout.Slots]float64{}
	for i := range handmodel.CalPoses {
		var slots [layout.Slots]float64
		if err := known.Readings(&handmodel.CalPoses[i].Angle, &slots); err != nil {
			t.Fatal(err)
		}
		poses[handmodel.CalPoses[i].Name] = slots
	}
	s, err := emulator.NewScript(poses, "flat", noise, 7)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	g := &poseGlove{script: s, n: known.Sensors, clock: &gloveClock{now: start}, start: start, playing: "flat"}
	s.OnChange = func(_ time.Duration, p string) {
		g.mu.Lock()
		g.playing = p
		g.mu.Unlock()
	}
	t.Cleanup(func() { g.Close() })
	return g
}

func (g *poseGlove) Read(s *devices.Sample) error {
	time.Sleep(testPeriod)
	if g.closed.Load() {
		return devices.ErrClosed
	}
	t := g.clock.advance(testPeriod, g.start)
	if g.stalled.Load() {
		return devices.ErrTimeout
	}
	var slots [layout.Slots]uint16
	g.script.Source(t, &slots)
	layout.FromSlots(&slots, g.n, s)
	s.Time, s.Seq = t, g.seq
	g.seq++
	return nil
}

func (g *poseGlove) Close() error { g.closed.Store(true); return nil }

// hold makes the wearer take pose now, and waits until the glove plays it.
func (g *poseGlove) hold(t *testing.T, pose string) {
	t.Helper()
	if err := g.script.Play(emulator.Step{Pose: pose}); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(testPeriod) {
		g.mu.Lock()
		p := g.playing
		g.mu.Unlock()
		if p == pose {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the glove never played %s", pose)
		}
	}
}

// fidget makes the wearer change between flat and fist every 5 ms for d.
func (g *poseGlove) fidget(d time.Duration) {
	var steps []emulator.Step
	for i := 0; time.Duration(i)*5*time.Millisecond < d; i++ {
		steps = append(steps, emulator.Step{Pose: []string{"flat", "fist"}[i%2], For: 5 * time.Millisecond})
	}
	g.script.Play(steps...)
}

// knownCalibration is calibratortest.Known, failing the test on error.
func knownCalibration(t *testing.T, n int, left bool, sigma float64) *handmodel.Calibration {
	t.Helper()
	c, err := calibratortest.Known(n, left, sigma)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// user is a scripted wearer: at each question it takes the pose (or
// fidgets, when fidget says so), and answers Confirm from its list.
type user struct {
	t       *testing.T
	g       *poseGlove
	fidget  func(s Step) bool
	stall   func(s Step) bool
	quit    func(s Step) error
	answers []Decision

	asks   []Step
	helds  []error
	shown  int
	result *Result
}

func (u *user) Ask(_ context.Context, s Step) error {
	u.asks = append(u.asks, s)
	if u.quit != nil {
		if err := u.quit(s); err != nil {
			return err
		}
	}
	u.g.hold(u.t, s.Pose.Name)
	u.g.stalled.Store(u.stall != nil && u.stall(s))
	if u.fidget != nil && u.fidget(s) {
		u.g.fidget(testSettle + testHold + 20*time.Millisecond)
		u.g.script.Play(emulator.Step{Pose: s.Pose.Name})
	}
	return nil
}

func (u *user) Recording(Step) {}

func (u *user) Held(_ Step, _ *Hold, err error) {
	u.helds = append(u.helds, err)
	u.g.stalled.Store(false)
}

func (u *user) Show(r *Result) { u.shown++; u.result = r }

func (u *user) Confirm(context.Context, *Result) (Decision, error) {
	if len(u.answers) == 0 {
		return Decision{Write: true}, nil
	}
	d := u.answers[0]
	u.answers = u.answers[1:]
	return d, nil
}
