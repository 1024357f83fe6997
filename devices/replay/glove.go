package replay

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/driver"
	"github.com/gloved/gloved/devices/recording"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/internal/userfile"
)

// Glove is a device that plays a recording through its glove's driver:
// raw serial bytes go through the parser the live driver read them with
// (a CyberGlove III's Parser3, an I/II's Parser), recorded samples are
// taken as they are, so a replay yields the samples the live driver
// yielded, with the times they arrived.
type Glove struct {
	rr       *recording.Reader
	glove    *driver.Driver // the recorded glove's
	parser   devices.Parser // nil for a glove that records its samples
	realTime bool
	// start is when the pass began: the first sample's Read, not the
	// Open (a daemon opens its hands, then loads its scene: a clock begun
	// at the Open had the first samples due at once, in a burst that
	// dropped the frames' 70-130 ms of them).
	start    time.Time
	started  bool
	seq      uint64
	chunkT   time.Duration
	timeline recording.Timeline
	// lastT is the last sample's time as played, period the last positive
	// gap between two samples' times: what PassLength is made of.
	lastT, period time.Duration
	faults        devices.FaultLog
	wrist         [7]float64
	hasWrist      bool
	// badWrists counts the wrist records that make no pose (a position
	// beyond geom.MaxPosition, a zero quaternion), skipped; badWrist
	// says what was wrong with the first.
	badWrists int
	badWrist  error
	badSaid   bool // BadWrist has returned badWrist
	warning   error
	jump      error         // the first jump in the recording's clock
	jumpSaid  bool          // Jump has returned it
	done      bool          // the pass has played to its end (or Close came)
	shut      bool          // the file is closed
	timer     *time.Timer   // the pacing's, made at the first wait
	closed    atomic.Bool   // set by Close, possibly from another goroutine
	stop      chan struct{} // closed by Close: ends a wait
	reading   sync.Mutex    // held by Read
}

var (
	_ devices.Device       = (*Glove)(nil)
	_ devices.Info         = (*Glove)(nil)
	_ devices.FaultCounter = (*Glove)(nil)
)

// Open opens a recording. With realTime, Read paces samples at their
// recorded times; otherwise it returns them as fast as they are read.
func Open(path string, realTime bool) (*Glove, error) {
	rr, err := recording.Open(path)
	if err != nil {
		return nil, err
	}
	g, err := newGlove(rr, realTime)
	if err != nil {
		rr.Close()
		return nil, fmt.Errorf("replay: %s: %w", userfile.Name(path), err)
	}
	return g, nil
}

// New plays a recording read from r.
func New(r io.Reader, realTime bool) (*Glove, error) {
	rr, err := recording.NewReader(r)
	if err == nil {
		var g *Glove
		if g, err = newGlove(rr, realTime); err == nil {
			return g, nil
		}
	}
	return nil, fmt.Errorf("replay: %w", err)
}

func newGlove(rr *recording.Reader, realTime bool) (*Glove, error) {
	g := &Glove{rr: rr, realTime: realTime, start: time.Now(), stop: make(chan struct{})}
	h := rr.Header
	d, err := driver.Lookup(h.Model)
	if err != nil || !d.Records() {
		return nil, fmt.Errorf("header: glove model %q: this gloved reads recordings of %s", h.Model, strings.Join(driver.Select((*driver.Driver).Records), ", "))
	}
	if _, err := d.Layout(h.Sensors); err != nil {
		return nil, fmt.Errorf("header: %w", err)
	}
	g.glove = d
	if d.Parser != nil {
		if g.parser, err = d.Parser(h, &g.faults.Counts); err != nil {
			return nil, fmt.Errorf("header: %w", err)
		}
	}
	return g, nil
}

// Header returns the recording's header.
func (g *Glove) Header() recording.Header { return g.rr.Header }

// GloveInfo describes the recorded glove.
func (g *Glove) GloveInfo() devices.GloveInfo {
	h := g.rr.Header
	return devices.GloveInfo{Model: Name, Sensors: h.Sensors, Right: h.Hand != "left"}
}

// Faults returns the parser's counters over the replayed bytes, as of the
// last Read; any goroutine may call it.
func (g *Glove) Faults() devices.Faults { return g.faults.Load() }

// Wrist returns the latest wrist pose recorded at or before the last
// sample returned.
func (g *Glove) Wrist() ([7]float64, bool) { return g.wrist, g.hasWrist }

