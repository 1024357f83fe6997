package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gloved/gloved/daemon/daemontest"
	"github.com/gloved/gloved/devices/recording/recordingtest"
)

// replayers are the two ways to play a recording in real time: a
// daemon's replay hand, and `gloved replay`.
var replayers = []string{"run", "replay"}

// replayArgs are the arguments of a replayer playing recording to target.
func replayArgs(t *testing.T, replayer, recording, target string) []string {
	if replayer == "run" {
		hand := fmt.Sprintf("device = \"replay\"\nrecording = %q\n", recording)
		return []string{"run", "-c", rightHandConfig(t, hand, "127.0.0.1:0", target), "--status=false"}
	}
	return []string{"replay", recording, "--target", target}
}

// stopAfterFrames starts gloved with args, waits for n frames of the
// right hand, sends SIGTERM and requires it to exit 0 within within.
func stopAfterFrames(t *testing.T, within time.Duration, got *daemontest.Received, n int, args ...string) *proc {
	t.Helper()
	p := startGloved(t, args[0], args...)
	for deadline := time.Now().Add(20 * time.Second); daemontest.Frames(got.All(), "right") < n; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("gloved %s sent %d frames of %d in 20 s; stderr:\n%s", args[0], daemontest.Frames(got.All(), "right"), n, p.errs.String())
		}
	}
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(within):
		t.Fatalf("gloved %s still runs %v after SIGTERM", args[0], within)
	}
	if code := p.cmd.ProcessState.ExitCode(); code != 0 {
		t.Fatalf("gloved %s exited %d after SIGTERM; stderr:\n%s", args[0], code, p.errs.String())
	}
	return p
}

// TestSIGTERMEndsAReplayWaitingForASample: a daemon replaying a recording
// in real time, and `gloved replay`, sent SIGTERM while they wait 9.5 s
// for the next sample (a sound gap: under recording.MaxGap), exit at once,
// not when the wait is over.
func TestSIGTERMEndsAReplayWaitingForASample(t *testing.T) {
	rec, _ := recordingtest.Stamped(t, 0, 10*time.Millisecond, 9500*time.Millisecond, 9510*time.Millisecond)
	for _, replayer := range replayers {
		t.Run(replayer, func(t *testing.T) {
			rx, got := daemontest.Listen(t)
			stopAfterFrames(t, 5*time.Second, got, 2, replayArgs(t, replayer, rec, rx.LocalAddr().String())...) // the wait begins
		})
	}
}

// TestReplayPlaysOnThroughAJumpInTheClock: a recording with a 120 s gap,
// and one with a record stamped 2^63-1 ns, replay without waiting out the
// jump: `gloved replay` plays every sample and exits by itself, a
// daemon's replay hand stops at SIGTERM, and each warns once of the jump,
// naming the record's byte offset; `gloved dump` says so too.
func TestReplayPlaysOnThroughAJumpInTheClock(t *testing.T) {
	const ms = time.Millisecond
	for _, tc := range []struct {
		name   string
		stamps []time.Duration
	}{
		{"a 120 s gap", []time.Duration{0, 10 * ms, 120*time.Second + 20*ms, 120*time.Second + 30*ms}},
		{"2^63-1 ns", []time.Duration{0, 10 * ms, 1<<63 - 1, 30 * ms}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec, offsets := recordingtest.Stamped(t, tc.stamps...)
			says := fmt.Sprintf("the record at byte %d is stamped", offsets[2])

			rx, _ := daemontest.Listen(t)
			r := runBinary(t, 60*time.Second, "replay", rec, "--target", rx.LocalAddr().String())
			if r.code != 0 || playedSamples(r.stdout) != 4 || strings.Count(r.stderr, says) != 1 {
				t.Errorf("gloved replay: exit %d, want 0, the 4 samples played and one warning saying %q\nstdout %s\nstderr %s", r.code, says, r.stdout, r.stderr)
			}

			rx, got := daemontest.Listen(t)
			p := stopAfterFrames(t, 10*time.Second, got, 3, replayArgs(t, "run", rec, rx.LocalAddr().String())...) // the third is past the jump
			if n := strings.Count(p.errs.String(), says); n != 1 {
				t.Errorf("gloved run warned %d times %q, want once; stderr:\n%s", n, says, p.errs.String())
			}

			r = runBinary(t, 30*time.Second, "dump", rec)
			if r.code != 0 || strings.Count(r.stdout, "\n") != 4 || !strings.Contains(r.stderr, says) {
				t.Errorf("gloved dump: exit %d, want 0, 4 samples and a warning saying %q\nstdout %s\nstderr %s", r.code, says, r.stdout, r.stderr)
			}
		})
	}
}

var replayedLine = regexp.MustCompile(`replayed (\d+) frames .*; (\d+) samples dropped`)

// playedSamples reads the samples `gloved replay` says it played: its
// frames and the samples it dropped (-1 if it does not say).
func playedSamples(stdout string) int {
	m := replayedLine.FindStringSubmatch(stdout)
	if m == nil {
		return -1
	}
	frames, _ := strconv.Atoi(m[1])
	dropped, _ := strconv.Atoi(m[2])
	return frames + dropped
}
