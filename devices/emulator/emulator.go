package emulator

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/cyberglove"
	"github.com/gloved/gloved/devices/cyberglove/layout"
)

// Opts configures a glove emulator.
type Opts struct {
	// Model is the unit emulated: a CyberGlove I/II (the default) or a
	// III, which also answers 1eu and 1S with its 16-bit stream.
	Model   cyberglove.Model
	Sensors int  // 18 or 22
	Right   bool // handedness reported by ?R
	// Source fills the 22 sensor slots at time t since the emulator
	// started; values are clamped to the 8-bit range 1..254.
	Source Source
	// Garbage is the probability, per record sent, of a burst of 1-16
	// garbage bytes inserted before or inside it. Garbage bytes are never
	// 0x00, 'S' or 'G' (in a III's 16-bit stream, never ':'): those could
	// forge a record (the protocol has no checksum), and the driver's
	// guarantee is stated for garbage that cannot. In the 16-bit stream one
	// fault in four is instead a spurious fragment, 1S or e1S, before the
	// record.
	Garbage float64
	// Lose is the probability, per streamed record, that the line loses
	// it: it is not sent at all, as when a flaky adapter drops bytes or a
	// second reader of the port takes them.
	Lose float64
	Seed uint64
	// UnplugAt and UnplugFor unplug the glove from the unit for a while:
	// records become 'e' 'g' error tails and ?G reports it missing.
	UnplugAt, UnplugFor time.Duration
	// SilentAt and SilentFor make the unit go silent for a while, as a hung
	// unit or a stopped process: no records, no replies; commands sent
	// meanwhile are lost.
	SilentAt, SilentFor time.Duration
	// OnRecord, if set, is called with every record's sensor values as
	// sent (after clamping), in order: tests compare against it.
	OnRecord func(raw []uint16)
	// OnWrite, if set, is called with the time just before each streamed
	// record is written to the port: the start of a glove-to-OSC latency
	// measurement (gloved bench latency).
	OnWrite func(time.Time)
	// Period3 is the III's 16-bit stream period; 0 is 1/90 s (90 Hz, frame
	// multiplier 3). Tests shorten it.
	Period3 time.Duration
}

// Stats counts what an emulator did. Unread counts the bytes sent that no
// reader had taken when the port hung up (or closed): the pseudo-terminal
// discards them, as an unplugged adapter loses what it holds.
type Stats struct {
	Records, ErrorTails, GarbageBursts, Fragments, Commands int
	Lost                                                    int // streamed records not sent (Opts.Lose)
	Unread                                                  int
}

// Emulator answers the CyberGlove I/II protocol like an interface unit:
// ^C, ^R, the queries ?S ?G ?R ?N ?T ?i, the settings t/T (period), u/U
// (status byte), d/D (timestamp), streaming S and polling G; as a
// CyberGlove III also 1eu and 1S (emulator3.go). Unknown commands get
// 'e' '?'.
type Emulator struct {
	opts  Opts
	start time.Time
	rng   *rand.Rand

	mu        sync.Mutex
	stats     Stats
	streaming bool
	ended     bool // EndStream: no more records, whatever the host asks
	wide      bool // the stream is the III's 16-bit one
	usb       bool // a III was sent 1eu
	period    time.Duration
	status    bool
	timestamp bool
	pending   []byte
}

