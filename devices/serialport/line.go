package serialport

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gloved/gloved/devices"
)

// Line is a serial glove's line as its driver holds it while reading:
// the open port (none while it is away), reopening it with backoff after
// it was lost, and closing it for good. A driver's reading goroutine
// calls Ready, Lost and Reopen; Close may come from any goroutine, and
// makes Reopen give up.
type Line struct {
	Name        string
	Baud        int
	ReadTimeout time.Duration
	// MinBackoff and MaxBackoff bound the wait between reopening attempts,
	// doubling from the first to the second while they fail.
	MinBackoff, MaxBackoff time.Duration
	Open                   Opener

	mu       sync.Mutex // guards port and done against Close
	port     Conn
	closed   atomic.Bool
	done     chan struct{} // closed by Close: ends a backoff's wait
	backoff  time.Duration
	nextOpen time.Time
}

// Set makes p the open port (after the driver opened and started it).
func (l *Line) Set(p Conn) {
	l.mu.Lock()
	l.port, l.backoff = p, l.MinBackoff
	l.mu.Unlock()
}

// Port returns the open port, nil while it is away.
func (l *Line) Port() Conn {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.port
}

// Ready returns the open port, reopening it (Reopen) if it is away:
// devices.ErrClosed after Close, devices.ErrDisconnected while it stays
// away.
func (l *Line) Ready(start func(Conn) error, faults *devices.Faults) (Conn, error) {
	if l.closed.Load() {
		return nil, devices.ErrClosed
	}
	if p := l.Port(); p != nil {
		return p, nil
	}
	if err := l.Reopen(start, faults); err != nil {
		return nil, err
	}
	return l.Ready(start, faults)
}

// Lost closes a failed port; the next Reopen opens it again at once.
func (l *Line) Lost(p Conn) {
	l.mu.Lock()
	if l.port == p {
		l.port = nil
	}
	l.mu.Unlock()
	p.Close()
	l.nextOpen = time.Now()
}

// closing returns the channel Close closes.
func (l *Line) closing() <-chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.done == nil {
		l.done = make(chan struct{})
	}
	return l.done
}

// Reopen waits out the backoff, then tries once to open the port and
// start it (start, the driver's handshake), counting the attempt in
// faults. It returns devices.ErrDisconnected (wrapping why) while the port
// stays away, devices.ErrClosed after Close: at once if Close comes
// during the backoff, and with the port it opened closed again if Close
// came while it opened it, so that the port is free for the next program
// (a reloaded daemon) as soon as Reopen returns.
func (l *Line) Reopen(start func(Conn) error, faults *devices.Faults) error {
	if wait := time.Until(l.nextOpen); wait > 0 {
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-l.closing():
			t.Stop()
			return devices.ErrClosed
		}
	}
	if l.closed.Load() {
		return devices.ErrClosed
	}
	p, err := l.Open(l.Name, l.Baud, l.ReadTimeout)
	if err == nil && l.closed.Load() {
		p.Close()
		return devices.ErrClosed
	}
	if err == nil {
		if err = start(p); err != nil {
			p.Close()
		}
	}
	if err != nil {
		faults.OpenFailures++
		l.nextOpen = time.Now().Add(l.backoff)
		l.backoff = min(2*l.backoff, l.MaxBackoff)
		return fmt.Errorf("%w: %v", devices.ErrDisconnected, err)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed.Load() {
		p.Close()
		return devices.ErrClosed
	}
	l.port, l.backoff = p, l.MinBackoff
	faults.Reconnects++
	return nil
}

// Close closes the port for good, writing last to it first if it is
// open; a Read in progress on it returns within its read timeout.
func (l *Line) Close(last []byte) error {
	if l.closed.Swap(true) {
		return nil
	}
	l.mu.Lock()
	p := l.port
	l.port = nil
	if l.done == nil {
		l.done = make(chan struct{})
	}
	close(l.done)
	l.mu.Unlock()
	if p == nil {
		return nil
	}
	if len(last) > 0 {
		p.Write(last)
	}
	return p.Close()
}
