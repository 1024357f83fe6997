package view

import (
	"encoding/json"
	"fmt"
	"time"
)

// Calibration is a guided calibration as the page shows it, in place of
// the hands' panels: what to do now and, once fitted, what was found. A
// calibrator sets it; the page's buttons answer it (Answers).
type Calibration struct {
	// Serial numbers the states: an answer names the one it answers, so a
	// late or doubled click never answers the next question.
	Serial int `json:"serial"`
	// Phase is "ask" (hold the pose, then Ready), "recording", "review"
	// (the fit, to write or redo) or "done".
	Phase   string  `json:"phase"`
	Step    int     `json:"step"` // the pose's place, from 0, of Count
	Count   int     `json:"count"`
	Attempt int     `json:"attempt"`
	Pose    string  `json:"pose"`
	Do      string  `json:"do"`
	Why     string  `json:"why"`
	HoldS   float64 `json:"hold_s"`
	// Note says how the last hold went, or how the session ended;
	// Rejected marks a hold that was not taken.
	Note     string `json:"note"`
	Rejected bool   `json:"rejected"`
	// Review: each pose held and each sensor's fit; Shown is the pose the
	// hands show (the fitted hand in it, over its target).
	Poses   []CalibrationPose   `json:"poses,omitempty"`
	Sensors []CalibrationSensor `json:"sensors,omitempty"`
	Shown   int                 `json:"shown"`
}

// CalibrationPose is a held pose as fitted: its worst joint, fitted
// against the pose's target.
type CalibrationPose struct {
	Name       string  `json:"name"`
	Attempts   int     `json:"attempts"`
	WorstJoint string  `json:"worst_joint"`
	WorstDeg   float64 `json:"worst_deg"`
}

// CalibrationSensor is one sensor's fit: offset (counts), gain
// (rad/count), residuals over the poses that pin it (degrees), and why it
// kept the fallback gain if it did.
type CalibrationSensor struct {
	Name      string   `json:"name"`
	Offset    float64  `json:"offset"`
	Gain      float64  `json:"gain"`
	RMSDeg    float64  `json:"rms_deg"`
	WorstDeg  float64  `json:"worst_deg"`
	WorstPose string   `json:"worst_pose"`
	Reversed  bool     `json:"reversed"`
	Saturated []string `json:"saturated,omitempty"`
	Fallback  string   `json:"fallback,omitempty"`
}

// Answer is a page's answer to a Calibration: "ready" (the pose is held),
// "quit", "write", "redo" (Poses, indices from 0) or "show" (Poses[0]).
type Answer struct {
	Serial int    `json:"serial"`
	Answer string `json:"answer"`
	Poses  []int  `json:"poses"`
}

// maxAnswerPoses bounds the poses an answer may name.
const maxAnswerPoses = 64

// valid reports whether a is an answer a page can give.
func (a *Answer) valid() bool {
	switch a.Answer {
	case "ready", "quit", "write", "redo", "show":
	default:
		return false
	}
	return len(a.Poses) <= maxAnswerPoses
}

// SetCalibration shows c on every page, at once; nil takes it away.
func (s *Server) SetCalibration(c *Calibration) error {
	var b []byte
	if c != nil {
		var err error
		if b, err = json.Marshal(struct {
			Type string `json:"type"`
			*Calibration
		}{"calibration", c}); err != nil {
			return fmt.Errorf("view: calibration: %w", err)
		}
	}
	s.mu.Lock()
	s.calib = b
	s.calibGen++
	s.mu.Unlock()
	s.wakeAll()
	return nil
}

// Answers delivers the pages' answers to the calibration shown, in the
// order they came; while none is shown a page's answer ends that page's
// connection, as any request it should not send. Answers not taken are
// dropped beyond the channel's buffer.
func (s *Server) Answers() <-chan Answer { return s.answers }

// answer passes a page's answer on; it reports false if no calibration
// is shown.
func (s *Server) answer(a Answer) bool {
	s.mu.Lock()
	shown := s.calib != nil
	s.mu.Unlock()
	if !shown {
		return false
	}
	select {
	case s.answers <- a:
	default:
		s.logf("answer", "view: a calibration answer was dropped: answers are not being read")
	}
	return true
}

// Settle waits until every browser connected has been sent the newest
// calibration state, or for at most d: the last word of a session (what
// was written) reaches the pages before the server closes.
func (s *Server) Settle(d time.Duration) {
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		s.mu.Lock()
		gen, shown := s.calibGen, s.calib != nil
		s.mu.Unlock()
		if !shown {
			return
		}
		behind := false
		for _, b := range *s.browsers.Load() {
			behind = behind || b.calib.Load() < gen
		}
		if !behind {
			return
		}
	}
}
