package cyberglove

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/cyberglove/layout"
	"github.com/gloved/gloved/devices/serialport"
)

// Mode is how the driver asks for records.
type Mode uint8

const (
	// Stream: the unit sends records at the sample period ('S').
	Stream Mode = iota
	// Poll: the driver asks for each record ('G').
	Poll
)

// Model is the generation of CyberGlove unit, named as GloveInfo.Model and
// the daemon's device key name it.
type Model string

const (
	// ModelII is a CyberGlove I/II: 8-bit binary records, streamed or polled.
	ModelII Model = "cyberglove"
	// ModelIII is a CyberGlove III on its 16-bit USB stream (Parser3).
	ModelIII Model = "cyberglove3"
)

// Opts configures the driver.
type Opts struct {
	Port    string // e.g. /dev/ttyUSB0, /dev/cyberglove or an emulator's pty
	Baud    int    // 115200 on current units; 19200 or 38400 on old ones
	Model   Model  // ModelII unless set
	Sensors int    // 18 or 22; 0 asks the unit (?S)
	// Side is "right" or "left": the hand of a CyberGlove III that answers
	// no queries (with Sensors set). The reference documents the queries
	// for the I/II only; a III that answers them is taken at its word.
	Side string
	// Period is the sample period an I/II streams at; 10 ms = 100 Hz. A
	// III streams at its own rate (90 Hz).
	Period time.Duration
	// Mode: an I/II streams or is polled; a III only streams.
	Mode Mode
	// StatusByte asks an I/II to append its status byte (switch, glove
	// in); a III's records have none.
	StatusByte bool
	// ReadTimeout bounds each port read (the serial line's VTIME; 100 ms is
	// its resolution and the default).
	ReadTimeout time.Duration
	// ReplyTimeout bounds the wait for a query's reply.
	ReplyTimeout time.Duration
	// MinBackoff and MaxBackoff bound the wait between reopen attempts.
	MinBackoff, MaxBackoff time.Duration
	// Open opens the port; nil means serialport.Open.
	Open serialport.Opener
	// Tap, if set, receives every chunk of bytes read from the port with
	// the time it arrived, before parsing: what a recording stores. An
	// empty chunk means the port was (re)opened and the parser reset.
	Tap func(t time.Duration, b []byte)
}

// DefaultOpts are the settings of a current CyberGlove II on USB.
var DefaultOpts = Opts{
	Baud:         115200,
	Model:        ModelII,
	Period:       10 * time.Millisecond,
	Mode:         Stream,
	StatusByte:   true,
	ReadTimeout:  100 * time.Millisecond,
	ReplyTimeout: 500 * time.Millisecond,
	MinBackoff:   100 * time.Millisecond,
	MaxBackoff:   2 * time.Second,
}

// Glove drives a CyberGlove unit over a serial line: the line (reads,
// timeouts, reconnection with backoff, the tap, the fault counters) is one
// for both generations; the open sequence and the record parser are the
// model's.
type Glove struct {
	opts   Opts
	start  time.Time
	parser devices.Parser
	faults devices.FaultLog
	info   devices.GloveInfo
	seq    uint64
	chunkT time.Duration // arrival time of the last chunk read
	// lastReport is when Read last returned a sample, a glove's error or
	// a timeout (or the port opened): bytes that make no record for
	// quietReads read timeouts past it are reported as a timeout.
	lastReport time.Duration
	buf        [256]byte

	line serialport.Line

	idleReads int // consecutive timed-out reads
	// startCmd is the stream's start command, sent by the first Read after
	// a handshake (nil once sent, and in polled mode): a unit opened
	// before its caller is ready to read (the daemon loads its scene
	// after opening the gloves) sends nothing meanwhile, so no backlog
	// waits in the line when reading begins.
	startCmd []byte
	noGlove  bool // the unit last reported the glove unplugged
	statPort bool // a real device node: its disappearance means unplugged
}

var (
	_ devices.Device       = (*Glove)(nil)
	_ devices.Info         = (*Glove)(nil)
	_ devices.FaultCounter = (*Glove)(nil)
	_ devices.Clock        = (*Glove)(nil)
)

