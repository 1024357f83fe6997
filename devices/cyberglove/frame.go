package cyberglove

import (
	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/cyberglove/layout"
)

// Format describes the binary records a CyberGlove I/II unit sends.
type Format struct {
	Sensors   int  // 18 or 22
	Timestamp bool // 5 timestamp bytes follow the sensors (command D)
	Status    bool // a status byte follows (command U)
}

// RecordLen returns the length of one record, header and terminator
// included: 20 for 18 sensors, 24 for 22, plus 5 and 1 for the options.
func (f Format) RecordLen() int {
	n := 2 + f.Sensors
	if f.Timestamp {
		n += 5
	}
	if f.Status {
		n++
	}
	return n
}

// Validate reports a sensor count the protocol does not have.
func (f Format) Validate() error { return layout.Check(f.Sensors) }

// Record headers: the first byte of a streamed and of a polled record.
const (
	HeadStream = 'S'
	HeadPoll   = 'G'
)

// Parser splits a CyberGlove I/II byte stream into records by their framing:
// a header byte ('S' streamed or 'G' polled), the sensor bytes (never 0),
// the optional timestamp (never 0) and status bytes, then the 0x00
// terminator; or, instead of a record, an error tail 'e' code ['e' code]
// 0x00 after the header or in place of the terminator. A record whose
// terminator is not where the format puts it, or that holds a 0 where none
// may be, is rejected whole.
//
// The protocol has no checksum, so a byte changed inside a record without
// changing its length cannot be detected by anyone; what the parser
// guarantees is that it never joins bytes of different records into one.
// A record is also rejected when the byte after it has already arrived and
// does not start another record, and no record may start within one record
// length of a rejected one (see reject). After any framing error the parser is
// unlocked, and while unlocked (and at the start, where a stale stream may
// leave half a record) it waits for that byte before accepting, so a stray
// terminator inside garbage cannot start a false lock. Garbage that holds
// neither a 0 nor a header letter can therefore never forge a record; garbage
// that does can, in principle, since no checksum protects the stream. In
// polling mode (Confirm false) a reply is accepted on its own framing.
//
// Parser allocates nothing after construction.
type Parser struct {
	Format  Format
	Confirm bool // require the next header before accepting while unlocked
	Faults  *devices.Faults
	window
	locked bool
	forbid int // bytes from off at which no record may start
	tail   errorTail
}

// NewParser returns a parser for the format. Faults may be nil.
func NewParser(f Format, confirm bool, faults *devices.Faults) *Parser {
	if faults == nil {
		faults = &devices.Faults{}
	}
	return &Parser{Format: f, Confirm: confirm, Faults: faults, window: newWindow()}
}

// Reset forgets buffered bytes and the lock, as after reopening a port.
func (p *Parser) Reset() {
	p.clear()
	p.locked, p.forbid = false, 0
}

// Locked reports whether the parser is in step with the record boundaries.
func (p *Parser) Locked() bool { return p.locked }

// Feed appends bytes read from the port. If garbage has filled the buffer,
// the oldest bytes are discarded (and counted).
func (p *Parser) Feed(b []byte) {
	if n := p.feed(b); n > 0 {
		p.forbid = max(p.forbid-n, 0)
		p.Faults.SkippedBytes += uint64(n)
	}
}

func (p *Parser) skip(n int) {
	p.forbid = max(p.forbid-n, 0)
	p.advance(n)
	p.Faults.SkippedBytes += uint64(n)
}

// reject drops the header byte of a malformed record and unlocks. A record
// that was too long (no terminator where the format puts it) forbids any
// record to start within its length: when garbage is inserted into a
// record, a sensor byte that happens to read 'S' can line up with the
// record's real terminator, and that forged frame always starts inside the
// rejected one. A record cut short (a 0 before its end: bytes were dropped)
// forbids only up to that 0, where the next record starts.
func (p *Parser) reject(span int) {
	p.Faults.BadFrames++
	p.locked = false
	p.forbid = max(p.forbid, span)
	p.skip(1)
}

func isHeader(b byte) bool { return b == HeadStream || b == HeadPoll }

// Next decodes the next record into s (devices.Parser.Next).
func (p *Parser) Next(s *devices.Sample) (devices.Event, error) {
	for {
		b := p.pending()
		// Find a header, outside the window after a rejected record.
		i := min(p.forbid, len(b))
		for i < len(b) && !isHeader(b[i]) {
			i++
		}
		if i > 0 {
			if p.locked && !(i == 1 && b[0] == 0) {
				p.locked = false
				p.Faults.BadFrames++
			}
			p.skip(i)
			continue
		}
		if len(b) < 2 {
			return devices.NeedMore, nil
		}
		if b[1] == 'e' {
			ev, n := p.errorTail(b[1:])
			switch ev {
			case devices.NeedMore:
				return devices.NeedMore, nil
			case devices.GotError:
				p.advance(1 + n)
				return devices.GotError, &p.tail.err
			}
			// Not an error tail: maybe a record whose first sensor reads 'e'.
		}
		ev, window := p.record(b, s)
		if ev != badRecord {
			return ev, p.tailErr(ev)
		}
		p.reject(window)
	}
}

