package daemon

import (
	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/opengloves"
	"github.com/gloved/gloved/feedback"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/session"
)

// handFeedback is a hand's force feedback and haptics ([feedback]
// enabled), on its frame loop: built at the first frame, from the hand's
// joint limits.
type handFeedback struct {
	opts feedback.Options
	fb   *feedback.Hand
	line []byte
	seq  uint64
	// reconnects is the glove's count of reopened ports at the last frame.
	reconnects uint64
	// told: the log said whether the glove takes the lines.
	told bool
}

// feedback runs the hand's feedback on the pipeline's last frame: the
// frame's feedback message, and the line due to a glove that takes lines
// (devices.Sender), queued for after the glove's next line. Nothing
// allocates once built.
func (d *Daemon) feedback(h *handRuntime, p *session.Pipeline, s *devices.Sample) {
	f := &h.fb
	if f.fb == nil {
		fb, err := feedback.NewHand(&p.Hand().Limits, f.opts)
		if err != nil { // the config was checked: not reached
			h.log.Error().Err(err).Msg("feedback off")
			h.fbOn = false
			return
		}
		f.fb, f.line = fb, make([]byte, 0, 64)
	}
	dev := h.device()
	f.follow(s.Seq, dev)
	f.fb.Frame(s.Time, p.Angles(), p.Poses(), p.Contacts())
	st := f.fb.State()
	h.frame.Feedback = osc.Feedback{On: true, Force: st.Force, Pulse: st.Pulse}
	snd, ok := dev.(devices.Sender)
	if !f.told {
		f.told = true
		if ok {
			h.log.Info().Msg("force feedback: the glove's servos follow the contacts")
		} else {
			h.log.Info().Str("device", h.spec.Device).Msg("force feedback: this glove takes no lines; only the OSC feedback message is sent")
		}
	}
	if !ok {
		return
	}
	if line, due := f.fb.Due(s.Time); due {
		f.line = opengloves.AppendFeedback(f.line[:0], &line.Servo, line.Hz, line.Duration.Seconds(), line.Amplitude)
		if err := snd.Send(f.line); err == nil {
			h.Stats.FeedbackLines.Add(1)
		}
	}
}

// follow keeps the feedback with the stream of samples of seq from dev:
// a replay's next pass (seq going back) is a new stream, its holds
// forgotten; a glove whose port reopened (its Reconnects count changed)
// is sent the current line at the next frame rather than at the next
// refresh, since the glove may have lost it (a LucidGloves firmware
// rebooting frees every servo; its sequence numbers keep counting).
func (f *handFeedback) follow(seq uint64, dev devices.Device) {
	if seq < f.seq {
		f.fb.Reset()
	}
	f.seq = seq
	if fc, ok := dev.(devices.FaultCounter); ok {
		if r := fc.Faults().Reconnects; r != f.reconnects {
			f.reconnects = r
			f.fb.Resend()
		}
	}
}
