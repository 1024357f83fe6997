package serialport

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/tarm/serial"
	"golang.org/x/sys/unix"
)

// Conn is an open serial line, what a glove driver reads and writes. A
// Read that times out returns (0, io.EOF) or (0, nil): no data yet. Any
// other error means the line is gone.
type Conn interface {
	io.ReadWriteCloser
}

// TryWriter is a Conn that can write without waiting: Open's lines are.
// A driver that answers each line its glove sends writes this way, so
// that a glove that never reads what it is sent cannot stop the reading.
type TryWriter interface {
	// TryWrite writes the n bytes of b the line takes at once, and
	// returns ErrFull if that is fewer than len(b); any other error means
	// the line is gone.
	TryWrite(b []byte) (n int, err error)
}

// ErrFull is a write the line did not take, at once (TryWrite) or within
// writeTimeout (Write): its output is full, because the other end reads
// nothing (a glove's firmware that never reads, a Bluetooth link that
// stopped draining).
var ErrFull = errors.New("the line's output is full: the other end reads nothing")

// writeTimeout bounds a Write on a line whose output is full; a glove
// reading at 115200 baud takes a command of a few bytes in well under a
// millisecond. A variable for the tests alone.
var writeTimeout = time.Second

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
	if err := CheckRate(baud); err != nil {
		return nil, fmt.Errorf("serialport: open %s at %d baud: %w", name, baud, err)
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
	h := &held{Port: p, claim: c}
	if h.raw, err = c.f.SyscallConn(); err != nil {
		h.Close()
		return nil, fmt.Errorf("serialport: %s: %w", name, err)
	}
	h.try = h.tryOnce
	return h, nil
}

// held is an open line and the claim that keeps it this process's. It
// reads through tarm/serial's descriptor, whose read timeout is the
// line's, and writes through the claim's, which is non-blocking: a tty's
// output is the same through either.
type held struct {
	*serial.Port
	claim *claim
	once  sync.Once
	err   error

	// writeMu serialises Writes: the write deadline is the claim file's
	// own, so one Write clearing it after its write would leave another's
	// unbounded (a reading goroutine's query and Line.Close's last line).
	writeMu sync.Mutex

	// raw is the claim's descriptor as TryWrite writes it; try, tryBuf,
	// tryN and tryErr are its one attempt, built once so that a TryWrite
	// allocates nothing (its caller serialises them).
	raw    syscall.RawConn
	try    func(fd uintptr) bool
	tryBuf []byte
	tryN   int
	tryErr error
}

// Write writes b, waiting at most writeTimeout for the line to take it
// (ErrFull after that); closing the line ends the wait at once. Writes
// from several goroutines take turns, each with its own writeTimeout.
func (h *held) Write(b []byte) (int, error) {
	h.writeMu.Lock()
	defer h.writeMu.Unlock()
	f := h.claim.f
	f.SetWriteDeadline(time.Now().Add(writeTimeout))
	n, err := f.Write(b)
	f.SetWriteDeadline(time.Time{}) // TryWrite's attempts must not find it passed
	if errors.Is(err, os.ErrDeadlineExceeded) {
		err = ErrFull
	}
	return n, err
}

// TryWrite writes what of b the line takes at once. It takes no turn
// among Writes (it must not wait), so it may find a Write's deadline
// passing: that is a full line too, not a lost one.
func (h *held) TryWrite(b []byte) (int, error) {
	h.tryBuf = b
	err := h.raw.Write(h.try)
	h.tryBuf = nil
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return 0, ErrFull
	}
	if err != nil {
		return 0, err
	}
	n, err := h.tryN, h.tryErr
	switch {
	case errors.Is(err, unix.EAGAIN):
		return n, ErrFull
	case err == nil && n < len(b):
		return n, ErrFull
	}
	return n, err
}

// tryOnce is TryWrite's one write(2), never waiting for the poller.
func (h *held) tryOnce(fd uintptr) bool {
	n, err := unix.Write(int(fd), h.tryBuf)
	h.tryN, h.tryErr = max(n, 0), err
	return true
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