// New returns an emulator; its clock starts now.
func New(o Opts) (*Emulator, error) {
	if err := layout.Check(o.Sensors); err != nil {
		return nil, fmt.Errorf("emulator: %w", err)
	}
	switch o.Model {
	case "":
		o.Model = cyberglove.ModelII
	case cyberglove.ModelII, cyberglove.ModelIII:
	default:
		return nil, fmt.Errorf("emulator: model %q: want %s or %s", o.Model, cyberglove.ModelII, cyberglove.ModelIII)
	}
	if o.Period3 == 0 {
		o.Period3 = time.Second / 90
	}
	if o.Period3 < time.Millisecond {
		return nil, fmt.Errorf("emulator: 16-bit stream period %v: want 1 ms or more", o.Period3)
	}
	if err := checkFaults(o.Source, o.Garbage); err != nil {
		return nil, err
	}
	if o.Lose < 0 || o.Lose > 1 {
		return nil, fmt.Errorf("emulator: loss rate %v: want 0..1", o.Lose)
	}
	return &Emulator{opts: o, start: time.Now(), rng: rand.New(rand.NewPCG(o.Seed, o.Seed^0x9e3779b97f4a7c15)), period: 10 * time.Millisecond}, nil
}

// checkFaults checks what every emulated glove needs: a source, and a
// garbage rate that is a probability.
func checkFaults(src Source, garbage float64) error {
	if src == nil {
		return fmt.Errorf("emulator: emulator needs a source of sensor values")
	}
	if garbage < 0 || garbage > 1 {
		return fmt.Errorf("emulator: garbage rate %v: want 0..1", garbage)
	}
	return nil
}

// Stats returns the counters.
func (e *Emulator) Stats() Stats {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.stats
}

// lose counts n bytes sent that a hang-up discarded.
func (e *Emulator) lose(n int) {
	e.mu.Lock()
	e.stats.Unread += n
	e.mu.Unlock()
}

func (e *Emulator) epoch() time.Time { return e.start }

func (e *Emulator) now() time.Duration { return time.Since(e.start) }

func (e *Emulator) unplugged(t time.Duration) bool {
	return e.opts.UnplugFor > 0 && t >= e.opts.UnplugAt && t < e.opts.UnplugAt+e.opts.UnplugFor
}

func (e *Emulator) silent(t time.Duration) bool {
	return e.opts.SilentFor > 0 && t >= e.opts.SilentAt && t < e.opts.SilentAt+e.opts.SilentFor
}

// Serve answers commands read from conn and streams records to it until
// ctx is done or conn fails. It returns nil when ctx ends.
func (e *Emulator) Serve(ctx context.Context, conn io.ReadWriter) error {
	in, rerr := readCommands(ctx, conn)
	var next time.Time
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		streaming, period := e.pace()
		if streaming {
			if next.IsZero() {
				next = time.Now()
			}
			timer.Reset(time.Until(next))
		} else {
			next = time.Time{}
			timer.Reset(time.Hour)
		}
		var out []byte
		select {
		case <-ctx.Done():
			return nil
		case err := <-rerr:
			return err
		case b := <-in:
			if !e.silent(e.now()) {
				out = e.handle(b)
			}
		case <-timer.C:
			if !streaming {
				continue
			}
			next = next.Add(period)
			if !e.silent(e.now()) {
				out = e.streamed()
			}
		}
		if len(out) > 0 {
			if _, err := conn.Write(out); err != nil {
				return err
			}
		}
	}
}

// readCommands reads conn from a goroutine of its own until ctx ends or
// conn fails: each read's bytes on in, the failure on rerr.
func readCommands(ctx context.Context, conn io.Reader) (in <-chan []byte, rerr <-chan error) {
	got, fail := make(chan []byte), make(chan error, 1)
	go func() {
		buf := make([]byte, 256)
		for {
			n, err := conn.Read(buf)
			if n > 0 {
				select {
				case got <- append([]byte(nil), buf[:n]...):
				case <-ctx.Done():
					return
				}
			}
			if err != nil && err != io.EOF {
				fail <- err
				return
			}
			if n == 0 {
				select {
				case <-ctx.Done():
					return
				case <-time.After(5 * time.Millisecond):
				}
			}
		}
	}()
	return got, fail
}

// pace says whether the unit streams, and at what period.
func (e *Emulator) pace() (streaming bool, period time.Duration) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.wide {
		return e.streaming, e.opts.Period3
	}
	return e.streaming, e.period
}

