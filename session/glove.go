package session

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/gloved/gloved/devices"
	_ "github.com/gloved/gloved/devices/all" // every shipped glove's driver
	"github.com/gloved/gloved/devices/driver"
	"github.com/gloved/gloved/devices/recording"
	"github.com/gloved/gloved/devices/replay"
	"github.com/gloved/gloved/devices/serialport"
	"github.com/gloved/gloved/internal/userfile"

	// The hand trackers read bones with the hand model, whose own tests
	// replay recordings (devices/all): linked here, not in devices/all.
	_ "github.com/gloved/gloved/devices/tracker"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
)

// Glove is an open glove: the device, what it is, the calibration for its
// readings, the wrist pose to use, and the recording it is written to.
// Read and Wrist belong to one goroutine; Close may come from another.
type Glove struct {
	Spec Spec
	Info devices.GloveInfo
	Cal  *handmodel.Calibration

	drv    *driver.Driver
	mu     sync.Mutex
	dev    devices.Device
	replay *replay.Glove // the device, when playing a recording
	rec    *recording.Recorder
	recErr error
	// recPath is where the recording's file was when it closed.
	recPath string

	wrist      geom.Transform
	fixedWrist bool

	// A looping replay's times go on from pass to pass: each pass's sample
	// times are shifted by timeOffset, the passes' lengths before it
	// (replay.Glove.PassLength).
	timeOffset time.Duration
}

// DeviceError is a glove that did not open: absent, switched off, not
// answering. Unlike the other errors of OpenGlove it may go away by itself,
// so a caller may retry.
type DeviceError struct{ Err error }

func (e *DeviceError) Error() string { return e.Err.Error() }
func (e *DeviceError) Unwrap() error { return e.Err }

// OpenGlove opens the glove spec names, loads its calibration and starts
// its recording, if it has one. Relative paths are the caller's to resolve.
func OpenGlove(spec Spec) (*Glove, error) {
	if err := spec.Normalize(); err != nil {
		return nil, err
	}
	d, err := spec.Driver()
	if err != nil {
		return nil, err
	}
	g := &Glove{Spec: spec, drv: d, wrist: geom.Identity()}
	c := spec.config()
	c.Tap = g.tap
	opened, err := d.Open(c)
	if err != nil {
		// A port another process holds stays held: retrying would hide
		// the one thing to do (stop it, or choose another port).
		if d.Serial && !errors.Is(err, serialport.ErrInUse) {
			return nil, &DeviceError{Err: err}
		}
		return nil, err
	}
	g.dev, g.Info = opened.Device, opened.Info
	g.replay, _ = opened.Device.(*replay.Glove)
	if g.Cal, err = chooseCalibration(spec.Calibration, stored(g.replay, spec.Recording), opened.Header); err != nil {
		g.dev.Close()
		return nil, err
	}
	if spec.Wrist != nil {
		g.wrist, g.fixedWrist = mustPose(spec.Wrist), true
	}
	if spec.Recording != "" && !d.Replays {
		// A recording that cannot be written (a full disk, a quota)
		// never stops the glove: RecordingFailed says why, as it does
		// for one that stops later.
		if err := g.startRecording(opened.Header); err != nil {
			g.recErr = fmt.Errorf("recording %s not started: %w", userfile.Name(spec.Recording), err)
		}
	}
	return g, nil
}

// startRecording creates the session's recording; from then on the raw
// serial bytes (or, for the simulation, the samples) go into it.
func (g *Glove) startRecording(h recording.Header) error {
	h.Calibration = g.Cal.Text
	rec, err := recording.Create(g.Spec.Recording, h)
	if err != nil {
		return err
	}
	if g.fixedWrist {
		if err := rec.WriteWrist(0, [7]float64(g.Spec.Wrist)); err != nil {
			rec.Discard() // a recording that never started leaves no file
			return err
		}
	}
	g.mu.Lock()
	g.rec = rec
	g.mu.Unlock()
	return nil
}

// tap receives the driver's raw reads. The open handshake's bytes come
// before the recording exists; a replay starts with a fresh parser anyway.
func (g *Glove) tap(t time.Duration, b []byte) {
	g.record(func(r *recording.Recorder) error { return r.WriteRaw(t, b) })
}

