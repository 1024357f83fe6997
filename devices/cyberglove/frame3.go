package cyberglove

import (
	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/cyberglove/layout"
)

// The CyberGlove III's 16-bit record, as the public drivers read it (see
// the package's Source): a 14-byte ASCII stamp HH:MM:SS:ff:nS, 22 big-endian
// uint16 sensor values of 12 bits, and the trailer 0D 0A 00.
const (
	StampLen   = 14
	Trailer3   = "\r\n\x00"
	Record3Len = StampLen + 2*layout.Slots + len(Trailer3) // 61
	// Max3 is the largest value the reference documents (1..4094).
	Max3 = 4094
)

// Parser3 splits a CyberGlove III's 16-bit stream into records: a stamp,
// 22 values and the trailer, or, in place of the values, an error tail
// 'e' code ['e' code] ended by the trailer or a bare 0x00 (the reference
// documents no error form for this stream; this is the I/II's tail after
// the stamp, and both ends are accepted). Spurious fragments nS and e1S (n
// a digit: the echo of the command 1S) before a stamp are skipped without
// losing step.
//
// How it resynchronises. The reference says to resynchronise on the
// trailer, but the trailer alone cannot be trusted: a value of 0x0D0A (3338)
// followed by one below 256, or a low byte 0x0D followed by 0x0A00 (2560),
// puts 0D 0A 00 inside the values. What cannot occur inside the values is
// a stamp: every other byte there is a high byte, at most 0x0F, and every
// stamp byte is a digit, ':' or 'S'; so a window of 14 bytes that fits the
// stamp's form starts a record, or lies in garbage. The parser therefore
// accepts a record only where the whole of it fits: a stamp, 22 high bytes
// of at most 0x0F and the trailer at byte 58; and, like the I/II parser,
// only when what follows it, as far as it has arrived, begins another
// stamp (after an optional fragment). After any framing error, and at the
// start, it is unlocked, and while unlocked it waits for the whole of the
// next stamp before accepting: garbage that holds no ':' cannot complete
// a stamp, so it can neither forge a record nor shift one (a record that
// garbage lengthened is followed by its own tail, which holds the trailer
// bytes or high bytes where the next stamp should be). Locked, a record is
// accepted as soon as it is whole; the one thing that can then pass is a
// record that garbage lengthened by an even count of at least 4 bytes
// after its stamp, whose own values hold 0D 0A 00 where the lengthening
// moved the trailer, when its tail has not yet arrived: the values come
// out shifted. No checksum protects the stream, so no parser can exclude
// that; this one cannot stay misaligned after it, since the next bytes
// are the record's tail, not a stamp, and the parser unlocks and finds the
// next stamp.
//
// Values 0 and 4095 fit the framing but lie outside the documented range:
// they are clamped to 1 and 4094 and counted (Faults.OutOfRange), so a
// saturated sensor does not stop the stream. An 18-sensor glove's record
// is taken to hold 22 values with the DIP slots unused (the reference
// shows only the 22-value record; CyberGlove Systems' BCI2000 module
// reports an 18-sensor glove's DIP values as 0): those slots are framed
// but not read.
//
// Parser3 allocates nothing after construction.
type Parser3 struct {
	Sensors int // 18 or 22: which of the record's values are sensors
	Faults  *devices.Faults
	window
	locked bool
	tail   errorTail
}

// NewParser3 returns a parser for a III of sensors sensors. Faults may be nil.
func NewParser3(sensors int, faults *devices.Faults) *Parser3 {
	if faults == nil {
		faults = &devices.Faults{}
	}
	return &Parser3{Sensors: sensors, Faults: faults, window: newWindow()}
}

// Reset forgets buffered bytes and the lock, as after reopening a port.
func (p *Parser3) Reset() {
	p.clear()
	p.locked = false
}

// Locked reports whether the parser is in step with the record boundaries.
func (p *Parser3) Locked() bool { return p.locked }

// Feed appends bytes read from the port. If garbage has filled the buffer,
// the oldest bytes are discarded (and counted).
func (p *Parser3) Feed(b []byte) {
	p.Faults.SkippedBytes += uint64(p.feed(b))
}

func (p *Parser3) skip(n int) {
	p.advance(n)
	p.Faults.SkippedBytes += uint64(n)
}

// Next decodes the next record into s (devices.Parser.Next).
func (p *Parser3) Next(s *devices.Sample) (devices.Event, error) {
	for {
		b := p.pending()
		if len(b) == 0 {
			return devices.NeedMore, nil
		}
		v, n, isErr := frame3(b)
		switch v {
		case partial:
			return devices.NeedMore, nil
		case whole:
			next := nextStart(b[n:])
			if next == broken {
				p.reject()
				continue
			}
			if next == partial && !p.locked {
				return devices.NeedMore, nil
			}
			if !p.locked {
				p.locked = true
				p.Faults.Resyncs++
			}
			ev := p.decode(b[:n], isErr, s)
			p.advance(n)
			if ev == devices.GotError {
				return ev, &p.tail.err
			}
			return ev, nil
		}
		if k, part := fragment(b); k > 0 {
			p.skip(k)
			continue
		} else if part {
			return devices.NeedMore, nil
		}
		if p.locked || len(b) >= StampLen && stampFits(b[:StampLen]) {
			// Where a record should start, or a record start whose
			// record is malformed.
			p.reject()
			continue
		}
		p.skip(1)
	}
}

