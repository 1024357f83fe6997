package opengloves

import (
	"bytes"

	"github.com/gloved/gloved/devices"
)

var _ devices.Parser = (*Parser)(nil)

// MaxLine is the longest line accepted, its newline included: a glove
// that sends every key there is, at 4095, sends 270 bytes (the
// LucidGloves firmware's own lines fit in its 100-byte buffer); longer is
// garbage or lines run together.
const MaxLine = 512

// bufCap bounds the parser's buffer: a few lines' worth of a read.
const bufCap = 4096

// Parser splits an OpenGloves glove's alpha-encoded stream into samples.
// A line is KEY value pairs ended by '\n' (a '\r' before it tolerated);
// a key is a capital letter or a bracketed group of them, "(AB)"; keys
// come in any order. Each line that carries at least one value becomes a
// sample of all Channels: a value key missing from it keeps its last
// value (until the first, a curl reads 0, a splay, joystick axis mid
// scale, the trigger 0), a flag missing from it is released. A finger
// whose per-joint curls the glove has not sent since the parser was reset
// has its four per-joint channels read its curl, so that its joints
// follow the curl by the calibration's ratio; once it sends one, its own
// are kept.
//
// A line is rejected whole, counted as a bad frame, and forges no sample
// when it holds a byte that is neither a key, a digit nor its end; a
// value key without its value, or whose value is above the maximum
// (counted also as out of range) or longer than five digits; a key twice
// (two lines run together when the newline between them was lost: every
// firmware line carries the curls); no value at all; or when it is longer
// than MaxLine. An unknown key is counted and skipped with its digits.
// The bytes before the first newline after the parser starts or is reset
// are discarded (the line was cut off when the port opened), as is
// everything up to the next newline after a line too long or bytes the
// buffer had to drop. An info reply (a line with Z) records what it says
// (Info) and is not a sample; an empty line is skipped.
//
// The protocol has no checksum: a byte changed into another key or digit
// inside a line cannot be detected by anyone. What the parser guarantees
// is that a line that is not whole and well formed is never a sample.
//
// Parser allocates nothing after NewParser.
type Parser struct {
	max    uint16 // the values' full scale, 1023 or 4095
	bits   uint8
	faults *devices.Faults

	buf  []byte
	off  int
	skip bool // discard up to the next newline

	lines  uint64           // newlines consumed: every line, sample or not
	state  [Channels]uint16 // the values as last sent
	joints uint8            // bit f: finger f has sent per-joint curls
	info   Info
}

// Info is what the glove's info reply said.
type Info struct {
	Seen     bool
	Firmware int // (ZV)
	Device   int // (ZG): 0 is a LucidGloves glove
	Hand     int // (ZH): 0 left, 1 right, -1 not said
}

// NewParser returns a parser for values up to max (MaxAVR or MaxESP32).
// faults may be nil.
func NewParser(max int, faults *devices.Faults) (*Parser, error) {
	bits, err := bitsOf(max)
	if err != nil {
		return nil, err
	}
	if faults == nil {
		faults = &devices.Faults{}
	}
	p := &Parser{max: uint16(max), bits: bits, faults: faults, buf: make([]byte, 0, bufCap)}
	p.Reset()
	return p, nil
}

// Max returns the values' full scale.
func (p *Parser) Max() int { return int(p.max) }

// Info returns what the glove's last info reply said.
func (p *Parser) Info() Info { return p.info }

// Reset forgets buffered bytes, the values held and which fingers sent
// per-joint curls, as after reopening a port: the next bytes are taken
// to start inside a line.
func (p *Parser) Reset() {
	p.buf, p.off, p.skip = p.buf[:0], 0, true
	p.state = [Channels]uint16{}
	for f := range 5 {
		p.state[Splay+f] = p.max / 2
	}
	p.state[JoyX], p.state[JoyY] = p.max/2, p.max/2
	p.joints = 0
	p.info = Info{Hand: -1}
}

// Lines returns how many lines Next has consumed since NewParser, whether
// they were samples or not: a driver answers each line the glove sends.
func (p *Parser) Lines() uint64 { return p.lines }

// Buffered returns how many unparsed bytes are held.
func (p *Parser) Buffered() int { return len(p.buf) - p.off }

// Feed appends bytes read from the port. When they do not fit beside the
// unparsed ones the oldest are dropped (counted), and the line they were
// part of with them.
func (p *Parser) Feed(b []byte) {
	for len(b) > 0 {
		if len(p.buf)+len(b) > cap(p.buf) && p.off > 0 {
			n := copy(p.buf, p.buf[p.off:])
			p.buf, p.off = p.buf[:n], 0
		}
		room := cap(p.buf) - len(p.buf)
		if room == 0 {
			half := len(p.buf) / 2
			p.faults.SkippedBytes += uint64(half)
			p.off += half
			p.skip = true
			continue
		}
		k := min(room, len(b))
		p.buf = append(p.buf, b[:k]...)
		b = b[k:]
	}
}

