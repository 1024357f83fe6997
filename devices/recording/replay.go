package recording

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/cyberglove"
)

// Replay is a device that plays a recording: raw serial bytes go through
// the same parser the live driver used (a CyberGlove III's Parser3, an
// I/II's Parser), so a replay yields the samples the live driver yielded,
// with the times they arrived.
type Replay struct {
	rr       *Reader
	parser   devices.Parser
	realTime bool
	start    time.Time
	seq      uint64
	chunkT   time.Duration
	faults   devices.FaultLog
	wrist    [7]float64
	hasWrist bool
	warning  error
	done     bool
	closed   atomic.Bool // set by Close, possibly from another goroutine
	reading  sync.Mutex  // held by Read
}

var (
	_ devices.Device       = (*Replay)(nil)
	_ devices.Info         = (*Replay)(nil)
	_ devices.FaultCounter = (*Replay)(nil)
)

// OpenReplay opens a recording. With realTime, Read paces samples at their
// recorded times; otherwise it returns them as fast as they are read.
func OpenReplay(path string, realTime bool) (*Replay, error) {
	rr, err := Open(path)
	if err != nil {
		return nil, err
	}
	return newReplay(rr, realTime), nil
}

// NewReplay plays a recording read from r.
func NewReplay(r io.Reader, realTime bool) (*Replay, error) {
	rr, err := NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("recording: %w", err)
	}
	return newReplay(rr, realTime), nil
}

func newReplay(rr *Reader, realTime bool) *Replay {
	h := rr.Header
	r := &Replay{rr: rr, realTime: realTime, start: time.Now()}
	if h.Model == string(cyberglove.ModelIII) {
		r.parser = cyberglove.NewParser3(h.Sensors, &r.faults.Counts)
	} else {
		r.parser = cyberglove.NewParser(h.RecordFormat(), h.Mode != "poll", &r.faults.Counts)
	}
	return r
}

// Header returns the recording's header.
func (r *Replay) Header() Header { return r.rr.Header }

// GloveInfo describes the recorded glove.
func (r *Replay) GloveInfo() devices.GloveInfo {
	h := r.rr.Header
	return devices.GloveInfo{Model: "replay", Sensors: h.Sensors, Right: h.Hand != "left"}
}

// Faults returns the parser's counters over the replayed bytes, as of the
// last Read; any goroutine may call it.
func (r *Replay) Faults() devices.Faults { return r.faults.Load() }

// Wrist returns the latest wrist pose recorded at or before the last
// sample returned.
func (r *Replay) Wrist() ([7]float64, bool) { return r.wrist, r.hasWrist }

// Warning returns why the replay ended early (an error wrapping ErrCorrupt
// that names the damaged record's byte offset), or nil for a clean end.
func (r *Replay) Warning() error { return r.warning }

// Read returns the next recorded sample, ErrEnd after the last good one,
// or a glove error tail that was recorded (as the live driver would).
func (r *Replay) Read(s *devices.Sample) error {
	r.reading.Lock()
	defer r.reading.Unlock()
	defer r.faults.Publish()
	for {
		if r.closed.Load() {
			r.finish()
			return devices.ErrClosed
		}
		if r.done {
			return devices.ErrEnd
		}
		ev, err := r.parser.Next(s)
		switch ev {
		case devices.GotSample:
			s.Time = r.chunkT
			return r.deliver(s)
		case devices.GotError:
			var ge *devices.GloveError
			if errors.As(err, &ge) && len(ge.Codes) > 0 && ge.Codes[0] == 'g' {
				return fmt.Errorf("%w (%v)", devices.ErrNoGlove, err)
			}
			return err
		}
		rec, err := r.rr.Next()
		if err != nil {
			if err != io.EOF {
				r.warning = err
			}
			r.finish()
			return devices.ErrEnd
		}
		switch rec.Kind {
		case KindRaw:
			r.chunkT = rec.Time
			r.parser.Feed(rec.Payload)
		case KindReset:
			r.parser.Reset()
		case KindWrist:
			pose, err := DecodeWrist(rec.Payload)
			if err != nil {
				r.done, r.warning = true, fmt.Errorf("record at byte %d: %w", rec.Offset, err)
				return devices.ErrEnd
			}
			r.wrist, r.hasWrist = pose, true
		case KindSample:
			if err := DecodeSample(rec.Payload, s); err != nil {
				r.done, r.warning = true, fmt.Errorf("record at byte %d: %w", rec.Offset, err)
				return devices.ErrEnd
			}
			s.Time, s.GloveTime = rec.Time, 0
			return r.deliver(s)
		}
	}
}

func (r *Replay) deliver(s *devices.Sample) error {
	s.Seq = r.seq
	r.seq++
	if r.realTime {
		if wait := time.Until(r.start.Add(s.Time)); wait > 0 {
			time.Sleep(wait)
		}
	}
	return nil
}

// Close stops the replay: Read then returns ErrClosed. It may be called
// from another goroutine than Read's: the file is closed here if no Read
// is running, else by that Read as it returns.
func (r *Replay) Close() error {
	r.closed.Store(true)
	if r.reading.TryLock() {
		r.finish()
		r.reading.Unlock()
	}
	return nil
}

// finish closes the file once (called with reading held).
func (r *Replay) finish() {
	if !r.done {
		r.done = true
		r.rr.Close()
	}
}

// ReadSamples reads every sample of the recording at path, in order. A
// damaged recording gives the samples before the damage and, as warning,
// what was wrong.
func ReadSamples(path string) (samples []devices.Sample, warning error, err error) {
	r, err := OpenReplay(path, false)
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	var s devices.Sample
	for {
		err := r.Read(&s)
		switch {
		case err == nil:
			samples = append(samples, s)
		case errors.Is(err, devices.ErrEnd):
			return samples, r.Warning(), nil
		case !devices.Transient(err):
			return samples, r.Warning(), err
		}
	}
}