// Warning returns why the replay ended early (an error wrapping
// recording.ErrCorrupt that names the damaged record's byte offset), or
// nil for a clean end.
func (g *Glove) Warning() error { return g.warning }

// Jump returns, once, the first jump in the recording's clock (an error
// wrapping recording.ErrJump that names the record's byte offset), which
// the replay played on through without waiting; nil if there is none (as
// of the last Read).
func (g *Glove) Jump() error {
	if g.jump == nil || g.jumpSaid {
		return nil
	}
	g.jumpSaid = true
	return g.jump
}

// BadWrist returns, once, what was wrong with the first recorded wrist
// pose that makes no pose (its position beyond geom.MaxPosition, its
// quaternion zero), with how many such poses there were, as of the last
// Read: they are skipped, the wrist kept as it was. nil if there is none
// (or it was returned).
func (g *Glove) BadWrist() (first error, n int) {
	if g.badWrist == nil || g.badSaid {
		return nil, g.badWrists
	}
	g.badSaid = true
	return g.badWrist, g.badWrists
}

// Read returns the next recorded sample, ErrEnd after the last good one,
// or a glove error tail that was recorded (as the live driver would). In
// real time it waits for the sample's time, or until Close.
func (g *Glove) Read(s *devices.Sample) error {
	g.reading.Lock()
	defer g.release()
	for {
		if g.closed.Load() {
			g.finish()
			return devices.ErrClosed
		}
		if g.done {
			return devices.ErrEnd
		}
		if g.parser != nil {
			switch ev, err := g.parser.Next(s); ev {
			case devices.GotSample:
				s.Time = g.chunkT
				return g.deliver(s)
			case devices.GotError:
				return gloveError(err)
			}
		}
		rec, err := g.rr.Next()
		if err != nil {
			if err != io.EOF {
				g.warning = err
			}
			g.done = true // the file stays open: Rewind plays it again
			return devices.ErrEnd
		}
		g.follow(&rec)
		if got, err := g.take(rec, s); err != nil {
			g.done, g.warning = true, fmt.Errorf("record at byte %d: %w", rec.Offset, err)
			return devices.ErrEnd
		} else if got {
			return g.deliver(s)
		}
	}
}

// follow puts rec on the replay's timeline, which takes out the jumps in
// the recording's clock, and keeps the first jump. A wrist pose's time is
// left as it is: it is taken up when read, never waited for, and a
// recorder may stamp it 0 after records of later times.
func (g *Glove) follow(rec *recording.Record) {
	if rec.Kind == recording.KindWrist {
		return
	}
	var jump error
	if rec.Time, jump = g.timeline.Next(*rec); jump != nil && g.jump == nil {
		g.jump = jump
	}
}

// gloveError is what Read returns for an error tail the glove sent, as
// the live driver does.
func gloveError(err error) error {
	var ge *devices.GloveError
	if errors.As(err, &ge) && len(ge.Codes) > 0 && ge.Codes[0] == 'g' {
		return fmt.Errorf("%w (%v)", devices.ErrNoGlove, err)
	}
	return err
}

// take plays one record: bytes to the parser, a wrist pose kept, a
// recorded sample decoded into s (got).
func (g *Glove) take(rec recording.Record, s *devices.Sample) (got bool, err error) {
	switch rec.Kind {
	case recording.KindRaw, recording.KindReset:
		if g.parser == nil {
			return false, fmt.Errorf("%w: port bytes in a recording of a %s, which records samples", recording.ErrCorrupt, g.glove.Name)
		}
		if rec.Kind == recording.KindReset {
			g.parser.Reset()
			return false, nil
		}
		g.chunkT = rec.Time
		g.parser.Feed(rec.Payload)
	case recording.KindWrist:
		pose, err := recording.DecodeWrist(rec.Payload)
		if err != nil {
			return false, err
		}
		if err := geom.PoseError(geom.PoseQuat(pose)); err != nil {
			if g.badWrists++; g.badWrist == nil {
				g.badWrist = fmt.Errorf("the wrist pose at byte %d: %w", rec.Offset, err)
			}
			return false, nil
		}
		g.wrist, g.hasWrist = pose, true
	case recording.KindSample:
		if err := recording.DecodeSample(rec.Payload, s); err != nil {
			return false, err
		}
		if err := g.fits(s); err != nil {
			return false, err
		}
		if !g.inRange(s) {
			return false, nil
		}
		s.Time, s.GloveTime = rec.Time, 0
		return true, nil
	}
	return false, nil
}