// Next decodes the next line that is a sample into s
// (devices.Parser.Next); an OpenGloves glove sends no errors.
func (p *Parser) Next(s *devices.Sample) (devices.Event, error) {
	for {
		pending := p.buf[p.off:]
		end := bytes.IndexByte(pending, '\n')
		if end < 0 {
			if len(pending) >= MaxLine {
				// Too long to be a line: drop it and what follows up to
				// the next newline.
				if !p.skip {
					p.faults.BadFrames++
				}
				p.discard(len(pending))
				p.skip = true
			}
			return devices.NeedMore, nil
		}
		line := pending[:end]
		p.lines++
		if p.skip {
			p.discard(end + 1)
			p.skip = false
			p.faults.Resyncs++
			continue
		}
		p.advance(end + 1)
		if end+1 > MaxLine {
			p.faults.BadFrames++
			continue
		}
		if p.decode(line, s) {
			return devices.GotSample, nil
		}
	}
}

func (p *Parser) advance(n int) {
	p.off += n
	if p.off == len(p.buf) {
		p.buf, p.off = p.buf[:0], 0
	}
}

func (p *Parser) discard(n int) {
	p.faults.SkippedBytes += uint64(n)
	p.advance(n)
}

// maxDigits is the longest value read: more is out of any range.
const maxDigits = 5

// decode reads one line (without its newline) and, if it is a sample,
// fills s and reports true.
func (p *Parser) decode(line []byte, s *devices.Sample) bool {
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	if len(line) == 0 {
		return false
	}
	var (
		got          [Channels]uint16
		seen         uint64 // bit c: channel c was in the line
		values       bool
		info         bool
		zv, zg, zh   = -1, -1, -1
		jointFingers uint8
	)
	bad := func() bool { p.faults.BadFrames++; return false }
	for i := 0; i < len(line); {
		var key []byte
		bracketed := line[i] == '('
		switch {
		case bracketed:
			close := bytes.IndexByte(line[i:], ')')
			if close < 2 || !capitals(line[i+1:i+close]) {
				return bad()
			}
			key = line[i+1 : i+close]
			i += close + 1
		case line[i] >= 'A' && line[i] <= 'Z':
			key = line[i : i+1]
			i++
		default:
			return bad()
		}
		digits, v := 0, 0
		for i < len(line) && line[i] >= '0' && line[i] <= '9' {
			if digits == maxDigits {
				p.faults.OutOfRange++
				return bad()
			}
			v = 10*v + int(line[i]-'0')
			digits++
			i++
		}
		k, ch := lookup(key, bracketed)
		switch k {
		case unknownKey:
			p.faults.UnknownKeys++
			continue
		case infoKey:
			info = true
			continue
		case infoField:
			if digits == 0 {
				return bad()
			}
			switch ch {
			case 'V':
				zv = v
			case 'G':
				zg = v
			case 'H':
				zh = v
			}
			continue
		}
		if seen&(1<<ch) != 0 {
			return bad()
		}
		seen |= 1 << ch
		if k == flagKey {
			continue // a flag's value, if any, says nothing: present is pressed
		}
		if digits == 0 {
			return bad()
		}
		if v > int(p.max) {
			p.faults.OutOfRange++
			return bad()
		}
		got[ch], values = uint16(v), true
		if ch >= Joint && ch < Joint+20 {
			jointFingers |= 1 << ((ch - Joint) / 4)
		}
	}
	if info {
		p.info = Info{Seen: true, Firmware: zv, Device: zg, Hand: zh}
		return false
	}
	if !values {
		return bad()
	}
	for c := range Flag {
		if seen&(1<<c) != 0 {
			p.state[c] = got[c]
		}
	}
	for c := Flag; c < Channels; c++ {
		p.state[c] = 0
		if seen&(1<<c) != 0 {
			p.state[c] = p.max
		}
	}
	p.joints |= jointFingers
	p.fill(s)
	return true
}

// fill writes the held values into s: a finger that never sent its
// per-joint curls has them read its curl.
func (p *Parser) fill(s *devices.Sample) {
	s.N, s.NAngles, s.Bits, s.GloveTime, s.Status = Channels, 0, p.bits, 0, 0
	copy(s.Raw[:], p.state[:])
	clear(s.Raw[Channels:])
	for f := range 5 {
		if p.joints&(1<<f) == 0 {
			for j := range 4 {
				s.Raw[Joint+4*f+j] = p.state[Curl+f]
			}
		}
	}
}

// capitals reports whether b is one or more capital letters.
func capitals(b []byte) bool {
	for _, c := range b {
		if c < 'A' || c > 'Z' {
			return false
		}
	}
	return len(b) > 0
}