const badRecord devices.Event = 255

// errorTail parses 'e' code [ 'e' code ] 0x00 at the start of b and returns
// devices.GotError with its length, devices.NeedMore, or badRecord when b does not hold one.
func (p *Parser) errorTail(b []byte) (devices.Event, int) {
	if len(b) < 3 {
		return devices.NeedMore, 0
	}
	if b[1] == 0 {
		return badRecord, 0
	}
	if b[2] == 0 {
		p.tail.set(p.Faults, b[1], 0, 1)
		return devices.GotError, 3
	}
	if b[2] != 'e' {
		return badRecord, 0
	}
	if len(b) < 5 {
		return devices.NeedMore, 0
	}
	if b[3] != 0 && b[4] == 0 {
		p.tail.set(p.Faults, b[1], b[3], 2)
		return devices.GotError, 5
	}
	return badRecord, 0
}

func (p *Parser) tailErr(ev devices.Event) error {
	if ev == devices.GotError {
		return &p.tail.err
	}
	return nil
}

// record checks and decodes a data record at the start of b. For a bad
// record it also returns how many bytes from its start no record may begin.
func (p *Parser) record(b []byte, s *devices.Sample) (devices.Event, int) {
	f := p.Format
	n := f.RecordLen()
	body := 1 + f.Sensors
	if f.Timestamp {
		body += 5
	}
	// Sensor and timestamp bytes are never 0.
	for k := 1; k < body && k < len(b); k++ {
		if b[k] == 0 {
			return badRecord, k + 1
		}
	}
	end := n - 1 // terminator position
	if len(b) <= end {
		return devices.NeedMore, 0
	}
	if b[end] == 'e' {
		// An error tail in place of the terminator.
		ev, tn := p.errorTail(b[end:])
		switch ev {
		case devices.GotError:
			p.advance(end + tn)
			p.locked = true
			return devices.GotError, 0
		case devices.NeedMore:
			return devices.NeedMore, 0
		}
		return badRecord, n
	}
	if b[end] != 0 {
		return badRecord, n
	}
	// The byte after the record, if it has arrived, must start the next
	// one: a frame that garbage forged, or that garbage cut, is usually
	// followed by more garbage. While unlocked it must have arrived.
	if len(b) > n && !isHeader(b[n]) {
		return badRecord, n
	}
	if !p.locked && p.Confirm && len(b) <= n {
		return devices.NeedMore, 0
	}
	s.N, s.NAngles = f.Sensors, 0
	for k := range f.Sensors {
		s.Raw[k] = uint16(b[1+k])
	}
	clear(s.Raw[f.Sensors:])
	s.Bits, s.GloveTime, s.Status = devices.Bits8, 0, 0
	at := 1 + f.Sensors
	if f.Timestamp {
		s.GloveTime = decodeTimestamp(b[at : at+5])
		at += 5
	}
	if f.Status {
		s.Status = devices.StatusValid | devices.Status(b[at]&0x07)
	}
	if !p.locked {
		p.locked = true
		p.Faults.Resyncs++
	}
	p.advance(n)
	return devices.GotSample, 0
}

// decodeTimestamp undoes the zero-avoiding encoding: byte 0 is a flag byte
// (never 0); bytes 1-4 are a 32-bit count, least significant first, where
// bit i of the flag (i = 1..4) says byte i was sent as 1 for a true 0.
// AppendRecord appends one record as a unit sends it: the header byte,
// the sensor bytes, the timestamp and status byte if the format has them,
// and the 0 terminator.
func AppendRecord(b []byte, head byte, f Format, raw []byte, ts uint32, status byte) []byte {
	b = append(b, head)
	b = append(b, raw...)
	if f.Timestamp {
		t := EncodeTimestamp(ts)
		b = append(b, t[:]...)
	}
	if f.Status {
		b = append(b, status)
	}
	return append(b, 0)
}

func decodeTimestamp(b []byte) uint32 {
	flag := b[0]
	var v uint32
	for i := 1; i <= 4; i++ {
		x := b[i] ^ ((flag >> i) & 1)
		v |= uint32(x) << (8 * (i - 1))
	}
	return v
}

// EncodeTimestamp is decodeTimestamp's inverse, for the emulator and tests.
func EncodeTimestamp(v uint32) [5]byte {
	var b [5]byte
	b[0] = 1 // bit 0 set so the flag byte itself is never 0
	for i := 1; i <= 4; i++ {
		x := byte(v >> (8 * (i - 1)))
		if x == 0 {
			x = 1
			b[0] |= 1 << i
		}
		b[i] = x
	}
	return b
}
