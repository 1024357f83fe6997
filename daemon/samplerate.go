package daemon

import (
	"math"
	"sync/atomic"
	"time"
)

// The rate a glove's samples arrive at is measured over rateWindow. A
// hand is degraded once a whole window since its glove (re)opened falls
// below degradedBelow of the glove's rate, or two samples arrive further
// apart than the stall time without the hand having been reported
// stalled; it is well again once a window without such a gap reaches
// wellAt of the rate. The two thresholds keep it from flickering about
// one; both are well above the two thirds a second reader of the port
// used to leave it.
//
// A glove on a line that sets no rate (an OpenGloves board streams at its
// firmware's, a tracker at its sender's) is judged against its own
// steady rate: the highest that two whole windows in a row, end to end
// and without a gap, both reached since it opened. A burst after a pause
// (samples the line held back, arriving at once) fills one window from
// the one before it, so the lower of the two never counts it.
const (
	rateWindow    = 2 * time.Second
	degradedBelow = 0.8
	wellAt        = 0.9
	// rateAfter is how long samples must have arrived before a rate is
	// told: over less, a burst the line delivered at once would read as
	// thousands a second.
	rateAfter = rateWindow / 2
)

// sampleRate measures the arrival of one hand's samples: the reader's
// goroutine feeds it; Measured may be read from any goroutine.
type sampleRate struct {
	stall   time.Duration // a gap this long is a loss
	base    time.Time     // arrivals are kept as monotonic times since base
	arrived []arrival     // a ring of arrivals: arrived[(head-n)%len .. head)
	head    int
	n       int
	count   int   // the samples the n arrivals kept hold
	merge   int64 // samples within this of an arrival's first are counted in it
	since   int64 // when measuring began (the first arrival since reset)
	last    int64 // the last arrival
	gapAt   int64 // the last gap longer than stall ended here; -1: none
	started bool
	bad     bool

	// math.Float64bits of the samples a second the glove was set to send
	// (0: not judged) and of those that arrived over the window.
	nominal, measured atomic.Uint64

	// own: the glove is measured against its steady rate (nominal, once
	// known); winAt is when the window being taken for it began, prevWin
	// the rate of the one before (0: none, or it held a gap).
	own     bool
	winAt   int64
	prevWin float64
}

// arrival is when samples arrived, ns since base: the first of them at,
// and the rest within the ring's merge time of it.
type arrival struct {
	at int64
	n  int
}

// ownRateRing is the samples a second the ring is sized for when the
// glove sets no rate: a tracker's are bounded at 200.
const ownRateRing = 250

// newSampleRate measures against nominal samples a second (0: nothing is
// measured nor judged, as for a simulation or a replay).
func newSampleRate(nominal float64, stall time.Duration) *sampleRate {
	r := &sampleRate{stall: stall, base: time.Now()}
	r.restart(nominal, nominal > 0)
	return r
}

// restart measures afresh against a glove (re)opened at nominal samples a
// second, or, with nominal 0 on a line (live), against the steady rate it
// will reach: the ring holds twice a window's samples at that rate, each
// apart. Samples closer together than a window over the ring's size (a
// glove faster still, a burst the line held back) are counted in one
// arrival, so the ring never holds more than a window: every sample of
// the window is counted, none is early or late by more than that time
// (under 4 ms at 100 samples a second).
func (r *sampleRate) restart(nominal float64, live bool) {
	r.own = live && nominal <= 0
	ring := nominal
	if r.own {
		ring = ownRateRing
	}
	size := 64
	for float64(size) < 2*ring*rateWindow.Seconds() && size < 1<<16 {
		size *= 2
	}
	if size != len(r.arrived) {
		r.arrived, r.head = make([]arrival, size), 0
	}
	r.merge = int64(rateWindow) / int64(size-1)
	r.nominal.Store(math.Float64bits(max(nominal, 0)))
	r.reset()
}

// reset starts measuring afresh: the glove reopened, or a stall, an
// unplugged glove or a reconnect was reported, which says why samples
// were missing.
func (r *sampleRate) reset() {
	r.n, r.count, r.started, r.bad, r.gapAt, r.prevWin = 0, 0, false, false, -1, 0
	r.measured.Store(0)
}

