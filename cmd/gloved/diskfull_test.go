package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gloved/gloved/daemon/daemontest"
	"github.com/gloved/gloved/devices/recording"
	"github.com/gloved/gloved/internal/netns"
)

// TestAFullDiskNeverStopsTheContacts: with the recording's file system
// full, the daemon starts, and a SIGHUP reloads it, each time saying the
// recording did not start and counting it, while frames go on; no empty
// recording file is left behind. The disk is a real one: a 256 KiB tmpfs,
// filled, in a mount namespace of the daemon's own.
func TestAFullDiskNeverStopsTheContacts(t *testing.T) {
	t.Parallel()
	disk := smallDisk(t)
	rx, got := daemontest.Listen(t)
	metrics := freePortTCP(t)
	cfg := simConfig(t, "127.0.0.1:0", rx.LocalAddr().String(), filepath.Join(disk, "session.glove"))
	appendMetrics(t, cfg, metrics)
	daemon := onSmallDisk(t, disk, cfg, true)
	stderr := &daemon.errs
	framesAfter := func(n int, what string) int {
		t.Helper()
		var m int
		daemon.until(t, what, func() bool { m = daemontest.Frames(got.All(), "right"); return m >= n })
		return m
	}
	n := framesAfter(20, "on a full disk")
	// Its log is read apart from its frames: the line may come after them.
	daemon.until(t, "the daemon saying the recording could not start", func() bool {
		return strings.Contains(stderr.String(), "no space left on device") && strings.Contains(stderr.String(), "recording stopped; the contacts go on")
	})
	onDisk := namespaced(daemon.cmd.Process.Pid, disk)
	if names := dirNames(t, onDisk); len(names) != 1 || names[0] != "fill" {
		t.Errorf("the full disk holds %q; want only the file that fills it (no recording that never started)", names)
	}

	daemon.cmd.Process.Signal(syscall.SIGHUP)
	daemon.until(t, "the reload trying the recording again", func() bool { return strings.Count(stderr.String(), "no space left on device") >= 2 })
	framesAfter(n+50, "after SIGHUP")
	if strings.Contains(stderr.String(), "did not restart") || strings.Contains(stderr.String(), "did not start") {
		t.Errorf("the reload failed:\n%s", stderr.String())
	}
	if names := dirNames(t, onDisk); len(names) != 1 || names[0] != "fill" {
		t.Errorf("after the reload the full disk holds %q; want only the file that fills it", names)
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

// smallDisk is the directory where onSmallDisk mounts its disk; it skips
// the test unless it can (as root, with unshare).
func smallDisk(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("unshare"); err != nil || os.Geteuid() != 0 {
		netns.Skipf(t, "needs root and unshare (util-linux) to mount a small tmpfs")
	}
	disk := filepath.Join(t.TempDir(), "disk")
	if err := os.Mkdir(disk, 0o755); err != nil {
		t.Fatal(err)
	}
	return disk
}

// onSmallDisk runs `gloved run -c cfg` in a mount namespace of its own,
// where disk is a real 256 KiB tmpfs, filled first if full.
func onSmallDisk(t *testing.T, disk, cfg string, full bool) *proc {
	t.Helper()
	fill := ""
	if full {
		fill = `dd if=/dev/zero of="$1/fill" bs=4k 2>/dev/null; df -k "$1" >&2; `
	}
	script := `mount -t tmpfs -o size=256k tmpfs "$1" && { ` + fill + `exec "$2" run -c "$3" --status=false; }`
	return startCommand(t, "gloved run", exec.Command("unshare", "-m", "--propagation", "private", "sh", "-c", script, "sh", disk, binary(t), cfg))
}

// until waits until ok, failing the test if p exits first or ok does
// not come within a minute.
func (p *proc) until(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !ok(); time.Sleep(20 * time.Millisecond) {
		select {
		case <-p.done:
			t.Fatalf("%s: %s exited (%v):\n%s", what, p.name, p.cmd.ProcessState, p.errs.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: timed out:\n%s", what, p.errs.String())
		}
	}
}

// namespaced is path as the process pid sees it, through its mount
// namespace (/proc/PID/root): a tmpfs mounted in that namespace only.
func namespaced(pid int, path string) string {
	return filepath.Join(fmt.Sprintf("/proc/%d/root", pid), path)
}

// dirNames lists dir's entries by name.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// TestADiskThatFillsWhileRecordingKeepsWhatWasRecorded: a recording under
// way when its disk fills stops, saying so, while frames go on; the file
// keeps the sample of every frame sent before the disk filled and ends
// cleanly after its last whole record (none cut short). The disk is a
// real 256 KiB tmpfs in a mount namespace of the daemon's own, filled by
// the test through /proc/PID/root while the daemon records.
func TestADiskThatFillsWhileRecordingKeepsWhatWasRecorded(t *testing.T) {
	t.Parallel()
	disk := smallDisk(t)
	rx, got := daemontest.Listen(t)
	cfg := simConfig(t, "127.0.0.1:0", rx.LocalAddr().String(), filepath.Join(disk, "session.glove"))
	daemon := onSmallDisk(t, disk, cfg, false)
	stderr := &daemon.errs
	daemon.until(t, "frames while recording", func() bool { return daemontest.Frames(got.All(), "right") >= 50 })
	sent := daemontest.Frames(got.All(), "right") // each frame's sample was recorded before it was sent
	onDisk := namespaced(daemon.cmd.Process.Pid, disk)
	fill(t, filepath.Join(onDisk, "fill"))
	daemon.until(t, "the recording stopping", func() bool { return strings.Contains(stderr.String(), "recording stopped; the contacts go on") })
	if !strings.Contains(stderr.String(), "no space left on device") {
		t.Errorf("the daemon did not say the disk is full:\n%s", stderr.String())
	}
	after := daemontest.Frames(got.All(), "right")
	daemon.until(t, "frames after the disk filled", func() bool { return daemontest.Frames(got.All(), "right") >= after+50 })

	r, err := recording.Open(filepath.Join(onDisk, "session.glove"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	samples := 0
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("after %d samples: %v (want a clean end after the last whole record)", samples, err)
		}
		if rec.Kind == recording.KindSample {
			samples++
		}
	}
	if samples < sent {
		t.Errorf("the recording holds %d samples; %d frames were sent before the disk filled", samples, sent)
	}
}

// fill writes zeros to path until its file system is full.
func fill(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zeros := make([]byte, 4096)
	for {
		if _, err := f.Write(zeros); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			return
		}
	}
}
