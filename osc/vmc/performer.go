package vmc

import (
	"time"

	"github.com/gloved/gloved/osc"
)

// Performer is one VMC performer as its marionettes see it: the hands
// that send through one vmc output. /VMC/Ext/OK and /VMC/Ext/T describe
// the performer, not a hand, so its hands share them: it is tracked while
// any of its hands is, and its time never goes back. (Sent per hand, a
// hand without a glove said tracking 0 twice a second while the other
// hand streamed, and two hands' times interleaved out of order.)
//
// A performer's bundles, its hands' frames (Hand.Frame) and its statuses
// (Status), are made and sent one at a time, each sent before the next is
// made, so that they leave in the order of their times: the daemon holds
// a lock across each.
type Performer struct {
	start   time.Time
	t       float64 // the last /VMC/Ext/T sent
	tracked []bool  // by hand
}

// NewPerformer returns the performer of hands hands, its times counted
// from start, none of them tracked yet.
func NewPerformer(start time.Time, hands int) *Performer {
	return &Performer{start: start, tracked: make([]bool, hands)}
}

// Status encodes, with w, the performer's state in a bundle of its own
// stamped now, hand (its number) being tracked or not (a glove streaming,
// a replay playing): /VMC/Ext/OK with tracking 1 while any of its hands
// is tracked and 0 once none is, and /VMC/Ext/T, the last time sent
// (before the first frame 0, or after a reload the reload's time: the
// profile's Open sets it). It allocates nothing.
func (p *Performer) Status(w *osc.Writer, hand int, tracked bool, now time.Time) {
	w.Begin(osc.Timetag(now))
	p.tracked[hand] = tracked
	p.state(w, time.Time{})
}

// state writes /VMC/Ext/OK, loaded, calibrated, in the normal mode and
// tracked if any hand is, and /VMC/Ext/T: at's time since the start, or
// the last time sent if that is later (or at is zero: a status).
func (p *Performer) state(w *osc.Writer, at time.Time) {
	tracked := int32(0)
	for _, t := range p.tracked {
		if t {
			tracked = 1
		}
	}
	w.Message(AddrOK)
	w.Int(1)
	w.Int(3)
	w.Int(0)
	w.Int(tracked)
	w.End()
	if !at.IsZero() {
		p.t = max(p.t, at.Sub(p.start).Seconds())
	}
	w.Message(AddrTime)
	w.Float(p.t)
	w.End()
}
