package calibrator

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/handmodel"
)

// Defaults of Opts.
const (
	DefaultHold = 3 * time.Second
	// DefaultSettle is the time left after the user says they hold a pose
	// (the hand that pressed Enter comes to rest) before recording.
	DefaultSettle = 250 * time.Millisecond
	// DefaultStill is the stillness criterion, in 8-bit counts: the middle
	// 90% of each sensor's readings within 8 counts (4 degrees of finger
	// flexion, 2 of abduction at the default gains). A glove's own noise
	// is a count or two.
	DefaultStill = 8
)

// Opts configure a session; zero values take the defaults.
type Opts struct {
	Poses []handmodel.CalPose // default handmodel.CalPoses
	Hold  time.Duration       // how long each pose is recorded
	// Settle is the wait before recording; the default is DefaultSettle
	// or half the hold, whichever is shorter.
	Settle  time.Duration
	Still   float64 // stillness criterion, counts
	MinSpan float64 // least movement for a gain, counts (handmodel.DefaultMinSpan)
	// Fallback is the calibration of the sensors that cannot be fitted
	// (the shipped default, which a CyberGlove gets unless set), and its
	// layout the glove's: which poses pin which channel, which channels
	// must keep still.
	Fallback *handmodel.Calibration
	Now      func() time.Time // the clock that dates the result
	Clock    Clock            // the clock that times the holds; nil: the wall clock
}

func (o *Opts) fill(sensors int) error {
	if len(o.Poses) == 0 {
		o.Poses = handmodel.CalPoses
	}
	if o.Hold <= 0 {
		o.Hold = DefaultHold
	}
	if o.Settle <= 0 {
		o.Settle = min(DefaultSettle, o.Hold/2)
	}
	if o.Still <= 0 {
		o.Still = DefaultStill
	}
	if o.MinSpan <= 0 {
		o.MinSpan = handmodel.DefaultMinSpan
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Clock == nil {
		o.Clock = wallClock{}
	}
	if o.Fallback == nil {
		c, err := handmodel.DefaultCalibration(sensors)
		if err != nil {
			return fmt.Errorf("calibrator: %w", err)
		}
		o.Fallback = c
	}
	if o.Fallback.Sensors != sensors {
		return fmt.Errorf("calibrator: the fallback calibration %s is for %d sensors, the glove has %d", o.Fallback.Name, o.Fallback.Sensors, sensors)
	}
	return nil
}

// Run runs a calibration session on the glove dev (described by info)
// through ui, and returns the calibration the user confirmed. It reads dev
// from a goroutine of its own until a Read fails for good, so the caller
// closes dev after Run; a ui that is also Live is given every sample. It
// ends with ErrQuit, io.EOF or ctx's error when the user stops, and with
// the device's error when the glove fails.
func Run(ctx context.Context, dev devices.Device, info devices.GloveInfo, ui UI, o Opts) (*Result, error) {
	if err := o.fill(info.Sensors); err != nil {
		return nil, err
	}
	live, _ := ui.(Live)
	s := &session{ui: ui, o: o, info: info, rec: startRecorder(dev, info.Sensors, live, o.Clock), steps: make([]StepResult, len(o.Poses))}
	todo := make([]int, len(o.Poses))
	for i := range todo {
		todo[i] = i
	}
	for {
		for _, i := range todo {
			if err := s.take(ctx, i); err != nil {
				return nil, err
			}
		}
		r, err := s.result()
		if err != nil {
			return nil, err
		}
		ui.Show(r)
		d, err := ui.Confirm(ctx, r)
		switch {
		case err != nil:
			return nil, err
		case d.Write:
			return r, nil
		case len(d.Redo) == 0:
			return nil, ErrQuit
		}
		for _, i := range d.Redo {
			if i < 0 || i >= len(o.Poses) {
				return nil, fmt.Errorf("calibrator: the UI asked to redo pose %d of %d", i, len(o.Poses))
			}
		}
		todo = d.Redo
	}
}

type session struct {
	ui    UI
	o     Opts
	info  devices.GloveInfo
	rec   *recorder
	steps []StepResult
}

// take asks for pose i until it is held still with the glove sending.
func (s *session) take(ctx context.Context, i int) error {
	for attempt := 1; ; attempt++ {
		st := Step{Index: i, Count: len(s.o.Poses), Pose: &s.o.Poses[i], Attempt: attempt, Hold: s.o.Hold}
		if err := s.ui.Ask(ctx, st); err != nil {
			return err
		}
		s.ui.Recording(st)
		samples, fault, err := s.rec.window(ctx, s.o.Settle, s.o.Hold)
		if err != nil {
			return err
		}
		var h *Hold
		if fault != nil {
			err = &StoppedError{Err: fault, Samples: len(samples)}
		} else {
			h, err = measure(samples, s.o.Fallback.Layout(), s.o.Still)
		}
		s.ui.Held(st, h, err)
		var notStill *NotStillError
		var stopped *StoppedError
		switch {
		case err == nil:
			s.steps[i] = StepResult{Pose: st.Pose, Hold: *h, Attempts: attempt}
			return nil
		case !errors.As(err, &notStill) && !errors.As(err, &stopped):
			return err
		}
	}
}