// Open opens the port, stops any stale stream and drains it, queries the
// sensor count, glove status and handedness, and readies the stream: an
// I/II's after setting its sample period and status byte (or polling), a
// III's 16-bit one. The stream starts at the first Read, so that a caller
// that opens the glove long before it reads finds no backlog. A glove
// unplugged from the unit is not an error: Read reports ErrNoGlove until
// it is back.
func Open(o Opts) (*Glove, error) {
	statPort := o.Open == nil
	if o.Open == nil {
		o.Open = serialport.Open
	}
	switch o.Model {
	case "":
		o.Model = ModelII
	case ModelII:
	case ModelIII:
		if o.Mode == Poll {
			return nil, fmt.Errorf("cyberglove: a CyberGlove III streams its 16-bit records: it cannot be polled")
		}
	default:
		return nil, fmt.Errorf("cyberglove: model %q: want %s or %s", o.Model, ModelII, ModelIII)
	}
	if o.Sensors != 0 {
		if err := layout.Check(o.Sensors); err != nil {
			return nil, fmt.Errorf("cyberglove: %w", err)
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
	g := &Glove{opts: o, start: time.Now(), statPort: statPort}
	g.line = serialport.Line{Name: o.Port, Baud: o.Baud, ReadTimeout: o.ReadTimeout, MinBackoff: o.MinBackoff, MaxBackoff: o.MaxBackoff, Open: o.Open}
	port, err := o.Open(o.Port, o.Baud, o.ReadTimeout)
	if err != nil {
		return nil, err
	}
	if err := g.handshake(port); err != nil {
		port.Close()
		return nil, fmt.Errorf("cyberglove: %s: %w", o.Port, err)
	}
	g.line.Set(port)
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

// quietReads is how many read timeouts without a record make a stopped
// stream: the driver restarts it then, and reports a timeout as often when
// bytes arrive that make no record.
const quietReads = 3

// Read returns the next sample. Transient conditions return an error for
// which Transient is true (ErrNoGlove or a *GloveError, ErrTimeout,
// ErrDisconnected) and the next Read carries on; after Close it returns
// ErrClosed. A line that carries bytes but no record (a wrong baud rate,
// another device, a unit sending what the parser refuses) returns
// ErrTimeout every quietReads read timeouts, so that callers see it stall
// and the fault counters (skipped bytes, bad frames) are published.
func (g *Glove) Read(s *devices.Sample) error {
	defer g.faults.Publish()
	for {
		port, err := g.line.Ready(g.handshake, &g.faults.Counts)
		if err != nil {
			return err
		}
		if g.startCmd != nil {
			cmd := g.startCmd
			g.startCmd = nil
			if _, err := port.Write(cmd); err != nil {
				g.line.Lost(port)
				return fmt.Errorf("%w: start stream: %v", devices.ErrDisconnected, err)
			}
			// The quiet time counts from the start.
			g.lastReport = g.now()
		}
		ev, err := g.parser.Next(s)
		switch ev {
		case devices.GotSample:
			g.noGlove = false
			s.Time = g.chunkT // when the record's last byte arrived
			s.Seq = g.seq
			g.seq++
			g.lastReport = g.chunkT
			return nil
		case devices.GotError:
			g.lastReport = g.chunkT
			var ge *devices.GloveError
			if errors.As(err, &ge) && bytes.IndexByte(ge.Codes, 'g') >= 0 {
				g.noGlove = true
				return fmt.Errorf("%w (%v)", devices.ErrNoGlove, err)
			}
			return err
		}
		if now := g.now(); now-g.lastReport >= quietReads*g.opts.ReadTimeout {
			g.lastReport = now
			return g.quiet()
		}
		if g.opts.Mode == Poll && g.parser.Buffered() == 0 {
			if _, err := port.Write([]byte{'G'}); err != nil {
				g.line.Lost(port)
				return fmt.Errorf("%w: %v", devices.ErrDisconnected, err)
			}
		}
		n, err := port.Read(g.buf[:])
		if err != nil && err != io.EOF {
			g.line.Lost(port)
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
func (g *Glove) idle(port serialport.Conn) error {
	g.faults.Counts.Timeouts++
	g.idleReads++
	if _, err := os.Stat(g.opts.Port); err != nil && g.statPort {
		g.line.Lost(port)
		return fmt.Errorf("%w: %v", devices.ErrDisconnected, err)
	}
	if g.idleReads%quietReads == 0 && g.opts.Mode == Stream {
		// Some units stop streaming after an error; ask again.
		if _, err := port.Write(g.restart()); err != nil {
			g.line.Lost(port)
			return fmt.Errorf("%w: %v", devices.ErrDisconnected, err)
		}
	}
	g.lastReport = g.now()
	return g.quiet()
}

// quiet is the error for a time without records: the glove is still out
// of the unit, or no record came within the deadline.
func (g *Glove) quiet() error {
	if g.noGlove {
		return devices.ErrNoGlove
	}
	return devices.ErrTimeout
}

// Close stops the stream and closes the port; a Read in progress returns
// ErrClosed within one read timeout.
func (g *Glove) Close() error { return g.line.Close([]byte{0x03}) }