// fits reports a recorded sample that is not of the recorded glove's
// layout.
func (g *Glove) fits(s *devices.Sample) error {
	l, _ := g.glove.Layout(g.rr.Header.Sensors) // checked when opened
	if s.N != len(l.Sensors) || s.NAngles != len(l.Angles) {
		return fmt.Errorf("%w: a sample of %d sensors and %d angles in a recording of a %s's %s (%d and %d)",
			recording.ErrCorrupt, s.N, s.NAngles, g.glove.Name, l.Name, len(l.Sensors), len(l.Angles))
	}
	return nil
}

// inRange reports whether every reading of a recorded sample is within
// its resolution: the layout's bits, or the sample's own if fewer. A
// sample with a reading beyond it is damaged, as a serial record with
// one is: counted as out of range and as a bad frame, and never used.
func (g *Glove) inRange(s *devices.Sample) bool {
	l, _ := g.glove.Layout(g.rr.Header.Sensors) // checked when opened
	bits := l.Bits
	if s.Bits < bits {
		bits = s.Bits
	}
	top := uint16(1)<<bits - 1 // bits is 1 to 16: 1<<16 - 1 wraps to 65535
	for _, v := range s.Sensors() {
		if v > top {
			g.faults.Counts.OutOfRange++
			g.faults.Counts.BadFrames++
			return false
		}
	}
	return true
}

// deliver numbers s and, in real time, waits for its time; ErrClosed if
// Close came first.
func (g *Glove) deliver(s *devices.Sample) error {
	if gap := s.Time - g.lastT; g.seq > 0 && gap > 0 {
		g.period = gap
	}
	g.lastT = s.Time
	if !g.started {
		g.start, g.started = time.Now(), true
	}
	if g.realTime {
		if wait := time.Until(g.start.Add(s.Time)); wait > 0 && !g.wait(wait) {
			g.finish()
			return devices.ErrClosed
		}
	}
	s.Seq = g.seq
	g.seq++
	return nil
}

// MinPass is the shortest a pass of a looping replay lasts: a recording
// of one sample, or of samples that share one time, plays at most one
// pass every MinPass instead of spinning through passes of no duration.
const MinPass = 10 * time.Millisecond

// PassLength is how long this pass of the recording lasts, as played so
// far: up to its last sample's time and one sample period after it (the
// last gap between two samples' times; MinPass if no two differ), and at
// least MinPass. A looping replay's next pass starts that long after
// this one started (Again), and its sample times go on that much later.
func (g *Glove) PassLength() time.Duration {
	period := g.period
	if period == 0 {
		period = MinPass
	}
	return max(g.lastT+period, MinPass)
}

// Rewind starts the recording again from its first record, for its
// next pass, at the same speed. It reads the file it opened again, not
// the path (recording.Reader.Rewind): deleting the path, or putting
// another recording there, changes nothing until the path is opened
// again. In real time the pass starts PassLength after this one started,
// or at once if that time has passed (a pass that ran late is not caught
// up on), so a looping replay keeps the recording's pace from pass to
// pass. Its samples are numbered from 0 again; the fault counts, the
// first jump and the first damaged wrist pose are the whole replay's.
func (g *Glove) Rewind() error {
	g.reading.Lock()
	defer g.release()
	if g.closed.Load() || g.shut {
		g.finish()
		return devices.ErrClosed
	}
	if err := g.rr.Rewind(); err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	if g.parser != nil {
		p, err := g.glove.Parser(g.rr.Header, &g.faults.Counts)
		if err != nil {
			return fmt.Errorf("replay: header: %w", err)
		}
		g.parser = p
	}
	next := g.start.Add(g.PassLength())
	if now := time.Now(); now.After(next) {
		next = now
	}
	g.start = next
	g.seq, g.chunkT, g.lastT, g.period = 0, 0, 0, 0
	g.timeline = recording.Timeline{}
	g.warning, g.done = nil, false
	return nil
}

// wait waits d, or until Close (false).
func (g *Glove) wait(d time.Duration) bool {
	if g.timer == nil {
		g.timer = time.NewTimer(d)
	} else {
		g.timer.Reset(d)
	}
	select {
	case <-g.timer.C:
		return true
	case <-g.stop:
		g.timer.Stop()
		return false
	}
}

