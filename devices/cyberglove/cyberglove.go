package cyberglove

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gloved/gloved/devices"
)

// Mode is how the driver asks for records.
type Mode uint8

const (
	// Stream: the unit sends records at the sample period ('S').
	Stream Mode = iota
	// Poll: the driver asks for each record ('G').
	Poll
)

// Opts configures the CyberGlove I/II driver.
type Opts struct {
	Port    string        // e.g. /dev/ttyUSB0, /dev/cyberglove or an emulator's pty
	Baud    int           // 115200 on current units; 19200 or 38400 on old ones
	Sensors int           // 18 or 22; 0 asks the unit (?S)
	Period  time.Duration // sample period when streaming; 10 ms = 100 Hz
	Mode    Mode
	// StatusByte asks the unit to append its status byte (switch, glove in).
	StatusByte bool
	// ReadTimeout bounds each port read (the serial line's VTIME; 100 ms is
	// its resolution and the default).
	ReadTimeout time.Duration
	// ReplyTimeout bounds the wait for a query's reply.
	ReplyTimeout time.Duration
	// MinBackoff and MaxBackoff bound the wait between reopen attempts.
	MinBackoff, MaxBackoff time.Duration
	// Open opens the port; nil means OpenSerial.
	Open Opener
	// Tap, if set, receives every chunk of bytes read from the port with
	// the time it arrived, before parsing: what a recording stores. An
	// empty chunk means the port was (re)opened and the parser reset.
	Tap func(t time.Duration, b []byte)
}

// DefaultOpts are the settings of a current CyberGlove II on USB.
var DefaultOpts = Opts{
	Baud:         115200,
	Period:       10 * time.Millisecond,
	Mode:         Stream,
	StatusByte:   true,
	ReadTimeout:  100 * time.Millisecond,
	ReplyTimeout: 500 * time.Millisecond,
	MinBackoff:   100 * time.Millisecond,
	MaxBackoff:   2 * time.Second,
}

// Glove drives a CyberGlove I/II interface unit over a serial line.
type Glove struct {
	opts   Opts
	start  time.Time
	parser *Parser
	faults devices.FaultLog
	info   devices.GloveInfo
	seq    uint64
	chunkT time.Duration // arrival time of the last chunk read
	buf    [256]byte

	mu     sync.Mutex // guards port against Close
	port   Port
	closed atomic.Bool

	backoff   time.Duration
	nextOpen  time.Time
	idleReads int  // consecutive timed-out reads
	noGlove   bool // the unit last reported the glove unplugged
	statPort  bool // a real device node: its disappearance means unplugged
}

var (
	_ devices.Device       = (*Glove)(nil)
	_ devices.Info         = (*Glove)(nil)
	_ devices.FaultCounter = (*Glove)(nil)
	_ devices.Clock        = (*Glove)(nil)
)

// Open opens the port, stops any stale stream and drains it,
// queries the sensor count, glove status and handedness, sets the sample
// period and status byte, and starts streaming (or readies polling). A
// glove unplugged from the unit is not an error: Read reports ErrNoGlove
// until it is back.
func Open(o Opts) (*Glove, error) {
	statPort := o.Open == nil
	if o.Open == nil {
		o.Open = OpenSerial
	}
	if o.Sensors != 0 {
		if err := devices.CheckSensors(o.Sensors); err != nil {
			return nil, err
		}
	}
	if o.Period <= 0 || o.Period > 500*time.Millisecond {
		return nil, fmt.Errorf("cyberglove: sample period %v: want 0 < period <= 500ms", o.Period)
	}
	for _, d := range []*time.Duration{&o.ReadTimeout, &o.ReplyTimeout, &o.MinBackoff, &o.MaxBackoff} {
		if *d <= 0 {
			return nil, fmt.Errorf("cyberglove: timeouts and backoffs must be positive: %+v", o)
		}
	}
	g := &Glove{opts: o, start: time.Now(), backoff: o.MinBackoff, statPort: statPort}
	port, err := o.Open(o.Port, o.Baud, o.ReadTimeout)
	if err != nil {
		return nil, err
	}
	if err := g.handshake(port); err != nil {
		port.Close()
		return nil, fmt.Errorf("cyberglove: %s: %w", o.Port, err)
	}
	g.port = port
	g.faults.Publish()
	return g, nil
}

// Epoch returns when Sample.Time was zero (the driver was opened).
func (g *Glove) Epoch() time.Time { return g.start }

// GloveInfo returns what the unit reported at the last handshake.
func (g *Glove) GloveInfo() devices.GloveInfo { return g.info }

// Faults returns the fault counters as of the last Read; any goroutine
// may call it.
func (g *Glove) Faults() devices.Faults { return g.faults.Load() }

func (g *Glove) now() time.Duration { return time.Since(g.start) }

// handshake runs the open sequence on a fresh port.
func (g *Glove) handshake(p Port) error {
	u, err := g.identify(p)
	if err != nil {
		return err
	}
	if g.opts.Sensors != 0 && u.Sensors != g.opts.Sensors {
		return fmt.Errorf("unit reports %d sensors, configured for %d", u.Sensors, g.opts.Sensors)
	}
	f := Format{Sensors: u.Sensors, Status: g.opts.StatusByte}
	g.noGlove = !u.GloveIn
	g.info = u.GloveInfo
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
	if g.parser == nil || g.parser.Format != f {
		g.parser = NewParser(f, g.opts.Mode == Stream, &g.faults.Counts)
	}
	g.parser.Reset()
	if g.opts.Tap != nil {
		g.opts.Tap(g.now(), nil)
	}
	if g.opts.Mode == Stream {
		if _, err := p.Write([]byte{'S'}); err != nil {
			return fmt.Errorf("start stream: %w", err)
		}
	}
	return nil
}

