package serialport

import (
	"errors"
	"testing"
	"time"

	"github.com/gloved/gloved/devices"
)

// TestClosingALineDuringItsReopeningBackoffFreesThePortAtOnce: a line
// lost and waiting out a long backoff before reopening gives up as soon
// as it is closed (a daemon stopping for a reload), not when the backoff
// ends, and leaves its port free: the next program opens it right away
// rather than meeting an *InUseError.
func TestClosingALineDuringItsReopeningBackoffFreesThePortAtOnce(t *testing.T) {
	path := ptyPath(t)
	l := &Line{Name: path, Baud: 115200, ReadTimeout: 50 * time.Millisecond, MinBackoff: time.Hour, MaxBackoff: time.Hour, Open: Open}
	l.Set(nil) // as a driver's first open does: the backoff at MinBackoff
	var faults devices.Faults
	refuse := func(Conn) error { return errors.New("no handshake") }
	if err := l.Reopen(refuse, &faults); !errors.Is(err, devices.ErrDisconnected) {
		t.Fatalf("a refused handshake: %v, want ErrDisconnected", err)
	}
	reopened := make(chan error, 1)
	go func() { reopened <- l.Reopen(func(Conn) error { return nil }, &faults) }()
	time.Sleep(50 * time.Millisecond) // into the hour's backoff
	if err := l.Close(nil); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-reopened:
		if !errors.Is(err, devices.ErrClosed) {
			t.Fatalf("Reopen closed during its backoff: %v, want ErrClosed", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Reopen waited out its backoff after Close")
	}
	c, err := Open(path, 115200, 50*time.Millisecond)
	if err != nil {
		t.Fatalf("the port after Close: %v, want it free", err)
	}
	c.Close()
}

// TestALineClosedWhileItOpensLetsThePortGoBeforeItsHandshake: Close
// coming while Reopen opens the port makes Reopen close that port and
// give up before the driver's handshake (which may wait out reply
// timeouts holding the port): the port is free when Reopen returns.
func TestALineClosedWhileItOpensLetsThePortGoBeforeItsHandshake(t *testing.T) {
	path := ptyPath(t)
	l := &Line{Name: path, Baud: 115200, ReadTimeout: 50 * time.Millisecond, MinBackoff: time.Millisecond, MaxBackoff: time.Millisecond}
	l.Open = func(name string, baud int, rt time.Duration) (Conn, error) {
		c, err := Open(name, baud, rt)
		l.Close(nil)
		return c, err
	}
	started := false
	var faults devices.Faults
	if err := l.Reopen(func(Conn) error { started = true; return nil }, &faults); !errors.Is(err, devices.ErrClosed) {
		t.Fatalf("Reopen closed while it opened: %v, want ErrClosed", err)
	}
	if started {
		t.Error("the handshake ran on a line already closed")
	}
	c, err := Open(path, 115200, 50*time.Millisecond)
	if err != nil {
		t.Fatalf("the port after Reopen gave up: %v, want it free", err)
	}
	c.Close()
}
