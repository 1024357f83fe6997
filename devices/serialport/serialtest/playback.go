package serialtest

import (
	"bytes"
	"errors"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/gloved/gloved/devices/serialport"
)

// Step is one exchange: Step[0] is what the driver must write, Step[1] the
// device's reply, queued for reading once Step[0] has been written. (An
// array, so that scripts read as {"?S", "?S\x16\x00"}.)
type Step = [2]string

// Playback is a serial port that plays a script. A write that departs from
// the script fails the test; a read with nothing queued waits a millisecond
// and returns (0, io.EOF), as a serial read timeout does.
type Playback struct {
	tb      testing.TB
	mu      sync.Mutex
	steps   []Step
	written []byte
	unread  []byte
	closed  bool
}

// New returns a port that plays steps in order.
func New(tb testing.TB, steps ...Step) *Playback {
	return &Playback{tb: tb, steps: steps}
}

// Write consumes the script's steps that the bytes written so far complete.
func (p *Playback) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.written = append(p.written, b...)
	for len(p.steps) > 0 && bytes.HasPrefix(p.written, []byte(p.steps[0][0])) {
		p.written = p.written[len(p.steps[0][0]):]
		p.unread = append(p.unread, p.steps[0][1]...)
		p.steps = p.steps[1:]
	}
	if len(p.steps) > 0 && !bytes.HasPrefix([]byte(p.steps[0][0]), p.written) {
		p.tb.Errorf("driver wrote %q, script expects %q", p.written, p.steps[0][0])
	}
	return len(b), nil
}

// Read returns queued reply bytes.
func (p *Playback) Read(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return 0, errors.New("serialtest: port closed")
	}
	if len(p.unread) == 0 {
		p.mu.Unlock()
		time.Sleep(time.Millisecond)
		p.mu.Lock()
		return 0, io.EOF
	}
	n := copy(b, p.unread)
	p.unread = p.unread[n:]
	return n, nil
}

// Close makes later reads fail, as a port that went away.
func (p *Playback) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	return nil
}

// Opener returns an opener that hands a driver p, whatever it asks to
// open.
func (p *Playback) Opener() serialport.Opener {
	return func(string, int, time.Duration) (serialport.Conn, error) { return p, nil }
}

// Remaining returns the steps not yet played.
func (p *Playback) Remaining() []Step {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Step(nil), p.steps...)
}
