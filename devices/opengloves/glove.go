package opengloves

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/serialport"
)

// Opts configures the driver.
type Opts struct {
	Port string // /dev/ttyUSB0, /dev/rfcomm0 (Bluetooth serial), or an emulator's pty
	Baud int    // 115200, the firmware's
	Max  int    // the values' full scale: MaxESP32 or MaxAVR
	// Right: the glove is a right one. The LucidGloves firmware does not
	// say; its [[hand]]'s side does.
	Right bool
	// The line's read timeout and reopening backoff (serialport.Line),
	// its opener (nil: serialport.Open), and the tap that sees what each
	// read gave, before parsing (nil bytes: the port reopened, the parser
	// reset), for a recording.
	ReadTimeout, MinBackoff, MaxBackoff time.Duration
	Open                                serialport.Opener
	Tap                                 func(t time.Duration, b []byte)
}

// DefaultOpts are an ESP32 LucidGloves glove's on USB.
var DefaultOpts = Opts{
	Baud:        115200,
	Max:         MaxESP32,
	Right:       true,
	ReadTimeout: 100 * time.Millisecond,
	MinBackoff:  100 * time.Millisecond,
	MaxBackoff:  2 * time.Second,
}

// start is written when the port opens: "(ZA)" asks a firmware that
// waits for it to start streaming (the LucidGloves firmware streams
// anyway, and skips any line shorter than five bytes).
var start = []byte("(ZA)\n")

// Glove reads an OpenGloves glove on a serial line. After each line the
// glove sends, a sample or not, it answers one line, as the OpenGloves
// driver does: what Send queued, or an empty line. A LucidGloves firmware
// built with force feedback waits up to a second for that line after
// each of its own (a line garbage spoiled included).
type Glove struct {
	opts   Opts
	start  time.Time
	parser *Parser
	faults devices.FaultLog
	info   devices.GloveInfo
	seq    uint64
	chunkT time.Duration
	// lastReport is when Read last returned a sample or a timeout (or the
	// port opened): bytes that make no sample for quietReads read
	// timeouts past it are reported as a timeout.
	lastReport time.Duration
	// reported are the fault counts when Read last returned: lines
	// refused since, and no sample, are said (refused).
	reported devices.Faults
	buf      [256]byte

	line serialport.Line

	outMu sync.Mutex
	out   [MaxLine]byte // the queued line and the answer's newline
	outN  int
	reply [MaxLine]byte // the answer being written, outside outMu
	// reply[tail:tailEnd] is the rest of an answer the line took only
	// part of, written before any other, so that the glove never sees
	// two answers run together.
	tail, tailEnd int
	// answered is the parser's line count when the glove was last
	// answered.
	answered uint64

	statPort bool
}

var (
	_ devices.Device       = (*Glove)(nil)
	_ devices.Info         = (*Glove)(nil)
	_ devices.FaultCounter = (*Glove)(nil)
	_ devices.Clock        = (*Glove)(nil)
	_ devices.Sender       = (*Glove)(nil)
)

// quietReads is how many read timeouts without a sample make a timeout.
const quietReads = 3

// Open opens the port and asks the glove to stream. Nothing answers an
// open: the lines that follow are what Read checks.
func Open(o Opts) (*Glove, error) {
	statPort := o.Open == nil
	if o.Open == nil {
		o.Open = serialport.Open
	}
	for _, d := range []time.Duration{o.ReadTimeout, o.MinBackoff, o.MaxBackoff} {
		if d <= 0 {
			return nil, fmt.Errorf("opengloves: timeouts and backoffs must be positive: %+v", o)
		}
	}
	g := &Glove{opts: o, start: time.Now(), statPort: statPort}
	g.line = serialport.Line{Name: o.Port, Baud: o.Baud, ReadTimeout: o.ReadTimeout, MinBackoff: o.MinBackoff, MaxBackoff: o.MaxBackoff, Open: o.Open}
	var err error
	if g.parser, err = NewParser(o.Max, &g.faults.Counts); err != nil {
		return nil, err
	}
	// Not Assumed: nothing is asked of an OpenGloves glove, and its side
	// is always its [[hand]]'s (the daemon's warning of an assumed unit
	// speaks of a CyberGlove's queries).
	g.info = devices.GloveInfo{Model: Name, Sensors: Channels, Right: o.Right}
	port, err := o.Open(o.Port, o.Baud, o.ReadTimeout)
	if err != nil {
		return nil, err
	}
	if err := g.begin(port); err != nil {
		port.Close()
		return nil, fmt.Errorf("opengloves: %s: %w", o.Port, err)
	}
	g.line.Set(port)
	g.faults.Publish()
	return g, nil
}

