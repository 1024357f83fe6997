package cyberglove

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/serialport"
)

// handshake runs the open sequence on a fresh port. Both generations
// begin alike, with identify: stop any stale stream (^C) and drain it,
// then ?S ?G ?R. The reference documents the queries for the I/II only;
// a III is expected to answer them in their form (the echoed query, the
// payload, 0x00), and one that leaves a query unanswered is taken to be
// the configured sensor count and side (configuredUnit). Then the model's own start:
// start2 or start3.
func (g *Glove) handshake(p serialport.Conn) error {
	u, err := g.identify(p)
	if err != nil && g.opts.Model == ModelIII && errors.Is(err, ErrNoReply) {
		u, err = g.configuredUnit(err)
	}
	if err != nil {
		return err
	}
	if g.opts.Sensors != 0 && u.Sensors != g.opts.Sensors {
		return fmt.Errorf("the unit reports %d sensors, but %d are asked for (sensors): ask for %d, or leave the count out to take the unit's", u.Sensors, g.opts.Sensors, u.Sensors)
	}
	g.noGlove = !u.GloveIn
	g.info = u.GloveInfo
	g.lastReport = g.now()
	g.info.Model = string(g.opts.Model)
	g.info.Rate = float64(time.Second) / float64(g.opts.Period)
	if g.opts.Model == ModelIII {
		g.info.Rate = rate3
		return g.start3(p, u.Sensors)
	}
	return g.start2(p, u.Sensors)
}

// configuredUnit is the unit the options describe, for a CyberGlove III
// that left a query unanswered (err): its sensor count and side must be
// configured, and its glove is taken to be in (an unplugged glove still
// shows in its records' error tails).
func (g *Glove) configuredUnit(err error) (Unit, error) {
	if g.opts.Sensors == 0 || (g.opts.Side != "right" && g.opts.Side != "left") {
		return Unit{}, fmt.Errorf("%w; a CyberGlove III that does not answer the queries needs its sensors (18 or 22) and side (right or left) in its [[hand]]", err)
	}
	return Unit{GloveInfo: devices.GloveInfo{Sensors: g.opts.Sensors, Right: g.opts.Side == "right", Assumed: true}, GloveIn: true}, nil
}

// start2 sets a CyberGlove I/II's sample period (t, when streaming),
// status byte (u) and timestamp (d, off), and readies its stream (the
// next Read sends S) or polling.
func (g *Glove) start2(p serialport.Conn, sensors int) error {
	if g.opts.Mode == Stream {
		w1 := int(g.opts.Period.Seconds()*115200 + 0.5)
		if err := g.command(p, 't', fmt.Sprintf("t %d 1\r", w1)); err != nil {
			return err
		}
	}
	status := "0"
	if g.opts.StatusByte {
		status = "1"
	}
	if err := g.command(p, 'u', "u "+status+"\r"); err != nil {
		return err
	}
	// The timestamp is off: a unit keeps what the last program set (d 1,
	// or the D an OpenGloves driver's line holds), and its records would
	// carry 5 bytes more than the parser takes, every one refused.
	if err := g.command(p, 'd', "d 0\r"); err != nil {
		return err
	}
	f := Format{Sensors: sensors, Status: g.opts.StatusByte}
	if pp, ok := g.parser.(*Parser); !ok || pp.Format != f {
		g.parser = NewParser(f, g.opts.Mode == Stream, &g.faults.Counts)
	}
	g.begin()
	if g.opts.Mode == Stream {
		g.startCmd = []byte{'S'} // sent by the next Read
	}
	return nil
}

// begin resets the parser for the stream about to start, and marks the
// reset in the tap (a recording's replay resets its parser there too).
func (g *Glove) begin() {
	g.parser.Reset()
	if g.opts.Tap != nil {
		g.opts.Tap(g.now(), nil)
	}
}

// restart is what Read sends when a stream has stopped: ^C and the
// model's start command.
func (g *Glove) restart() []byte {
	if g.opts.Model == ModelIII {
		return []byte{0x03, '1', 'S'}
	}
	return []byte{0x03, 'S'}
}

// drain reads and discards until the line is quiet for one read timeout,
// giving up after a second of continuous data.
func (g *Glove) drain(p serialport.Conn) error {
	deadline := time.Now().Add(time.Second)
	for time.Now().Before(deadline) {
		n, err := p.Read(g.buf[:])
		if n == 0 && (err == nil || err == io.EOF) {
			return nil
		}
		if err != nil && err != io.EOF {
			return fmt.Errorf("drain: %w", err)
		}
		g.faults.Counts.SkippedBytes += uint64(n)
	}
	return errors.New("drain: the unit kept sending after ^C")
}

// readReply reads a reply: exactly size bytes if size > 0 (a query's
// payload may itself be 0, so its length, not the first 0, ends it), else
// up to a 0x00 terminator. The terminator is not returned. When the unit
// falls silent first, the error wraps ErrNoReply and the reply is what
// came before.
func (g *Glove) readReply(p serialport.Conn, what string, size int) ([]byte, error) {
	var reply []byte
	deadline := time.Now().Add(g.opts.ReplyTimeout)
	var one [1]byte
	for {
		n, err := p.Read(one[:])
		if err != nil && err != io.EOF {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		if n == 1 {
			if size > 0 && len(reply) == size-1 {
				if one[0] != 0 {
					return nil, fmt.Errorf("%s: reply % x not terminated by 0x00", what, append(reply, one[0]))
				}
				return reply, nil
			}
			if size == 0 && one[0] == 0 {
				return reply, nil
			}
			if size > 0 && len(reply) == 1 && reply[0] == '?' && one[0] == 'e' {
				size = 0 // an error reply: '?' 'e' code 0x00
			}
			reply = append(reply, one[0])
			if len(reply) > 256 {
				return nil, fmt.Errorf("%s: reply longer than 256 bytes without a terminator", what)
			}
			continue
		}
		if time.Now().After(deadline) {
			return reply, fmt.Errorf("%s: %w within %v (is a CyberGlove unit on this port, at this baud rate?)", what, ErrNoReply, g.opts.ReplyTimeout)
		}
	}
}

// query sends ?X and returns the one-byte payload of '?' 'X' payload 0x00.
func (g *Glove) query(p serialport.Conn, x byte) (byte, error) {
	what := "?" + string(x)
	if _, err := p.Write([]byte{'?', x}); err != nil {
		return 0, fmt.Errorf("%s: %w", what, err)
	}
	r, err := g.readReply(p, what, 4)
	if err != nil {
		return 0, err
	}
	if len(r) >= 3 && r[0] == '?' && r[1] == 'e' {
		return 0, fmt.Errorf("%s: unit answered error %q", what, r[2])
	}
	if len(r) != 3 || r[0] != '?' || r[1] != x {
		return 0, fmt.Errorf("%s: malformed reply % x", what, r)
	}
	return r[2], nil
}

// command sends an ASCII setting and checks its acknowledgement: the
// command letter, optionally followed by an error tail.
func (g *Glove) command(p serialport.Conn, letter byte, cmd string) error {
	what := strconv.Quote(cmd)
	if _, err := p.Write([]byte(cmd)); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	r, err := g.readReply(p, what, 0)
	if err != nil {
		return err
	}
	if i := bytes.IndexByte(r, 'e'); i >= 0 && i+1 < len(r) {
		return fmt.Errorf("%s: unit answered error %q", what, r[i+1])
	}
	if len(r) == 0 || r[0] != letter {
		return fmt.Errorf("%s: malformed acknowledgement % x", what, r)
	}
	return nil
}