// reject counts a malformed record, unlocks and moves one byte on.
func (p *Parser3) reject() {
	p.Faults.BadFrames++
	p.locked = false
	p.skip(1)
}

// decode fills s from a whole record r, or sets the error tail.
func (p *Parser3) decode(r []byte, isErr bool, s *devices.Sample) devices.Event {
	if isErr {
		if r[StampLen+2] == 'e' {
			p.tail.set(p.Faults, r[StampLen+1], r[StampLen+3], 2)
		} else {
			p.tail.set(p.Faults, r[StampLen+1], 0, 1)
		}
		return devices.GotError
	}
	s.N, s.NAngles = p.Sensors, 0
	if p.Sensors == layout.Slots {
		for k := range layout.Slots {
			s.Raw[k] = p.value(r, k)
		}
	} else {
		for i, k := range layout.Sensors18 {
			s.Raw[i] = p.value(r, k)
		}
	}
	clear(s.Raw[p.Sensors:])
	s.Bits = devices.Bits12
	s.GloveTime = decodeStamp(r).Count()
	s.Status = 0
	return devices.GotSample
}

// value reads value k of record r, clamped to 1..Max3 (and counted if it
// was not).
func (p *Parser3) value(r []byte, k int) uint16 {
	v := uint16(r[StampLen+2*k])<<8 | uint16(r[StampLen+2*k+1])
	switch {
	case v == 0:
		p.Faults.OutOfRange++
		return 1
	case v > Max3:
		p.Faults.OutOfRange++
		return Max3
	}
	return v
}

// verdict is what a check of the bytes at the parser's offset found.
type verdict uint8

const (
	partial verdict = iota // consistent so far: more bytes are needed
	broken                 // cannot be what was checked for
	whole                  // complete and well formed
)

// frame3 checks a record at the start of b: a stamp, then 22 values whose
// high bytes are at most 0x0F and the trailer, or an error tail in place
// of the values. It returns the verdict, the record's length when whole,
// and whether it is an error tail.
func frame3(b []byte) (v verdict, n int, isErr bool) {
	if !stampFits(b) {
		return broken, 0, false
	}
	if len(b) <= StampLen {
		return partial, 0, false
	}
	if b[StampLen] == 'e' {
		v, n := errorTail3(b[StampLen:])
		return v, StampLen + n, true
	}
	for k := StampLen; k < Record3Len-len(Trailer3); k += 2 {
		if k >= len(b) {
			return partial, 0, false
		}
		if b[k] > 0x0F {
			return broken, 0, false
		}
	}
	for j := range len(Trailer3) {
		k := Record3Len - len(Trailer3) + j
		if k >= len(b) {
			return partial, 0, false
		}
		if b[k] != Trailer3[j] {
			return broken, 0, false
		}
	}
	return whole, Record3Len, false
}

// errorTail3 checks 'e' code ['e' code] and then the trailer or a bare
// 0x00 at the start of b (b[0] is 'e'), and returns its length when whole.
// A code is any byte but 0x00 and 0x0D, which would end the tail.
func errorTail3(b []byte) (verdict, int) {
	for i := 1; ; i += 2 {
		if i >= len(b) {
			return partial, 0
		}
		if b[i] == 0 || b[i] == '\r' {
			return broken, 0
		}
		if i+1 >= len(b) {
			return partial, 0
		}
		switch c := b[i+1]; {
		case c == 0:
			return whole, i + 2
		case c == '\r':
			for j := 1; j < len(Trailer3); j++ {
				if i+1+j >= len(b) {
					return partial, 0
				}
				if b[i+1+j] != Trailer3[j] {
					return broken, 0
				}
			}
			return whole, i + 1 + len(Trailer3)
		case c == 'e' && i == 1:
			continue // a second code
		}
		return broken, 0
	}
}

// nextStart checks what follows a record, as far as it has arrived: an
// optional fragment, then a stamp.
func nextStart(b []byte) verdict {
	if n, part := fragment(b); part {
		return partial
	} else if n > 0 {
		b = b[n:]
	}
	if !stampFits(b) {
		return broken
	}
	if len(b) < StampLen {
		return partial
	}
	return whole
}

// fragment reports a spurious fragment at the start of b, nS or e1S (n a
// digit): its length, or 0 with partial set when b ends inside what may
// still be one.
func fragment(b []byte) (n int, partial bool) {
	i := 0
	if len(b) > 0 && b[0] == 'e' {
		i = 1
	}
	switch {
	case len(b) == i:
		return 0, i == 1
	case !isDigit(b[i]):
		return 0, false
	case len(b) == i+1:
		return 0, true
	case b[i+1] != 'S':
		return 0, false
	}
	return i + 2, false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// AppendRecord3 appends one record as a CyberGlove III streams it: the
// stamp, the 22 values big-endian, the trailer. The values are sent as
// given; a unit's are 1..Max3.
func AppendRecord3(b []byte, st Stamp, v *[layout.Slots]uint16) []byte {
	b = st.Append(b)
	for _, x := range v {
		b = append(b, byte(x>>8), byte(x))
	}
	return append(b, Trailer3...)
}

// AppendError3 appends what the emulator sends in place of a record while
// the glove is unplugged from the unit: the stamp, 'e' and the code, and
// the trailer (the form Parser3 takes for an error in this stream).
func AppendError3(b []byte, st Stamp, code byte) []byte {
	b = append(st.Append(b), 'e', code)
	return append(b, Trailer3...)
}
