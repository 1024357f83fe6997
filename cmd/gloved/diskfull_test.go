package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gloved/gloved/daemon/daemontest"
	"github.com/gloved/gloved/internal/netns"
)

// TestAFullDiskNeverStopsTheContacts: with the recording's file system
// full, the daemon starts, and a SIGHUP reloads it, each time saying the
// recording did not start and counting it, while frames go on. The disk
// is a real one: a 256 KiB tmpfs, filled, in a mount namespace of the
// daemon's own.
func TestAFullDiskNeverStopsTheContacts(t *testing.T) {
	unshare, err := exec.LookPath("unshare")
	if err != nil || os.Geteuid() != 0 {
		netns.Skipf(t, "needs root and unshare (util-linux) to mount a small tmpfs")
	}
	dir := t.TempDir()
	disk := filepath.Join(dir, "disk")
	if err := os.Mkdir(disk, 0o755); err != nil {
		t.Fatal(err)
	}
	rx, got := daemontest.Listen(t)
	metrics := freePortTCP(t)
	cfg := simConfig(t, "127.0.0.1:0", rx.LocalAddr().String(), filepath.Join(disk, "session.glove"))
	appendMetrics(t, cfg, metrics)

	script := `mount -t tmpfs -o size=256k tmpfs "$1" && { dd if=/dev/zero of="$1/fill" bs=4k 2>/dev/null; df -k "$1" >&2; exec "$2" run -c "$3" --status=false; }`
	daemon := exec.Command(unshare, "-m", "--propagation", "private", "sh", "-c", script, "sh", disk, binary(t), cfg)
	var stderr syncBuffer
	daemon.Stderr = &stderr
	if err := daemon.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	var exitErr error
	go func() { exitErr = daemon.Wait(); close(exited) }()
	defer func() {
		daemon.Process.Signal(syscall.SIGTERM)
		<-exited
	}()
	framesAfter := func(n int, what string) int {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			if m := daemontest.Frames(got.All(), "right"); m >= n {
				return m
			}
			select {
			case <-exited:
				t.Fatalf("%s: the daemon exited (%v):\n%s", what, exitErr, stderr.String())
			default:
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: no frames:\n%s", what, stderr.String())
			}
		}
	}
	n := framesAfter(20, "on a full disk")
	if !strings.Contains(stderr.String(), "no space left on device") || !strings.Contains(stderr.String(), "recording stopped; the contacts go on") {
		t.Errorf("the daemon did not say the recording could not start:\n%s", stderr.String())
	}

	daemon.Process.Signal(syscall.SIGHUP)
	for deadline := time.Now().Add(20 * time.Second); strings.Count(stderr.String(), "no space left on device") < 2; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the reload did not try the recording again:\n%s", stderr.String())
		}
	}
	framesAfter(n+50, "after SIGHUP")
	if strings.Contains(stderr.String(), "did not restart") || strings.Contains(stderr.String(), "did not start") {
		t.Errorf("the reload failed:\n%s", stderr.String())
	}

	body := scrape(t, metrics)
	if !bytes.Contains(body, []byte("gloved_recording_failures_total ")) || bytes.Contains(body, []byte("gloved_recording_failures_total 0\n")) {
		t.Errorf("the failed recordings are not counted:\n%s", grepLines(body, "recording"))
	}
}

// grepLines returns the lines of b that contain s.
func grepLines(b []byte, s string) string {
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, s) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
