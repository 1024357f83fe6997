package daemon

import (
	"math"
	"testing"
	"time"
)

// feed gives r samples at hz for d from start (its base) plus at, and
// returns the time after the last one and whether any sample reported
// the hand degraded and whether the last one did.
func feed(r *sampleRate, at time.Duration, hz float64, d time.Duration) (end time.Duration, any, last bool) {
	step := time.Duration(float64(time.Second) / hz)
	for t := at; t < at+d; t += step {
		last = r.sample(r.base.Add(t))
		any = any || last
		end = t + step
	}
	return end, any, last
}

func TestASteadyGloveIsNotDegraded(t *testing.T) {
	r := newSampleRate(100, time.Second)
	_, any, _ := feed(r, 0, 100, 10*time.Second)
	if any {
		t.Errorf("a glove at its rate was reported degraded")
	}
	if got := r.Measured(); math.Abs(got-100) > 1 {
		t.Errorf("measured %.2f samples/s, want 100", got)
	}
}

// The case the issue names: a second reader took a third of the samples.
func TestAGloveLosingAThirdIsDegradedAndRecovers(t *testing.T) {
	r := newSampleRate(100, time.Second)
	at, _, _ := feed(r, 0, 100, 3*time.Second)
	at, _, last := feed(r, at, 66, 3*time.Second)
	if !last {
		t.Fatalf("at 66 of 100 samples/s for 3 s: not degraded")
	}
	if got := r.Measured(); math.Abs(got-66) > 1.5 {
		t.Errorf("measured %.2f samples/s, want 66", got)
	}
	// 85/s is between the thresholds: a degraded hand stays degraded.
	at, _, last = feed(r, at, 85, 3*time.Second)
	if !last {
		t.Errorf("at 85/s a degraded hand was reported well (want hysteresis up to 90%%)")
	}
	_, _, last = feed(r, at, 100, 3*time.Second)
	if last {
		t.Errorf("back at 100/s for 3 s: still degraded")
	}
	// And a well hand at 85/s stays well.
	r2 := newSampleRate(100, time.Second)
	if _, any, _ := feed(r2, 0, 85, 5*time.Second); any {
		t.Errorf("a hand at 85/s from the start was reported degraded")
	}
}

// Until a whole window has passed since the glove opened, the rate is not
// judged: its first samples take a while to come up to speed.
func TestTheFirstWindowIsNotJudged(t *testing.T) {
	r := newSampleRate(100, time.Second)
	if _, any, _ := feed(r, 0, 50, rateWindow-50*time.Millisecond); any {
		t.Errorf("degraded within the first window")
	}
	if _, _, last := feed(r, rateWindow, 50, time.Second); !last {
		t.Errorf("at half the rate for a whole window: not degraded")
	}
}

func TestAGapLongerThanTheStallTimeDegradesForAWindow(t *testing.T) {
	r := newSampleRate(100, 300*time.Millisecond)
	at, _, _ := feed(r, 0, 100, 3*time.Second)
	if !r.sample(r.base.Add(at + 400*time.Millisecond)) {
		t.Fatalf("a sample 0.4 s after the last (stall 0.3 s): not degraded")
	}
	at += 400 * time.Millisecond
	at, _, last := feed(r, at, 100, rateWindow-100*time.Millisecond)
	if !last {
		t.Errorf("within a window of the gap: reported well")
	}
	if _, _, last = feed(r, at, 100, time.Second); last {
		t.Errorf("a window after the gap, at full rate: still degraded")
	}
}

// A stall, an unplugged glove or a reconnect is reported as such and
// resets the measure: the samples missing then do not degrade the hand
// afterwards.
func TestAResetForgetsTheGap(t *testing.T) {
	r := newSampleRate(100, 300*time.Millisecond)
	at, _, _ := feed(r, 0, 100, 3*time.Second)
	r.reset()
	if _, any, _ := feed(r, at+2*time.Second, 100, 3*time.Second); any {
		t.Errorf("after a reset, a 2 s gap degraded the hand")
	}
}

// A glove without a rate (a simulation, a replay) is neither judged nor
// measured: no rate is told for it.
func TestNoNominalRateIsNeverDegraded(t *testing.T) {
	r := newSampleRate(0, 300*time.Millisecond)
	if _, any, _ := feed(r, 0, 100, 5*time.Second); any {
		t.Errorf("a glove with no nominal rate was reported degraded")
	}
	if got := r.Measured(); got != 0 {
		t.Errorf("measured %.2f, want none", got)
	}
}

// A glove sending faster than the ring holds over a window is measured
// whole, not cut to what the ring holds.
func TestAFastGloveIsMeasuredWhole(t *testing.T) {
	r := newSampleRate(100, time.Second)
	feed(r, 0, 300, 3*time.Second)
	if got := r.Measured(); math.Abs(got-300) > 3 {
		t.Errorf("at 300/s against 100: measured %.2f", got)
	}
}

