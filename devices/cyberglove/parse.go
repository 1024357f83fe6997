package cyberglove

import "github.com/gloved/gloved/devices"

var (
	_ devices.Parser = (*Parser)(nil)
	_ devices.Parser = (*Parser3)(nil)
)

// parserCap bounds a parser's buffer: a few hundred records.
const parserCap = 4096

// window holds a parser's unparsed bytes: feed appends at the back, the
// parser advances from the front, and when garbage has filled it the
// oldest half is dropped to make room. It allocates nothing after
// newWindow.
type window struct {
	buf []byte
	off int
}

func newWindow() window { return window{buf: make([]byte, 0, parserCap)} }

// Buffered returns how many unparsed bytes are held.
func (w *window) Buffered() int { return len(w.buf) - w.off }

// pending returns the unparsed bytes.
func (w *window) pending() []byte { return w.buf[w.off:] }

// feed appends b and returns how many old bytes it dropped to make room.
func (w *window) feed(b []byte) (dropped int) {
	for len(b) > 0 {
		if w.off > 0 && len(w.buf)+len(b) > cap(w.buf) {
			n := copy(w.buf, w.buf[w.off:])
			w.buf, w.off = w.buf[:n], 0
		}
		room := cap(w.buf) - len(w.buf)
		if room == 0 {
			// Nothing parseable in a full buffer: drop half of it.
			half := len(w.buf) / 2
			w.advance(half)
			dropped += half
			continue
		}
		k := min(room, len(b))
		w.buf = append(w.buf, b[:k]...)
		b = b[k:]
	}
	return dropped
}

// advance moves past n bytes.
func (w *window) advance(n int) {
	w.off += n
	if w.off == len(w.buf) {
		w.buf, w.off = w.buf[:0], 0
	}
}

// clear forgets every byte held.
func (w *window) clear() { w.buf, w.off = w.buf[:0], 0 }

// errorTail is the last error tail a parser decoded: one or two codes,
// each the byte after an 'e'. Next returns &errorTail.err, valid until
// its next call.
type errorTail struct {
	err   devices.GloveError
	codes [2]byte
}

// set records codes c0 (and c1 when n is 2) and counts them in f.
func (t *errorTail) set(f *devices.Faults, c0, c1 byte, n int) {
	t.codes = [2]byte{c0, c1}
	t.err.Codes = t.codes[:n]
	f.ErrorTails++
	for _, c := range t.err.Codes {
		if c == 'g' {
			f.NoGlove++
			break
		}
	}
}
