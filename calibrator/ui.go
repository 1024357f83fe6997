package calibrator

import (
	"context"
	"errors"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/handmodel"
)

// UI is how a session talks to the user. A session calls it from one
// goroutine, in this order for each pose: Ask, Recording, Held (and again
// from Ask while Held reported a rejection); then Show and Confirm.
type UI interface {
	// Ask tells the user what to hold and why, and returns once they hold
	// it (Enter, in a terminal). An error ends the session: ErrQuit when
	// the user quits, io.EOF when the input ends, or ctx's error.
	Ask(ctx context.Context, s Step) error
	// Recording says the hold has begun: keep still for s.Hold.
	Recording(s Step)
	// Held reports the hold: err nil when it was taken, else why it was
	// rejected (a *NotStillError or a *StoppedError) and the pose is
	// asked again.
	Held(s Step, h *Hold, err error)
	// Show shows the fitted calibration: the fitted hand in each pose
	// beside the pose's target, and each sensor's fit and residuals.
	Show(r *Result)
	// Confirm asks whether to write the calibration, or which poses to
	// hold again.
	Confirm(ctx context.Context, r *Result) (Decision, error)
}

// Live is an optional ability of a UI: it is given every sample the
// glove sends, so that a page can show the hand moving while the user
// takes a pose (through the fallback calibration, or a fit). It is called
// from the goroutine that reads the glove, not the session's, and must
// not keep s.
type Live interface {
	Live(s *devices.Sample)
}

// Step is one request to hold a pose.
type Step struct {
	Index, Count int // the pose's place in the session, from 0, of Count
	Pose         *handmodel.CalPose
	Attempt      int           // 1 the first time it is asked
	Hold         time.Duration // how long the user keeps still
}

// Decision is the user's answer to Confirm.
type Decision struct {
	Write bool
	// Redo lists the poses (indices into Result.Steps) to hold again when
	// Write is false; none means quit without writing.
	Redo []int
}

// ErrQuit is a user's choice to stop before anything is written.
var ErrQuit = errors.New("calibrator: the user quit")
