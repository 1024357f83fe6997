package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestARecordingStoppedByAFullDiskSaysWhatItKept: `gloved record` whose
// disk fills part way ends in one line saying the disk is full, how many
// samples (and seconds) the file kept, that they replay, and what to do;
// and they do replay, every one. The disk is a real 1 MiB tmpfs with
// 8 KiB free, in a mount namespace of the recorder's own (root only:
// TestRecordingKeptSaysWhatTheFileHolds tests the message without).
func TestARecordingStoppedByAFullDiskSaysWhatItKept(t *testing.T) {
	t.Parallel()
	disk := smallDisk(t)
	out := filepath.Join(disk, "r.glove")
	script := `mount -t tmpfs -o size=1m tmpfs "$1" && dd if=/dev/zero of="$1/fill" bs=4k count=254 2>/dev/null &&
"$2" record --device sim --seconds 5 -o "$3"; code=$?
"$2" replay "$3" --speed max >&2 || exit 99
exit $code`
	r := runCommandResult(t, exec.Command("unshare", "-m", "--propagation", "private", "sh", "-c", script, "sh", disk, binary(t), out))
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	if r.code != 1 || len(lines) != 2 {
		t.Fatalf("exit %d, want 1, and the recorder's line then the replay's (on stderr):\n%s", r.code, r.stderr)
	}
	var n int
	var secs float64
	if _, err := fmt.Sscanf(lines[0], "gloved: recording "+out+" stopped: no space left on device (%d samples, %f s, are in it and replay): free some space and record again", &n, &secs); err != nil || n < 10 {
		t.Fatalf("%q: %v, want what the file kept said", lines[0], err)
	}
	if !strings.HasSuffix(lines[0], "free some space and record again") {
		t.Errorf("%q does not say what to do", lines[0])
	}
	if want := fmt.Sprintf("replayed %d frames of %s", n, out); !strings.HasPrefix(lines[1], want) {
		t.Errorf("the replay says %q, want %q: the samples the recorder said it kept", lines[1], want)
	}
}

// runCommandResult runs cmd for at most a minute.
func runCommandResult(t *testing.T, cmd *exec.Cmd) result {
	t.Helper()
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		<-done
		t.Fatalf("%v: timed out:\n%s", cmd.Args, errb.String())
	}
	return result{stdout: out.String(), stderr: errb.String(), code: cmd.ProcessState.ExitCode()}
}

// TestRecordingKeptSaysWhatTheFileHolds: the line of a recording stopped
// by a full disk counts the samples its file kept and their seconds, and
// says what to do; stopped otherwise, it keeps the session's error and
// adds what was kept; a file that kept no sample is one that recorded
// none.
func TestRecordingKeptSaysWhatTheFileHolds(t *testing.T) {
	path := simRecording(t, 88)
	stopped := func(errno error) error {
		return fmt.Errorf("recording %s stopped: recording: %w", path, &os.PathError{Op: "write", Path: path, Err: errno})
	}
	want := "recording " + path + " stopped: no space left on device (88 samples, 0.9 s, are in it and replay): free some space and record again"
	if got := recordingKept(path, stopped(syscall.ENOSPC)).Error(); got != want {
		t.Errorf("full disk:\n got %s\nwant %s", got, want)
	}
	if got := recordingKept(path, stopped(syscall.EIO)).Error(); !strings.HasSuffix(got, "input/output error (88 samples, 0.9 s, are in it and replay)") {
		t.Errorf("I/O error: got %s", got)
	}
	empty := filepath.Join(t.TempDir(), "empty.glove")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := recordingKept(empty, stopped(syscall.ENOSPC)).Error(); !strings.Contains(got, "no sample recorded") {
		t.Errorf("empty file: got %s", got)
	}
}
