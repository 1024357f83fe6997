package feedback

import (
	"math"
	"time"
)

// ServoMax is the force-feedback value of a finger unable to curl at all
// (OpenGloves' 0-1000 scale; 0 is free).
const ServoMax = 1000

// Line is what a line to the glove carries: each finger's servo value,
// 0 free to ServoMax, and a pulse (amplitude 0: none).
type Line struct {
	Servo [Fingers]uint16
	// Pulse: amplitude 0 to 1, frequency (Hz) and duration of a pulse.
	Amplitude, Hz float64
	Duration      time.Duration
}

// Due returns the line due at time t and true, or false when none is:
// at most Options.Rate a second, and only when a servo value changed, a
// pulse waits, or Options.Refresh passed since the last (the first frame
// always sends one: the glove learns every finger is free). A line Due
// returns counts as sent.
func (h *Hand) Due(t time.Duration) (Line, bool) {
	var l Line
	for f := range Fingers {
		l.Servo[f] = uint16(math.Round(h.state.Force[f] * ServoMax))
	}
	since := t - h.sentAt
	if h.sentEver {
		if float64(since) < float64(time.Second)/h.o.Rate {
			return l, false
		}
		if l.Servo == h.sent && h.pending == 0 && since < h.o.Refresh {
			return l, false
		}
	}
	if h.pending > 0 {
		l.Amplitude, l.Hz, l.Duration = h.pending, h.o.PulseHz, h.o.Pulse
	}
	h.sent, h.sentAt, h.sentEver, h.pending = l.Servo, t, true, 0
	return l, true
}

// Resend makes the next Due return the current line whatever was sent
// before: the glove may have lost it (its port reopened, its firmware
// rebooted with every servo free). The holds stay as they are.
func (h *Hand) Resend() { h.sentEver = false }