// begin starts a freshly opened port: the parser reset (and the reset
// marked in the tap), the start line written.
func (g *Glove) begin(port serialport.Conn) error {
	g.parser.Reset()
	g.tail, g.tailEnd = 0, 0
	g.lastReport, g.reported = g.now(), g.faults.Counts
	if g.opts.Tap != nil {
		g.opts.Tap(g.now(), nil)
	}
	// A line whose output is full (a glove that reads nothing) drops the
	// start line: its glove cannot be waiting for it.
	if _, err := write(port, start); g.dropped(err) != nil {
		return fmt.Errorf("start stream: %w", err)
	}
	return nil
}

// Epoch returns when Sample.Time was zero (the driver was opened).
func (g *Glove) Epoch() time.Time { return g.start }

// GloveInfo says what the glove is: its side is the configuration's.
func (g *Glove) GloveInfo() devices.GloveInfo { return g.info }

// Faults returns the fault counters as of the last Read.
func (g *Glove) Faults() devices.Faults { return g.faults.Load() }

// Parser returns the driver's parser, for what the glove's info reply
// said (Parser.Info); only the goroutine that reads may call its methods.
func (g *Glove) Parser() *Parser { return g.parser }

func (g *Glove) now() time.Duration { return time.Since(g.start) }

// ErrLineTooLong is a line Send cannot queue.
var ErrLineTooLong = errors.New("opengloves: a line to the glove must fit in 511 bytes and hold no newline but its last byte")

// Send queues a line (force feedback "A..E", a haptic pulse "F G H"; its
// newline may be left out) to be written after the next line the glove
// sends, replacing one queued and not yet written (the glove acts on the
// latest). Any goroutine may call it; it allocates nothing.
func (g *Glove) Send(line []byte) error {
	if n := len(line); n > 0 && line[n-1] == '\n' {
		line = line[:n-1]
	}
	for _, c := range line {
		if c == '\n' {
			return ErrLineTooLong
		}
	}
	if len(line) >= MaxLine {
		return ErrLineTooLong
	}
	g.outMu.Lock()
	g.outN = copy(g.out[:], line)
	g.outMu.Unlock()
	return nil
}

// answer writes the queued line, or an empty one, with its newline,
// without waiting: a glove that reads nothing it is sent (a firmware
// that never reads, a Bluetooth link that stopped draining) fills the
// line's output, and then the answer is dropped (counted) rather than
// the reading stopped. A queued line dropped stays queued for the next
// answer, unless Send replaced it meanwhile.
func (g *Glove) answer(port serialport.Conn) error {
	if g.tail < g.tailEnd {
		n, err := write(port, g.reply[g.tail:g.tailEnd])
		g.tail += n
		if err != nil {
			return g.dropped(err)
		}
	}
	g.outMu.Lock()
	n := copy(g.reply[:], g.out[:g.outN])
	g.outN = 0
	g.outMu.Unlock()
	g.reply[n] = '\n'
	w, err := write(port, g.reply[:n+1])
	if w == 0 && n > 0 {
		g.outMu.Lock()
		if g.outN == 0 {
			g.outN = copy(g.out[:], g.reply[:n])
		}
		g.outMu.Unlock()
	}
	if w > 0 {
		g.tail, g.tailEnd = w, n+1
		if errors.Is(err, serialport.ErrFull) {
			return nil // not dropped: its rest goes first next time
		}
	}
	return g.dropped(err)
}