// sample counts a sample arriving at now and says whether the hand is
// degraded.
func (r *sampleRate) sample(now time.Time) bool {
	if r.Nominal() <= 0 && !r.own {
		return false // not a glove on a line: neither measured nor judged
	}
	t := int64(now.Sub(r.base))
	if !r.started {
		r.since, r.last, r.started, r.winAt = t, t, true, t
	}
	if gap := t - r.last; gap > int64(r.stall) {
		r.gapAt = t
	}
	r.last = t
	r.arrive(t)
	r.measure(t)
	gap := r.gapAt >= 0 && r.gapAt > t-int64(rateWindow)
	full := t-r.since >= int64(rateWindow)
	rate := r.Measured()
	if r.own && t-r.winAt >= int64(rateWindow) {
		r.learn(rate, gap, t)
	}
	nominal := r.Nominal() // 0 for an own rate not yet known: only a gap is judged
	switch {
	case gap || (full && rate < degradedBelow*nominal):
		r.bad = true
	case r.bad && full && rate >= wellAt*nominal:
		r.bad = false
	}
	return r.bad
}

// learn takes the window that ended at t, of rate (gap: it held one), for
// the steady rate of a glove that sets none.
func (r *sampleRate) learn(rate float64, gap bool, t int64) {
	if gap {
		rate = 0
	}
	if steady := min(r.prevWin, rate); steady > r.Nominal() {
		r.nominal.Store(math.Float64bits(steady))
	}
	r.prevWin, r.winAt = rate, t
}

// silent judges the hand at now with no sample since the last: as a
// silence shorter than the stall time goes on, the window's rate falls,
// and the hand is degraded once it is below degradedBelow (a glove set to
// a long frame.stall_ms said streaming through seconds of silence). It
// says whether the hand is degraded; only samples make it well again.
func (r *sampleRate) silent(now time.Time) bool {
	if r.Nominal() <= 0 || !r.started {
		return r.bad
	}
	t := int64(now.Sub(r.base))
	r.measure(t)
	if t-r.since >= int64(rateWindow) && r.Measured() < degradedBelow*r.Nominal() {
		r.bad = true
	}
	return r.bad
}

// arrive keeps a sample arriving at t: in the newest arrival if it is
// within the merge time of that one's first sample (or the ring is full,
// which the merge time leaves to arrivals out of order), else in a new one.
func (r *sampleRate) arrive(t int64) {
	size := len(r.arrived)
	if r.n > 0 {
		newest := &r.arrived[(r.head-1+size)%size]
		if t-newest.at < r.merge || r.n == size {
			newest.n++
			r.count++
			return
		}
	}
	r.arrived[r.head] = arrival{at: t, n: 1}
	r.head = (r.head + 1) % size
	r.n++
	r.count++
}

// measure drops the arrivals before the window ending at t and stores the
// rate over it: the samples that arrived within the window over its
// length, or over the time since measuring began if that is shorter (once
// it is rateAfter), however many arrived at once.
func (r *sampleRate) measure(t int64) {
	w := int64(rateWindow)
	size := len(r.arrived)
	for r.n > 0 {
		oldest := r.arrived[(r.head-r.n+size)%size]
		if oldest.at > t-w {
			break
		}
		r.n--
		r.count -= oldest.n
	}
	if span := min(w, t-r.since); span >= int64(rateAfter) {
		r.measured.Store(math.Float64bits(float64(r.count) / time.Duration(span).Seconds()))
	}
}

// Nominal returns the samples a second the hand is judged against: those
// the glove was set to send, or the steady rate of one that sets none (0:
// not judged, or not yet known).
func (r *sampleRate) Nominal() float64 { return math.Float64frombits(r.nominal.Load()) }

// Measured returns the samples a second that arrived over the last window
// (or since measuring began, if that is shorter); 0 until samples have
// arrived for rateAfter.
func (r *sampleRate) Measured() float64 { return math.Float64frombits(r.measured.Load()) }
