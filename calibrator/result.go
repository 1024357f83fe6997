package calibrator

import (
	"fmt"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/handmodel"
)

// Result is a fitted calibration and everything that went into it.
type Result struct {
	Glove devices.GloveInfo
	When  time.Time
	Hold  time.Duration
	Still float64
	Cal   *handmodel.Calibration
	// Fallback is the calibration whose gains the sensors that could not
	// be fitted keep; Fits says, per sensor, how each was found.
	Fallback *handmodel.Calibration
	Fits     []handmodel.SensorFit
	Steps    []StepResult
}

// StepResult is one pose as held and as the fitted calibration sees it.
type StepResult struct {
	Pose     *handmodel.CalPose
	Hold     Hold
	Attempts int
	// Target is the pose's joint angles and Pinned the joints it holds at
	// a known angle; Fitted is the joint angles the fitted calibration
	// gives for the held readings, clamped to DefaultLimits: the fitted
	// hand in the pose.
	Target, Fitted handmodel.Angles
	Pinned         [handmodel.NumJoints]bool
}

// result fits the held poses and poses the fitted hand in each.
func (s *session) result() (*Result, error) {
	held := make([]handmodel.Held, len(s.steps))
	for i, st := range s.steps {
		held[i] = handmodel.Held{Pose: st.Pose, Raw: st.Hold.Raw, Saturated: st.Hold.saturated(s.o.Fallback.Layout())}
	}
	cal, fits, err := handmodel.FitCalibration(held, s.o.Fallback, s.o.MinSpan)
	if err != nil {
		return nil, fmt.Errorf("calibrator: %w", err)
	}
	cal.Glove = s.info.Model
	if cal.Glove == "" {
		cal.Glove = "cyberglove"
	}
	r := &Result{Glove: s.info, When: s.o.Now(), Hold: s.o.Hold, Still: s.o.Still, Cal: cal, Fallback: s.o.Fallback, Fits: fits,
		Steps: append([]StepResult(nil), s.steps...)}
	for i := range r.Steps {
		st := &r.Steps[i]
		st.Target, st.Pinned = st.Pose.Joints(s.info.Sensors)
		cal.AnglesOf(&st.Hold.Raw, &handmodel.DefaultLimits, &st.Fitted)
	}
	return r, nil
}
