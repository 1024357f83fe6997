package serialport

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sync"
	"time"

	"github.com/tarm/serial"
)

// Conn is an open serial line, what a glove driver reads and writes. A
// Read that times out returns (0, io.EOF) or (0, nil): no data yet. Any
// other error means the line is gone.
type Conn interface {
	io.ReadWriteCloser
}

// Opener opens a serial line by name at a baud rate with a read timeout:
// Open, or a test's fake (serialtest).
type Opener func(name string, baud int, readTimeout time.Duration) (Conn, error)

var _ Opener = Open

// ErrNoReply is a query the line left unanswered within its reply
// timeout: nothing that speaks the driver's protocol is there, or not at
// this baud rate.
var ErrNoReply = errors.New("no reply")

// Open opens a real serial device (or a pseudo-terminal) with
// github.com/tarm/serial: 8N1, raw mode, no flow control, and always a
// read timeout, without which Close would not unblock a Read. Every
// driver's line is opened here, and only here.
//
// The line is this process's alone while it is open (claimPort): a second
// opener, in this process or another, gets an *InUseError naming the
// holder, at once.
func Open(name string, baud int, readTimeout time.Duration) (Conn, error) {
	if readTimeout <= 0 {
		return nil, fmt.Errorf("serialport: %s: a read timeout is required", name)
	}
	c, err := claimPort(name)
	if err != nil {
		return nil, err
	}
	p, err := serial.OpenPort(&serial.Config{Name: name, Baud: baud, ReadTimeout: readTimeout})
	if err != nil {
		c.release()
		return nil, fmt.Errorf("serialport: open %s at %d baud: %w%s", name, baud, err, openHint(err))
	}
	if err := c.exclusive(); err != nil {
		p.Close()
		c.release()
		return nil, fmt.Errorf("serialport: %s: exclusive use (TIOCEXCL): %w", name, err)
	}
	return &held{Port: p, claim: c}, nil
}

// held is an open line and the claim that keeps it this process's.
type held struct {
	*serial.Port
	claim *claim
	once  sync.Once
	err   error
}

// Close closes the line, then lets the claim go (once).
func (h *held) Close() error {
	h.once.Do(func() {
		h.err = h.Port.Close()
		h.claim.release()
	})
	return h.err
}

// openHint says what to do about a port that does not open.
func openHint(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return ": is the glove's interface unit plugged in and switched on? (or set the right port)"
	case errors.Is(err, fs.ErrPermission):
		return ": add the user to the dialout group (README: Connecting a real glove)"
	}
	return ""
}