// EndStream ends the stream for good, whatever the host asks later (a
// restart included): once it returns no record is made, and one made
// before is on its way. Commands are still answered. A test that compares
// what a reader got with what was sent ends the stream, waits until the
// reader has gone quiet, and then knows every record it should have.
func (e *Emulator) EndStream() {
	e.mu.Lock()
	e.ended = true
	e.mu.Unlock()
}

// streamed is the stream's next record, its write time told to OnWrite.
func (e *Emulator) streamed() []byte {
	e.mu.Lock()
	var rec []byte
	if e.ended {
		e.mu.Unlock()
		return nil
	}
	if e.opts.Lose > 0 && e.rng.Float64() < e.opts.Lose {
		e.stats.Lost++
		e.mu.Unlock()
		return nil
	}
	if e.wide {
		rec = e.record3()
	} else {
		rec = e.record(cyberglove.HeadStream)
	}
	e.mu.Unlock()
	if e.opts.OnWrite != nil {
		e.opts.OnWrite(time.Now())
	}
	return rec
}

// handle consumes command bytes and returns the replies.
func (e *Emulator) handle(b []byte) []byte {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.pending = append(e.pending, b...)
	var out []byte
	for len(e.pending) > 0 {
		n, reply := e.command(e.pending)
		if n == 0 {
			break // incomplete
		}
		e.stats.Commands++
		e.pending = e.pending[n:]
		out = append(out, reply...)
	}
	return out
}

// command parses one command at the start of p and returns its length (0
// if incomplete) and reply. Called with e.mu held.
func (e *Emulator) command(p []byte) (int, []byte) {
	c := p[0]
	switch {
	case c == 0x03:
		e.streaming, e.wide = false, false
		return 1, nil
	case c == 0x12:
		e.streaming, e.wide = false, false
		return 1, []byte{0x12, '\r', '\n', 0}
	case c >= '0' && c <= '9' && e.opts.Model == cyberglove.ModelIII:
		return e.unitCommand(p)
	case c == '?':
		if len(p) < 2 {
			return 0, nil
		}
		return 2, e.query(p[1])
	case c == 'S':
		e.streaming, e.wide = true, false
		return 1, nil
	case c == 'G':
		return 1, e.record(cyberglove.HeadPoll)
	case c == 'U' || c == 'D' || c == 'F' || c == 'L' || c == 'W' || c == 'Q' || c == 'Y':
		if len(p) < 2 {
			return 0, nil
		}
		e.set(c+'a'-'A', int(p[1]))
		return 2, []byte{c, 0}
	case c == 'T':
		if len(p) < 5 {
			return 0, nil
		}
		w1, w2 := binary.BigEndian.Uint16(p[1:3]), binary.BigEndian.Uint16(p[3:5])
		if !e.setPeriod(int(w1), int(w2)) {
			return 5, []byte{'T', 'e', 'n', 0}
		}
		return 5, []byte{'T', 0}
	case c >= 'a' && c <= 'z':
		end := bytes.IndexByte(p, '\r')
		if stop := bytes.IndexByte(p, 0x03); stop >= 0 && (end < 0 || stop < end) {
			// A ^C abandons the command begun (a CyberGlove III's 1eu
			// sent to a I/II left its "eu" waiting for a '\r' that never
			// came, and every later query unanswered): the ^C is next.
			return stop, nil
		}
		if end < 0 {
			if len(p) > 64 {
				return len(p), []byte{c, 'e', 'n', 0}
			}
			return 0, nil
		}
		return end + 1, e.ascii(c, strings.Fields(string(p[1:end])))
	}
	return 1, []byte{'e', '?', 0}
}

