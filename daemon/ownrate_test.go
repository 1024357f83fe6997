package daemon

import (
	"math"
	"testing"
	"time"
)

// ownRate is a sampleRate for a glove on a line that sets no rate (an
// OpenGloves board, a tracker).
func ownRate(stall time.Duration) *sampleRate {
	r := newSampleRate(0, stall)
	r.restart(0, true)
	return r
}

// TestAGloveWithoutARateIsJudgedByItsOwnSteadyRate: a glove that sets no
// rate is measured from its first samples, takes the rate two whole
// windows in a row reached as its nominal one, and a third of its
// samples lost is then degraded, as for a glove set to that rate.
func TestAGloveWithoutARateIsJudgedByItsOwnSteadyRate(t *testing.T) {
	r := ownRate(time.Second)
	at, any, _ := feed(r, 0, 100, 5*time.Second)
	if any {
		t.Errorf("a steady glove was reported degraded while its rate was learnt")
	}
	if got := r.Nominal(); math.Abs(got-100) > 1.5 {
		t.Fatalf("nominal %.2f after 5 s at 100/s: want 100", got)
	}
	if got := r.Measured(); math.Abs(got-100) > 1.5 {
		t.Errorf("measured %.2f: want 100", got)
	}
	at, _, last := feed(r, at, 66, 3*time.Second)
	if !last {
		t.Errorf("at 66 of its steady 100/s for 3 s: not degraded")
	}
	if _, _, last = feed(r, at, 100, 3*time.Second); last {
		t.Errorf("back at 100/s for 3 s: still degraded")
	}
	// The steady rate is kept across a reset (a stall: the same glove),
	// and learnt afresh by a restart (the glove reopened).
	r.reset()
	if r.Nominal() == 0 {
		t.Errorf("a reset forgot the steady rate")
	}
	r.restart(0, true)
	if r.Nominal() != 0 {
		t.Errorf("a restart kept the steady rate %.2f", r.Nominal())
	}
}

// TestABurstAfterAPauseIsNoSteadyRate: samples a line held back for half
// a second (shorter than the stall time) arriving at once swell one
// window; the steady rate, the lower of two windows in a row, stays the
// glove's, so its rate afterwards is not judged a loss.
func TestABurstAfterAPauseIsNoSteadyRate(t *testing.T) {
	r := ownRate(time.Second)
	// Windows are taken from sample to sample, 2 s each: the pause ends
	// the second (its first sample after it ends the window), and the
	// burst swells the third by about 50 samples (to some 122/s).
	at, _, _ := feed(r, 0, 100, 3750*time.Millisecond)
	// 0.5 s held back, then its 50 samples within 50 ms.
	at, _, _ = feed(r, at+500*time.Millisecond, 1000, 50*time.Millisecond)
	at, _, _ = feed(r, at, 100, 6*time.Second)
	if got := r.Nominal(); got > 105 {
		t.Errorf("nominal %.2f after a burst: want the glove's 100", got)
	}
	if _, any, _ := feed(r, at, 100, 4*time.Second); any {
		t.Errorf("steady at 100/s after the burst: reported degraded")
	}
}

// TestAGloveNotOnALineIsNeverJudged: a simulation or a replay (no rate,
// not on a line) is neither measured nor judged.
func TestAGloveNotOnALineIsNeverJudged(t *testing.T) {
	r := newSampleRate(0, time.Second)
	r.restart(0, false)
	if _, any, _ := feed(r, 0, 100, 6*time.Second); any || r.Measured() != 0 || r.Nominal() != 0 {
		t.Errorf("measured %.2f, nominal %.2f, degraded %v: want none", r.Measured(), r.Nominal(), any)
	}
}