// drain reads and discards until the line is quiet for one read timeout,
// giving up after a second of continuous data.
func (g *Glove) drain(p Port) error {
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
// up to a 0x00 terminator. The terminator is not returned.
func (g *Glove) readReply(p Port, what string, size int) ([]byte, error) {
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
			return nil, fmt.Errorf("%s: %w within %v (is a CyberGlove unit on this port, at this baud rate?)", what, ErrNoReply, g.opts.ReplyTimeout)
		}
	}
}

// query sends ?X and returns the one-byte payload of '?' 'X' payload 0x00.
func (g *Glove) query(p Port, x byte) (byte, error) {
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
func (g *Glove) command(p Port, letter byte, cmd string) error {
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

// Read returns the next sample. Transient conditions return an error for
// which Transient is true (ErrNoGlove or a *GloveError, ErrTimeout,
// ErrDisconnected) and the next Read carries on; after Close it returns
// ErrClosed.
func (g *Glove) Read(s *devices.Sample) error {
	defer g.faults.Publish()
	for {
		if g.closed.Load() {
			return devices.ErrClosed
		}
		port := g.currentPort()
		if port == nil {
			if err := g.reopen(); err != nil {
				return err
			}
			continue
		}
		ev, err := g.parser.Next(s)
		switch ev {
		case GotSample:
			g.noGlove = false
			s.Time = g.chunkT // when the record's last byte arrived
			s.Seq = g.seq
			g.seq++
			return nil
		case GotError:
			var ge *devices.GloveError
			if errors.As(err, &ge) && bytes.IndexByte(ge.Codes, 'g') >= 0 {
				g.noGlove = true
				return fmt.Errorf("%w (%v)", devices.ErrNoGlove, err)
			}
			return err
		}
		if g.opts.Mode == Poll && g.parser.Buffered() == 0 {
			if _, err := port.Write([]byte{'G'}); err != nil {
				g.lost(port, err)
				return fmt.Errorf("%w: %v", devices.ErrDisconnected, err)
			}
		}
		n, err := port.Read(g.buf[:])
		if err != nil && err != io.EOF {
			g.lost(port, err)
			return fmt.Errorf("%w: %v", devices.ErrDisconnected, err)
		}
		if n == 0 {
			if err := g.idle(port); err != nil {
				return err
			}
			continue
		}
		g.idleReads = 0
		chunk := g.buf[:n]
		g.chunkT = g.now()
		if g.opts.Tap != nil {
			g.opts.Tap(g.chunkT, chunk)
		}
		g.parser.Feed(chunk)
	}
}

// idle handles a read that timed out: the port may be gone (its device node
// removed), or the stream may have stopped (restart it after three quiet
// reads).
func (g *Glove) idle(port Port) error {
	g.faults.Counts.Timeouts++
	g.idleReads++
	if _, err := os.Stat(g.opts.Port); err != nil && g.statPort {
		g.lost(port, err)
		return fmt.Errorf("%w: %v", devices.ErrDisconnected, err)
	}
	if g.idleReads%3 == 0 && g.opts.Mode == Stream {
		// Some units stop streaming after an error; ask again.
		if _, err := port.Write([]byte{0x03, 'S'}); err != nil {
			g.lost(port, err)
			return fmt.Errorf("%w: %v", devices.ErrDisconnected, err)
		}
	}
	if g.noGlove {
		return devices.ErrNoGlove
	}
	return devices.ErrTimeout
}

func (g *Glove) currentPort() Port {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.port
}

// lost closes a failed port; the next Read reopens it.
func (g *Glove) lost(port Port, _ error) {
	g.mu.Lock()
	if g.port == port {
		g.port = nil
	}
	g.mu.Unlock()
	port.Close()
	g.nextOpen = time.Now()
}

// reopen tries once to reopen and re-handshake the port, waiting out the
// backoff first. It returns ErrDisconnected while the port stays away.
func (g *Glove) reopen() error {
	if wait := time.Until(g.nextOpen); wait > 0 {
		time.Sleep(wait)
	}
	if g.closed.Load() {
		return devices.ErrClosed
	}
	port, err := g.opts.Open(g.opts.Port, g.opts.Baud, g.opts.ReadTimeout)
	if err == nil {
		if err = g.handshake(port); err != nil {
			port.Close()
		}
	}
	if err != nil {
		g.faults.Counts.OpenFailures++
		g.nextOpen = time.Now().Add(g.backoff)
		g.backoff = min(2*g.backoff, g.opts.MaxBackoff)
		return fmt.Errorf("%w: %v", devices.ErrDisconnected, err)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed.Load() {
		port.Close()
		return devices.ErrClosed
	}
	g.port = port
	g.backoff = g.opts.MinBackoff
	g.faults.Counts.Reconnects++
	return nil
}

// Close stops the stream and closes the port; a Read in progress returns
// ErrClosed within one read timeout.
func (g *Glove) Close() error {
	if g.closed.Swap(true) {
		return nil
	}
	g.mu.Lock()
	port := g.port
	g.port = nil
	g.mu.Unlock()
	if port == nil {
		return nil
	}
	port.Write([]byte{0x03})
	return port.Close()
}
