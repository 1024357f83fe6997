package main

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	goosc "github.com/hypebeast/go-osc/osc"

	"github.com/gloved/gloved/daemon/daemontest"
	"github.com/gloved/gloved/devices/emulator"
)

// deafLines is how many lines a deaf glove floods before it goes on at
// 100 Hz: its driver answers each with at least a newline, and a
// pseudo-terminal's side that is never read holds some 21 KB of them.
const deafLines = 40000

// deafGlove is an OpenGloves glove on a pseudo-terminal that sends lines
// and never reads its driver's answers.
type deafGlove struct {
	pty  *emulator.PTY
	sent int
}

func newDeafGlove(t *testing.T) *deafGlove {
	t.Helper()
	p, err := emulator.OpenPTY()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return &deafGlove{pty: p}
}

// send writes n lines, pausing every between them (0: a flood); a line
// the driver has not taken within five seconds means it stopped reading.
func (g *deafGlove) send(n int, every time.Duration) error {
	line := []byte("A0B0C0D0E0\n")
	for range n {
		g.pty.Master.SetWriteDeadline(time.Now().Add(5 * time.Second))
		if _, err := g.pty.Master.Write(line); err != nil {
			return fmt.Errorf("the driver stopped reading after %d lines: %w", g.sent, err)
		}
		g.sent++
		time.Sleep(every)
	}
	return nil
}

// TestAnOpenGlovesGloveThatNeverReadsIsStillReadAndTheDaemonStops: a
// glove that sends lines and never reads the driver's answers (a
// firmware that never reads, a Bluetooth link that stopped draining)
// fills the line's output after some 21 KB of answers; the answers that
// do not fit are dropped, and the glove goes on being read: its frames
// go on, it goes stalled when it falls silent, and the daemon stops on
// SIGTERM.
func TestAnOpenGlovesGloveThatNeverReadsIsStillReadAndTheDaemonStops(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	glove := newDeafGlove(t)
	rx, got := daemontest.Listen(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cfg := handConfig(t, dir, fmt.Sprintf("device = \"opengloves\"\nport = %q", glove.pty.Path), rx.LocalAddr().String(), "stall_ms = 300.0\n")
	daemon := exec.CommandContext(ctx, binary(t), "run", "-c", cfg, "--status=false")
	var stderr syncBuffer
	daemon.Stderr = &stderr
	if err := daemon.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- daemon.Wait() }()
	defer func() {
		cancel()
		<-exited
	}()
	if err := glove.send(20, 10*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	waitFor(t, got, "a frame", func(b []*goosc.Bundle) bool { return daemontest.Frames(b, "right") > 0 })

	if err := glove.send(deafLines, 0); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	// The flood's frames are through; those of a glove at 100 Hz follow.
	time.Sleep(500 * time.Millisecond)
	before := daemontest.Frames(got.All(), "right")
	if err := glove.send(100, 10*time.Millisecond); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	waitFor(t, got, "frames after the answers filled the line", func(b []*goosc.Bundle) bool {
		return daemontest.Frames(b, "right") >= before+20
	})
	waitFor(t, got, "stalled once the glove fell silent", func(b []*goosc.Bundle) bool {
		s := daemontest.Statuses(b, "right")
		return len(s) > 0 && s[len(s)-1] == "stalled"
	})

	daemon.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-exited:
		exited <- err
		if err != nil {
			t.Fatalf("gloved run after SIGTERM: %v\n%s", err, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("gloved run did not stop within 10 s of SIGTERM\n%s", stderr.String())
	}
	t.Logf("%d lines sent, %d frames, statuses %v", glove.sent, daemontest.Frames(got.All(), "right"), daemontest.Statuses(got.All(), "right"))
}

// TestRecordingAnOpenGlovesGloveThatNeverReadsEndsOnTime: `gloved record
// --seconds 3` of a glove that floods lines and never reads the
// driver's answers records its lines and ends when its time is up.
func TestRecordingAnOpenGlovesGloveThatNeverReadsEndsOnTime(t *testing.T) {
	t.Parallel()
	fullRunOnly(t) // the binary's recording; the flood that fills the line takes half a minute under the race detector
	glove := newDeafGlove(t)
	out := filepath.Join(t.TempDir(), "deaf.glove")
	done := make(chan error, 1)
	go func() {
		if err := glove.send(deafLines, 0); err != nil {
			done <- err
			return
		}
		done <- glove.send(1<<30, 10*time.Millisecond)
	}()
	r := runBinary(t, 30*time.Second, "record", "--device", "opengloves", "--port", glove.pty.Path, "--seconds", "3", "-o", out)
	glove.pty.Close() // ends the flood
	if err := <-done; glove.sent < deafLines {
		t.Errorf("%d lines sent: %v", glove.sent, err)
	}
	if r.code != 0 {
		t.Fatalf("gloved record exited %d (-1: killed after 30 s):\n%s", r.code, r.stderr)
	}
	if n := len(dumpLines(t, out)); n == 0 {
		t.Errorf("nothing recorded of %d lines", glove.sent)
	}
}
