package calibrator

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/gloved/gloved/devices"
)

// Hold is what the glove read while the user held a pose.
type Hold struct {
	Samples int
	// Raw is each sensor's median reading in 8-bit counts (Sample.Counts),
	// in the glove's order; Spread
	// the band, in counts, that held the middle 90% of its readings (from
	// the 5th to the 95th percentile).
	Raw, Spread [devices.MaxReadings]float64
}

// The ends of a CyberGlove I/II sensor's 8-bit range: a reading there
// says only that the angle is somewhere beyond. Readings are in 8-bit
// counts (Sample.Counts), so for a CyberGlove III these are 16 and 4064
// of its 12-bit range: its last count at either end is left out too.
const rawMin, rawMax = 1, 254

// saturated returns the sensors (bit i for sensor i) of a glove of
// layout l whose held reading is at an end of the range, where a reading
// there is no angle (l.Saturates).
func (h *Hold) saturated(l *devices.Layout) uint64 {
	var m uint64
	if !l.Saturates {
		return 0
	}
	for i := range l.Sensors {
		if h.Raw[i] <= rawMin || h.Raw[i] >= rawMax {
			m |= 1 << i
		}
	}
	return m
}

// NotStillError rejects a hold during which the hand moved: some sensor's
// middle 90% of readings spread over more than Still counts.
type NotStillError struct {
	Sensor        string
	Spread, Still float64
}

func (e *NotStillError) Error() string {
	return fmt.Sprintf("calibrator: the hand was not held still: %s moved over %.0f counts (90%% of its readings), more than %.0f",
		e.Sensor, e.Spread, e.Still)
}

// StoppedError rejects a hold during which the glove stopped sending: a
// read failed for a while (Err), or too few samples came.
type StoppedError struct {
	Err     error // the transient error a read returned, or nil
	Samples int
}

func (e *StoppedError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("calibrator: the glove stopped sending during the hold (%v)", e.Err)
	}
	return fmt.Sprintf("calibrator: the glove stopped sending during the hold (%d samples, want %d)", e.Samples, minSamples)
}

func (e *StoppedError) Unwrap() error { return e.Err }

// minSamples is the fewest samples a hold may have: a glove streams 100 a
// second, so fewer in a hold means it stopped (or the hold is too short
// to say anything of stillness).
const minSamples = 5

// measure takes the medians of a hold's samples of a glove of layout l,
// rejecting it when the hand moved by more than still counts: a sensor
// that moves a joint did; a control (a button pressed, a joystick
// nudged) or a channel that moves nothing may change meanwhile.
func measure(samples []devices.Sample, l *devices.Layout, still float64) (*Hold, error) {
	n := len(l.Sensors)
	if len(samples) < minSamples {
		return nil, &StoppedError{Samples: len(samples)}
	}
	h := &Hold{Samples: len(samples)}
	v := make([]float64, len(samples))
	worst := -1
	for i := range n {
		for j := range samples {
			v[j] = samples[j].Counts(i)
		}
		slices.Sort(v)
		m := len(v)
		h.Raw[i] = (v[(m-1)/2] + v[m/2]) / 2
		h.Spread[i] = v[int(math.Ceil(0.95*float64(m-1)))] - v[int(0.05*float64(m-1))]
		if len(l.Sensors[i].Joints) > 0 && h.Spread[i] > still && (worst < 0 || h.Spread[i] > h.Spread[worst]) {
			worst = i
		}
	}
	if worst >= 0 {
		return h, &NotStillError{Sensor: l.Sensors[worst].Name, Spread: h.Spread[worst], Still: still}
	}
	return h, nil
}

// recorder reads the glove all the time, so that no stale samples wait in
// the port, and keeps those of the window being recorded.
type recorder struct {
	dev   devices.Device
	n     int
	live  Live // or nil
	clock Clock
	done  chan struct{} // closed when Read failed for good; fatal says why

	mu      sync.Mutex
	from    time.Time // samples from here on are kept, before to, while on
	to      time.Time
	on      bool
	samples []devices.Sample
	fault   error // the first transient error of the window
	fatal   error
}

func startRecorder(dev devices.Device, n int, live Live, clock Clock) *recorder {
	r := &recorder{dev: dev, n: n, live: live, clock: clock, done: make(chan struct{})}
	go r.run()
	return r
}

func (r *recorder) run() {
	defer close(r.done)
	var s devices.Sample
	for {
		err := r.dev.Read(&s)
		now := r.clock.Now()
		r.mu.Lock()
		keep, got := r.on && !now.Before(r.from) && now.Before(r.to), false
		switch {
		case err == nil && s.N != r.n:
			err = fmt.Errorf("calibrator: a sample of %d sensors from a %d-sensor glove", s.N, r.n)
			r.fatal = err
		case err == nil:
			got = true
			if keep {
				r.samples = append(r.samples, s)
			}
		case devices.Transient(err):
			if keep && r.fault == nil {
				r.fault = err
			}
			err = nil
		default:
			r.fatal = err
		}
		r.mu.Unlock()
		if err != nil {
			return
		}
		if got && r.live != nil {
			r.live.Live(&s)
		}
	}
}

// window records the samples that arrive from settle after now until
// settle+hold after it, and the first transient error among them.
func (r *recorder) window(ctx context.Context, settle, hold time.Duration) ([]devices.Sample, error, error) {
	r.mu.Lock()
	now := r.clock.Now()
	r.on, r.from, r.to, r.samples, r.fault = true, now.Add(settle), now.Add(settle+hold), nil, nil
	r.mu.Unlock()
	end := r.clock.After(settle + hold) // at to or after: what came before to is kept
	var err error
	select {
	case <-end:
	case <-ctx.Done():
		err = ctx.Err()
	case <-r.done:
		err = fmt.Errorf("calibrator: reading the glove: %w", r.fatal)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.on = false
	return r.samples, r.fault, err
}
