package devices

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// Replay is a device that plays a recording: raw serial bytes go through
// the same Parser the live driver uses, so a replay yields the samples the
// live driver yielded, with the times they arrived.
type Replay struct {
	rr       *RecordingReader
	parser   *Parser
	realTime bool
	start    time.Time
	seq      uint64
	chunkT   time.Duration
	faults   Faults
	wrist    [7]float64
	hasWrist bool
	warning  error
	done     bool
	closed   atomic.Bool // set by Close, possibly from another goroutine
	reading  sync.Mutex  // held by Read
}

var (
	_ Device       = (*Replay)(nil)
	_ Info         = (*Replay)(nil)
	_ FaultCounter = (*Replay)(nil)
)

// OpenReplay opens a recording. With realTime, Read paces samples at their
// recorded times; otherwise it returns them as fast as they are read.
func OpenReplay(path string, realTime bool) (*Replay, error) {
	rr, err := OpenRecording(path)
	if err != nil {
		return nil, err
	}
	return newReplay(rr, realTime), nil
}

// NewReplay plays a recording read from r.
func NewReplay(r io.Reader, realTime bool) (*Replay, error) {
	rr, err := NewRecordingReader(r)
	if err != nil {
		return nil, fmt.Errorf("devices: %w", err)
	}
	return newReplay(rr, realTime), nil
}

func newReplay(rr *RecordingReader, realTime bool) *Replay {
	h := rr.Header
	r := &Replay{rr: rr, realTime: realTime, start: time.Now()}
	r.parser = NewParser(h.RecordFormat(), h.Mode != "poll", &r.faults)
	return r
}

// Header returns the recording's header.
func (r *Replay) Header() RecordingHeader { return r.rr.Header }

// GloveInfo describes the recorded glove.
func (r *Replay) GloveInfo() GloveInfo {
	h := r.rr.Header
	return GloveInfo{Model: "replay", Sensors: h.Sensors, Right: h.Hand != "left"}
}

// Faults returns the parser's counters over the replayed bytes.
func (r *Replay) Faults() Faults { return r.faults }

// Wrist returns the latest wrist pose recorded at or before the last
// sample returned.
func (r *Replay) Wrist() ([7]float64, bool) { return r.wrist, r.hasWrist }

// Warning returns why the replay ended early (an error wrapping ErrCorrupt
// that names the damaged record's byte offset), or nil for a clean end.
func (r *Replay) Warning() error { return r.warning }

// Read returns the next recorded sample, ErrEnd after the last good one,
// or a glove error tail that was recorded (as the live driver would).
func (r *Replay) Read(s *Sample) error {
	r.reading.Lock()
	defer r.reading.Unlock()
	for {
		if r.closed.Load() {
			r.finish()
			return ErrClosed
		}
		if r.done {
			return ErrEnd
		}
		ev, err := r.parser.Next(s)
		switch ev {
		case GotSample:
			s.Time = r.chunkT
			return r.deliver(s)
		case GotError:
			var ge *GloveError
			if errors.As(err, &ge) && len(ge.Codes) > 0 && ge.Codes[0] == 'g' {
				return fmt.Errorf("%w (%v)", ErrNoGlove, err)
			}
			return err
		}
		rec, err := r.rr.Next()
		if err != nil {
			if err != io.EOF {
				r.warning = err
			}
			r.finish()
			return ErrEnd
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
				return ErrEnd
			}
			r.wrist, r.hasWrist = pose, true
		case KindSample:
			if err := DecodeSample(rec.Payload, s); err != nil {
				r.done, r.warning = true, fmt.Errorf("record at byte %d: %w", rec.Offset, err)
				return ErrEnd
			}
			s.Time, s.GloveTime = rec.Time, 0
			return r.deliver(s)
		}
	}
}

func (r *Replay) deliver(s *Sample) error {
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
