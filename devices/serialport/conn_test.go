package serialport

import (
	"errors"
	"testing"
	"time"

	"github.com/creack/pty"
)

// ptyPath returns the path of a pseudo-terminal's slave, its master held
// open (and never read) for the test.
func ptyPath(t *testing.T) string {
	t.Helper()
	m, s, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	s.Close()
	return s.Name()
}

// fullLine opens, with Open, the slave of a pseudo-terminal whose master
// never reads: a line whose output fills, as a glove's that reads nothing.
func fullLine(t *testing.T) *held {
	t.Helper()
	c, err := Open(ptyPath(t), 115200, 50*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c.(*held)
}

// TestWritesFromSeveralGoroutinesOnAFullLineEachGiveUpInTime: Writes from
// several goroutines on a line whose other end reads nothing (a reading
// goroutine's query, Line.Close's last line) each return ErrFull, one
// writeTimeout after their turn: none clears another's deadline, which
// would leave it blocked for good. A TryWrite meanwhile, which may find a
// Write's deadline passing, reports the line full, never gone.
func TestWritesFromSeveralGoroutinesOnAFullLineEachGiveUpInTime(t *testing.T) {
	was := writeTimeout
	writeTimeout = 5 * time.Millisecond
	t.Cleanup(func() { writeTimeout = was })
	c := fullLine(t)
	const writers, writes = 4, 40
	big := make([]byte, 1<<16)
	done := make(chan error, writers)
	for range writers {
		go func() {
			for range writes {
				if _, err := c.Write(big); !errors.Is(err, ErrFull) {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	stop, tried := make(chan struct{}), make(chan error, 1)
	go func() {
		b := []byte("A0B0C0D0E0\n")
		for {
			select {
			case <-stop:
				tried <- nil
				return
			default:
			}
			if _, err := c.TryWrite(b); err != nil && !errors.Is(err, ErrFull) {
				tried <- err
				return
			}
		}
	}()
	// Liveness, not speed: the writes take turns, writers × writes ×
	// writeTimeout (0.8 s) in all; a Write left without a deadline never
	// returns.
	limit := time.After(20 * time.Second)
	for range writers {
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("a Write on a full line: %v, want ErrFull", err)
			}
		case <-limit:
			t.Fatal("a Write on a full line never returned: another Write cleared its deadline")
		}
	}
	close(stop)
	if err := <-tried; err != nil {
		t.Fatalf("a TryWrite on a full line: %v, want ErrFull", err)
	}
}
