package emulator

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/gloved/gloved/devices/cyberglove/layout"
	"github.com/gloved/gloved/devices/sim"
)

// TestHangupTakesTheLinkAway: when the emulated port hangs up, its link
// is gone by the time the pty is, as an unplugged adapter's device node
// and its udev link are: the pty's number is free for whoever opens a pty
// next, and a driver reopening the port through a link left behind would
// open that pty, another program's. When Run ends the link is gone too.
func TestHangupTakesTheLinkAway(t *testing.T) {
	e, err := New(Opts{Sensors: 22, Right: true, Source: func(at time.Duration, s *[layout.Slots]uint16) { sim.Raw(sim.Grasp, at, s) }})
	if err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "glove")
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 2)
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, e, link, Hangup{At: 300 * time.Millisecond, For: time.Hour}, func(p string) { ready <- p })
	}()
	defer func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Error(err)
			}
		case <-time.After(10 * time.Second):
			t.Error("Run did not end 10 s after its context")
		}
		if _, err := os.Lstat(link); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("the link is there after Run: %v", err)
		}
	}()
	<-ready
	// Hold the port open, as a driver does, to see it hang up.
	fd, err := syscall.Open(link, syscall.O_RDWR|syscall.O_NOCTTY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	var b [64]byte
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if _, err := syscall.Read(fd, b[:]); err != syscall.EAGAIN {
			break // EIO or end of file: hung up
		}
		if time.Now().After(deadline) {
			t.Fatal("the port did not hang up")
		}
	}
	if target, err := os.Readlink(link); err == nil {
		t.Fatalf("the port hung up, but its link still points at %s", target)
	}
}