// record writes to the recording, if there is one; a failed write stops
// the recording, and RecordingFailed reports why.
func (g *Glove) record(write func(*recording.Recorder) error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.rec == nil {
		return
	}
	if err := write(g.rec); err != nil {
		g.rec.Close()
		g.rec, g.recErr = nil, fmt.Errorf("recording %s stopped: %w", g.Spec.Recording, err)
	}
}

// Read blocks until the next sample and fills s. The sample of a glove
// that records its samples (the simulation) is written to the recording;
// a replay's recorded wrist pose is taken up unless the spec fixed the
// wrist.
func (g *Glove) Read(s *devices.Sample) error {
	if err := g.Device().Read(s); err != nil {
		return err
	}
	if g.drv.Parser == nil && !g.drv.Replays {
		g.record(func(r *recording.Recorder) error { return r.WriteSample(s) })
	}
	if r := g.playing(); r != nil {
		s.Time += g.timeOffset
		if v, ok := r.Wrist(); ok && !g.fixedWrist {
			if x, err := PoseFrom(v[:]); err == nil {
				g.wrist = x
			}
		}
	}
	return nil
}

// Wrist returns the wrist pose as of the last Read: the spec's, else the
// recording's, else the identity.
func (g *Glove) Wrist() geom.Transform { return g.wrist }

// Device returns the glove's device.
func (g *Glove) Device() devices.Device {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.dev
}

// playing returns the replay device, or nil for a live or simulated glove.
func (g *Glove) playing() *replay.Glove {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.replay
}

// Warning says what was wrong with a damaged recording being replayed (its
// samples up to the damage are played), or nil.
func (g *Glove) Warning() error {
	if r := g.playing(); r != nil {
		return r.Warning()
	}
	return nil
}

// Jump returns, once, the first jump in the clock of a recording being
// replayed, which the replay played on through without waiting (see
// recording.MaxGap), or nil.
func (g *Glove) Jump() error {
	if r := g.playing(); r != nil {
		return r.Jump()
	}
	return nil
}

// Damaged returns how many samples of a recording being replayed were
// skipped as damaged so far (a reading beyond the glove's resolution, or a
// record the glove's framing rejects); 0 for a live glove.
func (g *Glove) Damaged() uint64 {
	if r := g.playing(); r != nil {
		return r.Faults().BadFrames
	}
	return 0
}

// BadWrist returns, once, what was wrong with the first wrist pose of a
// recording being replayed that was skipped as damaged, with how many
// were (replay.Glove.BadWrist); nil if none was.
func (g *Glove) BadWrist() (first error, n int) {
	if r := g.playing(); r != nil {
		return r.BadWrist()
	}
	return nil, 0
}

// RecordingFailed returns, once, why the recording stopped, if it did.
func (g *Glove) RecordingFailed() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	err := g.recErr
	g.recErr = nil
	return err
}

// Rewind starts a replay again from its beginning, in the file it opened
// (replay.Glove.Rewind: in real time, once the last pass has lasted its
// PassLength); its sample times go on from the last pass's, that
// PassLength later, so that they never repeat.
func (g *Glove) Rewind() error {
	r := g.playing()
	if r == nil {
		return fmt.Errorf("session: only a replay can be rewound")
	}
	pass := r.PassLength()
	if err := r.Rewind(); err != nil {
		return err
	}
	g.timeOffset += pass
	return nil
}

// Close closes the device (a Read blocked in another goroutine returns
// devices.ErrClosed) and then the recording, flushing it.
func (g *Glove) Close() error {
	err := g.Device().Close()
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.rec != nil {
		g.recPath = g.rec.Path()
		err = errors.Join(err, g.rec.Close())
		g.rec = nil
	}
	return err
}

// RecordedTo is where the recording's file was when Close closed it
// ("" before, or without a recording): the path it was made at, unless
// another session creating that path kept it aside as NAME.N.EXT.
func (g *Glove) RecordedTo() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.recPath
}

// mustPose converts a pose Normalize has checked.
func mustPose(v []float64) geom.Transform {
	x, err := PoseFrom(v)
	if err != nil {
		panic("session: unchecked pose: " + err.Error())
	}
	return x
}