// A burst the line delivers at once is no rate: none is told until
// samples have arrived for rateAfter.
func TestABurstIsNoRate(t *testing.T) {
	r := newSampleRate(100, time.Second)
	r.sample(r.base)
	r.sample(r.base.Add(40 * time.Microsecond))
	if got := r.Measured(); got != 0 {
		t.Errorf("two samples 40 us apart: rate %v, want none yet", got)
	}
	feed(r, 10*time.Millisecond, 100, rateAfter)
	if got := r.Measured(); got < 90 || got > 110 {
		t.Errorf("after %v at 100/s: rate %v", rateAfter, got)
	}
}

// TestASilenceShorterThanTheStallTimeDegrades: a glove at its rate that
// falls silent, with a stall time longer than the silence, is judged by
// the silence too: well while the window still holds 80% of its rate
// (0.3 s in), degraded once it does not (0.5 s in), and still degraded
// while the silence lasts; samples at its rate again make it well.
func TestASilenceShorterThanTheStallTimeDegrades(t *testing.T) {
	r := newSampleRate(100, time.Minute)
	at, _, _ := feed(r, 0, 100, 3*time.Second)
	if r.silent(r.base.Add(at + 300*time.Millisecond)) {
		t.Fatalf("0.3 s of silence after 3 s at the rate: degraded (the window still holds 85%%)")
	}
	for _, d := range []time.Duration{500 * time.Millisecond, 2 * time.Second, 5 * time.Second} {
		if !r.silent(r.base.Add(at + d)) {
			t.Fatalf("%v of silence: not degraded (measured %.1f/s)", d, r.Measured())
		}
	}
	if _, _, last := feed(r, at+5*time.Second, 100, 3*time.Second); last {
		t.Errorf("back at the rate for 3 s: still degraded")
	}
	// Not judged before a whole window, nor without a nominal rate.
	early := newSampleRate(100, time.Minute)
	at, _, _ = feed(early, 0, 100, time.Second)
	if early.silent(early.base.Add(at + 500*time.Millisecond)) {
		t.Errorf("judged before a whole window had passed")
	}
	none := newSampleRate(0, time.Minute)
	if none.silent(none.base.Add(10 * time.Second)) {
		t.Errorf("a hand without a nominal rate was judged")
	}
}

// TestTheRateAfterABurstIsTheWindowsSamples: samples a line held back for
// 12 s arriving at once (more than the ring holds at the glove's rate),
// then the glove at its 100/s again: each reading is the samples that
// arrived over the last 2 s divided by 2 s, burst included until it is
// 2 s old, and the glove's 100/s after that (it read 1045.8, 517.1,
// 341.3, 257.2 at 0.5 s steps, the ring's size over the time since the
// burst).
func TestTheRateAfterABurstIsTheWindowsSamples(t *testing.T) {
	r := newSampleRate(100, time.Second)
	at, _, _ := feed(r, 0, 100, 3*time.Second)
	burst := at + 12*time.Second
	const held = 520
	if held <= len(r.arrived) {
		t.Fatalf("the burst (%d) must be more than the ring holds (%d)", held, len(r.arrived))
	}
	for i := range held {
		r.sample(r.base.Add(burst + time.Duration(i)*time.Microsecond))
	}
	if got, want := r.Measured(), held/2.0; math.Abs(got-want) > 0.5 {
		t.Errorf("at the burst: %.1f samples/s, want %.1f (%d over 2 s)", got, want, held)
	}
	// The glove at 100/s again, from 10 ms after the burst.
	next := burst + 10*time.Millisecond
	for _, c := range []struct {
		after time.Duration // since the burst
		want  float64
	}{
		{500 * time.Millisecond, (held + 50) / 2.0},
		{time.Second, (held + 100) / 2.0},
		{1500 * time.Millisecond, (held + 150) / 2.0},
		{1990 * time.Millisecond, (held + 199) / 2.0},
		{2500 * time.Millisecond, 100},
		{5 * time.Second, 100},
	} {
		next, _, _ = feed(r, next, 100, burst+c.after-next+time.Millisecond)
		if got := r.Measured(); math.Abs(got-c.want) > 1 {
			t.Errorf("%v after the burst: %.1f samples/s, want %.1f", c.after, got, c.want)
		}
	}
}

// TestCountingASampleAllocatesNothing: the reader counts every sample; a
// burst more than the ring holds takes no memory either.
func TestCountingASampleAllocatesNothing(t *testing.T) {
	r := newSampleRate(100, time.Second)
	at := time.Duration(0)
	if n := testing.AllocsPerRun(2000, func() {
		at += time.Microsecond
		r.sample(r.base.Add(at))
	}); n != 0 {
		t.Errorf("a sample allocated %v times", n)
	}
}