// Close stops the replay: Read then returns ErrClosed, at once even while
// it waits for a sample's time. It may be called from another goroutine
// than Read's: the file is closed here if no Read is running, else by that
// Read as it returns.
func (g *Glove) Close() error {
	if !g.closed.Swap(true) {
		close(g.stop)
	}
	if g.reading.TryLock() {
		g.finish()
		g.reading.Unlock()
	}
	return nil
}

// release publishes the fault counts and lets reading go; a Close that
// came while it was held, and so could not close the file, is done here
// (Close sets closed before it tries the lock, and release unlocks before
// it looks at closed: one of them closes the file).
func (g *Glove) release() {
	g.faults.Publish()
	g.reading.Unlock()
	if g.closed.Load() && g.reading.TryLock() {
		g.finish()
		g.reading.Unlock()
	}
}

// finish closes the file once (called with reading held).
func (g *Glove) finish() {
	g.done = true
	if !g.shut {
		g.shut = true
		g.rr.Close()
	}
}

// NoSamplesError is a recording that holds no sample to run: a header
// alone (the session was stopped before the glove sent one), bytes that
// parse to none, or its samples all damaged, before the damage it ends
// at, if any.
type NoSamplesError struct {
	Path   string
	Damage error // why the recording ended early, or nil
	// Damaged counts the samples it holds (before its damage) that were
	// all refused: a reading beyond the glove's resolution, or a record
	// the glove's framing rejects (devices.Faults.BadFrames).
	Damaged uint64
	// Skipped counts the bytes of glove data that made no record at all
	// (devices.Faults.SkippedBytes), and Model is the glove the header
	// names: bytes of another glove, or of a wrong baud rate.
	Skipped uint64
	Model   string
}

// skippedForeign is how many skipped bytes make a recording's bytes
// another glove's: more than a unit's echo of a command (a III's 1S) and
// a record's worth of line noise.
const skippedForeign = 64

func (e *NoSamplesError) Error() string {
	const again = "nothing to run; record the session again"
	switch {
	case e.Skipped >= skippedForeign && e.Damaged == 0 && e.Damage == nil:
		return fmt.Sprintf("%s holds %d bytes of glove data but no record of its glove (%s) in them (bytes of another glove, or at another baud rate?): %s", e.Path, e.Skipped, e.Model, again)
	case e.Damaged > 0 && e.Damage != nil:
		return fmt.Sprintf("%s holds %d samples before its damage (%v), all damaged (a reading beyond the glove's resolution, or a broken record): %s", e.Path, e.Damaged, e.Damage, again)
	case e.Damaged > 0:
		return fmt.Sprintf("%s holds %d samples, all damaged (a reading beyond the glove's resolution, or a broken record): %s", e.Path, e.Damaged, again)
	case e.Damage != nil:
		return fmt.Sprintf("%s holds no samples before its damage (%v): %s", e.Path, e.Damage, again)
	}
	return fmt.Sprintf("%s holds no samples (it was stopped before the glove sent one): %s", e.Path, again)
}

// HoldsSamples reads the recording at path up to its first sample, and
// returns a *NoSamplesError if it has none: what every command that runs
// a recording, and a daemon's replay hand (looping or not), refuses.
func HoldsSamples(path string) error {
	g, err := Open(path, false)
	if err != nil {
		return err
	}
	defer g.Close()
	var s devices.Sample
	for {
		switch err := g.Read(&s); {
		case err == nil:
			return nil
		case errors.Is(err, devices.ErrEnd):
			f := g.Faults()
			return &NoSamplesError{Path: path, Damage: g.Warning(), Damaged: f.BadFrames, Skipped: f.SkippedBytes, Model: g.Header().Model}
		case !devices.Transient(err):
			return err
		}
	}
}

// ReadSamples reads every sample of the recording at path, in order. A
// damaged recording gives the samples before the damage and, as warning,
// what was wrong.
func ReadSamples(path string) (samples []devices.Sample, warning error, err error) {
	g, err := Open(path, false)
	if err != nil {
		return nil, nil, err
	}
	defer g.Close()
	var s devices.Sample
	for {
		err := g.Read(&s)
		switch {
		case err == nil:
			samples = append(samples, s)
		case errors.Is(err, devices.ErrEnd):
			return samples, g.Warning(), nil
		case !devices.Transient(err):
			return samples, g.Warning(), err
		}
	}
}
