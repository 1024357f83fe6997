package main

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gloved/gloved/daemon"
)

// TestStatusToAPipeIsPlainLines: `run --status` with its output going to
// a pipe (or a file) prints one plain line a second, never a carriage
// return, so the output reads line by line.
func TestStatusToAPipeIsPlainLines(t *testing.T) {
	t.Parallel()
	r := runBinary(t, 60*time.Second, "run", "-c", writeConfig(t, "127.0.0.1:0", "builtin:grasp", ""), "--status", "--for", "3.5s")
	if r.code != 0 || r.stdout == "" {
		t.Fatalf("exit %d, stdout %q, stderr %s", r.code, r.stdout, r.stderr)
	}
	if strings.Contains(r.stdout, "\r") || !strings.HasSuffix(r.stdout, "\n") {
		t.Errorf("stdout is not plain lines: %q", r.stdout)
	}
	for _, line := range strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n") {
		if !strings.Contains(line, " fps ") || !strings.HasSuffix(line, "right streaming") {
			t.Errorf("not a status line: %q", line)
		}
	}
}

// TestStatusRedrawsOnlyOnATerminal: on a terminal each status line is
// drawn over the last; elsewhere each is a line of its own.
func TestStatusRedrawsOnlyOnATerminal(t *testing.T) {
	s := daemon.Status{FPS: 100, FPSMeasured: true, Hands: map[string]string{"right": "streaming"}}
	var term, pipe bytes.Buffer
	printStatus(&term, s, true)
	printStatus(&pipe, s, false)
	if got := term.String(); !strings.HasPrefix(got, "\r100.0 fps") || strings.Contains(got, "\n") {
		t.Errorf("terminal: got %q, want a line drawn over the last", got)
	}
	if got := pipe.String(); !strings.HasPrefix(got, "100.0 fps") || !strings.HasSuffix(got, "right streaming\n") || strings.Contains(got, "\r") {
		t.Errorf("pipe: got %q, want a plain line", got)
	}
}

// TestStatusSaysNoRateBeforeASecondOfFrames: before a whole second of
// frames the line shows no rate (it said 0.0 fps while the hand streamed
// and p50 and p99 were measured).
func TestStatusSaysNoRateBeforeASecondOfFrames(t *testing.T) {
	var out bytes.Buffer
	printStatus(&out, daemon.Status{P50: 40 * time.Microsecond, Hands: map[string]string{"right": "streaming"}}, false)
	if got := out.String(); !strings.HasPrefix(got, "   -- fps  p50   40.0 us") {
		t.Errorf("got %q", got)
	}
}

// TestStatusFrameRateFallsToZeroOnceFramesStop: `run --status` tells the
// frames a second over the last second, so a replay that has ended (no
// frame since) reads 0 fps, not the rate of its last frames.
func TestStatusFrameRateFallsToZeroOnceFramesStop(t *testing.T) {
	t.Parallel()
	rec, err := filepath.Abs("../../testdata/recordings/grasp.glove") // 2.1 s of samples
	if err != nil {
		t.Fatal(err)
	}
	cfg := rightHandConfig(t, fmt.Sprintf("device = \"replay\"\nrecording = %q\n", rec), "127.0.0.1:0", "")
	r := runBinary(t, 60*time.Second, "run", "-c", cfg, "--status", "--for", "6.5s")
	if r.code != 0 {
		t.Fatalf("exit %d, stdout %q, stderr %s", r.code, r.stdout, r.stderr)
	}
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	streamed, ended := false, 0
	for _, line := range lines {
		streamed = streamed || !strings.HasPrefix(line, "  0.0 fps")
		if strings.HasSuffix(line, "right ended") {
			ended++
		}
	}
	last := lines[len(lines)-1]
	if !streamed || ended < 2 || !strings.HasPrefix(last, "  0.0 fps") || !strings.HasSuffix(last, "right ended") {
		t.Errorf("want lines above 0 fps while the replay ran, then 0.0 fps once it had ended a while; got:\n%s", r.stdout)
	}
}