func (e *Emulator) ascii(c byte, args []string) []byte {
	nums := make([]int, len(args))
	for i, a := range args {
		v, err := strconv.Atoi(a)
		if err != nil {
			return []byte{c, 'e', 'n', 0}
		}
		nums[i] = v
	}
	switch c {
	case 't':
		if len(nums) != 2 || !e.setPeriod(nums[0], nums[1]) {
			return []byte{c, 'e', 'n', 0}
		}
	case 'u', 'd', 'f', 'l', 'w', 'q', 'y':
		if len(nums) != 1 {
			return []byte{c, 'e', 'n', 0}
		}
		e.set(c, nums[0])
	case 'g', 's':
		return []byte{c, 'e', '?', 0} // the ASCII records are not emulated
	default:
		return []byte{c, 'e', '?', 0}
	}
	return []byte{c, 0}
}

func (e *Emulator) set(c byte, v int) {
	switch c {
	case 'u':
		e.status = v != 0
	case 'd':
		e.timestamp = v != 0
	}
}

// setPeriod applies period = w1*w2/115200 s; faster than the link allows
// (about 2 ms for a record) is refused as the unit would ('e' 'n').
func (e *Emulator) setPeriod(w1, w2 int) bool {
	d := time.Duration(float64(w1) * float64(w2) / 115200 * float64(time.Second))
	if w1 <= 0 || w2 <= 0 || d < 2*time.Millisecond {
		return false
	}
	e.period = d
	return true
}

func (e *Emulator) query(x byte) []byte {
	t := e.now()
	switch x {
	case 'S', 'N':
		return []byte{'?', x, byte(e.opts.Sensors), 0}
	case 'G':
		st := byte(3)
		if e.unplugged(t) {
			st = 1
		}
		return []byte{'?', 'G', st, 0}
	case 'R':
		r := byte(0)
		if e.opts.Right {
			r = 1
		}
		return []byte{'?', 'R', r, 0}
	case 'T':
		w1 := uint16(e.period.Seconds() * 115200)
		return []byte{'?', 'T', byte(w1 >> 8), byte(w1), 0, 1, 0}
	case 'i':
		return append([]byte("?igloved CyberGlove emulator"), 0)
	}
	return []byte{'?', 'e', '?', 0}
}

// record builds the next record (or error tail) with fault injection.
// Called with e.mu held.
func (e *Emulator) record(head byte) []byte {
	t := e.now()
	if e.unplugged(t) {
		e.stats.ErrorTails++
		return []byte{head, 'e', 'g', 0}
	}
	var slots [layout.Slots]uint16
	e.opts.Source(t, &slots)
	var s devices.Sample
	layout.FromSlots(&slots, e.opts.Sensors, &s)
	var raw [layout.Slots]byte
	for i := range s.N {
		s.Raw[i] = min(max(s.Raw[i], 1), 254)
		raw[i] = byte(s.Raw[i])
	}
	f := cyberglove.Format{Sensors: s.N, Timestamp: e.timestamp, Status: e.status}
	rec := cyberglove.AppendRecord(make([]byte, 0, 40), head, f, raw[:s.N], uint32(t.Milliseconds()), byte(devices.StatusGloveIn))
	e.stats.Records++
	if e.opts.OnRecord != nil {
		e.opts.OnRecord(s.Raw[:s.N])
	}
	if e.opts.Garbage > 0 && e.rng.Float64() < e.opts.Garbage {
		rec = e.insertGarbage(rec, func(c byte) bool { return c == 0 || c == 'S' || c == 'G' })
	}
	return rec
}

// insertGarbage inserts a burst of 1-16 random bytes, none of them
// forbidden, at a random place in rec. Called with e.mu held.
func (e *Emulator) insertGarbage(rec []byte, forbidden func(byte) bool) []byte {
	e.stats.GarbageBursts++
	junk := make([]byte, 1+e.rng.IntN(16))
	for i := range junk {
		junk[i] = byte(e.rng.IntN(256))
		for forbidden(junk[i]) {
			junk[i] = byte(e.rng.IntN(256))
		}
	}
	at := e.rng.IntN(len(rec))
	return append(rec[:at], append(junk, rec[at:]...)...)
}