// dropped counts an answer the full line did not take, and returns any
// other write error, which means the line is gone.
func (g *Glove) dropped(err error) error {
	if errors.Is(err, serialport.ErrFull) {
		g.faults.Counts.DroppedReplies++
		return nil
	}
	return err
}

// write writes b as far as the line takes it at once (a line without
// TryWrite, a test's fake, takes it whole).
func write(port serialport.Conn, b []byte) (int, error) {
	if w, ok := port.(serialport.TryWriter); ok {
		return w.TryWrite(b)
	}
	return port.Write(b)
}

// Read returns the next sample. Transient conditions return an error for
// which devices.Transient is true (ErrTimeout when no line that is a
// sample came for quietReads read timeouts, a devices.RefusedError when
// lines came then but each was refused, ErrDisconnected while the
// port is away and being reopened); after Close it returns ErrClosed.
func (g *Glove) Read(s *devices.Sample) error {
	defer g.faults.Publish()
	for {
		port, err := g.line.Ready(g.begin, &g.faults.Counts)
		if err != nil {
			return err
		}
		ev, _ := g.parser.Next(s)
		if n := g.parser.Lines(); n != g.answered {
			g.answered = n
			if err := g.answer(port); err != nil {
				g.line.Lost(port)
				return fmt.Errorf("%w: %v", devices.ErrDisconnected, err)
			}
		}
		if ev == devices.GotSample {
			s.Time, s.Seq = g.chunkT, g.seq
			g.seq++
			g.lastReport = g.chunkT
			g.reported = g.faults.Counts
			return nil
		}
		if now := g.now(); now-g.lastReport >= quietReads*g.opts.ReadTimeout {
			g.lastReport = now
			if err := g.refused(); err != nil {
				return err
			}
			return devices.ErrTimeout
		}
		n, err := port.Read(g.buf[:])
		if err != nil && err != io.EOF {
			g.line.Lost(port)
			return fmt.Errorf("%w: %v", devices.ErrDisconnected, err)
		}
		if n == 0 {
			g.faults.Counts.Timeouts++
			if _, err := os.Stat(g.opts.Port); err != nil && g.statPort {
				g.line.Lost(port)
				return fmt.Errorf("%w: %v", devices.ErrDisconnected, err)
			}
			continue
		}
		g.chunkT = g.now()
		if g.opts.Tap != nil {
			g.opts.Tap(g.chunkT, g.buf[:n])
		}
		g.parser.Feed(g.buf[:n])
	}
}

// refused says, when lines came since Read last returned and every one
// was refused, why as far as the counts tell (devices.RefusedError); nil
// otherwise.
func (g *Glove) refused() error {
	now, was := g.faults.Counts, g.reported
	g.reported = now
	if now.BadFrames == was.BadFrames {
		return nil
	}
	why := "malformed lines (check the baud rate and the glove's firmware)"
	if now.OutOfRange > was.OutOfRange {
		why = fmt.Sprintf("values above options.max = %d", g.parser.Max())
		if g.parser.Max() < MaxESP32 {
			why += fmt.Sprintf(" (an ESP32 board sends up to %d: set max = %d)", MaxESP32, MaxESP32)
		}
	}
	return &devices.RefusedError{Why: why}
}

// released is written when the glove is closed: every servo free. The
// LucidGloves firmware moves its servos only on a line it receives, so
// without it a finger held at a contact stays blocked until the glove is
// power-cycled. The newline first ends any answer the line took only part
// of, which the firmware would otherwise read run together with it (an
// empty line sets nothing).
var released = append([]byte{'\n'}, AppendFeedback(nil, &[5]uint16{}, 0, 0, 0)...)

// Close frees the glove's servos (released, written within the line's
// write timeout, dropped if its output stays full) and closes the port; a
// Read in progress returns ErrClosed within one read timeout. The glove
// is not told to stop: the next program to open it finds it streaming, as
// the OpenGloves driver leaves it.
func (g *Glove) Close() error { return g.line.Close(released) }
