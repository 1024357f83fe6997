package cyberglove

import (
	"fmt"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/cyberglove/layout"
	"github.com/gloved/gloved/devices/serialport"
)

// ErrNoReply is a query the port left unanswered within the reply
// timeout: nothing that speaks the protocol is there, or not at this baud
// rate. It is serialport's, which a probe reports as no answer.
var ErrNoReply = serialport.ErrNoReply

// Unit is what a CyberGlove interface unit says of itself when asked.
type Unit struct {
	devices.GloveInfo
	// GloveIn: a glove is plugged into the unit (?G bit 1). A unit without
	// its glove still answers every query.
	GloveIn bool
}

// String describes the unit as `gloved ports --probe` reports it:
// "CyberGlove (22 sensors, right)", with ", glove not plugged in" when the
// unit has no glove.
func (u Unit) String() string {
	s := fmt.Sprintf("CyberGlove (%d sensors, %s)", u.Sensors, u.Hand())
	if !u.GloveIn {
		s += ", glove not plugged in"
	}
	return s
}

// Identify asks the unit on an open port what it is: it stops any stream
// a previous program left running (^C) and drains it, then sends the
// queries ?S (sensor count), ?G (glove status) and ?R (handedness), each
// answered within replyTimeout or ErrNoReply. It changes no setting of
// the unit and starts nothing, so the port can be handed back as it was
// (bar a stream stopped). Open runs the same sequence before it sets the
// unit up.
func Identify(p serialport.Conn, replyTimeout time.Duration) (Unit, error) {
	if replyTimeout <= 0 {
		return Unit{}, fmt.Errorf("cyberglove: reply timeout %v: want > 0", replyTimeout)
	}
	g := &Glove{opts: Opts{ReplyTimeout: replyTimeout}}
	u, err := g.identify(p)
	if err != nil {
		return Unit{}, fmt.Errorf("cyberglove: %w", err)
	}
	return u, nil
}

// Probe is the driver's serialport.Identify, for `gloved ports --probe`:
// Identify, said as Unit.String says it.
func Probe(c serialport.Conn, replyTimeout time.Duration) (string, error) {
	u, err := Identify(c, replyTimeout)
	if err != nil {
		return "", err
	}
	return u.String(), nil
}

var _ serialport.Identify = Probe

// identify is Identify on the driver's own buffers and fault counters.
func (g *Glove) identify(p serialport.Conn) (Unit, error) {
	if _, err := p.Write([]byte{0x03}); err != nil {
		return Unit{}, fmt.Errorf("stop stream: %w", err)
	}
	if err := g.drain(p); err != nil {
		return Unit{}, err
	}
	n, err := g.query(p, 'S')
	if err != nil {
		return Unit{}, err
	}
	sensors := int(n)
	if err := layout.Check(sensors); err != nil {
		return Unit{}, fmt.Errorf("?S: %w", err)
	}
	st, err := g.query(p, 'G')
	if err != nil {
		return Unit{}, err
	}
	right, err := g.query(p, 'R')
	if err != nil {
		return Unit{}, err
	}
	return Unit{
		GloveInfo: devices.GloveInfo{Model: "cyberglove", Sensors: sensors, Right: right == 1},
		GloveIn:   st&0x02 != 0,
	}, nil
}
