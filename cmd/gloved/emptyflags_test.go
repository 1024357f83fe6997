package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAFlagGivenEmptyIsRefusedAsItsKeyWrittenEmpty: --motion "" (and
// --calibration "") given to contacts, export, record or demo is refused
// in one line naming it, exit code 2, as a config's motion = "" is: it
// was taken for the default grasp.
func TestAFlagGivenEmptyIsRefusedAsItsKeyWrittenEmpty(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"contacts", "--scene", "builtin:grasp", "--sim", "--frames", "3", "--motion", ""}, `motion = "": want grasp`},
		{[]string{"export", "--scene", "builtin:grasp", "--sim", "--frames", "3", "--motion", "", "--out", dir}, `motion = "": want grasp`},
		{[]string{"record", "--device", "sim", "--seconds", "1", "--motion", "", "-o", filepath.Join(dir, "r.glove")}, `motion = "": want grasp`},
		{[]string{"demo", "--frames", "3", "--motion", ""}, `motion = "": want grasp`},
		{[]string{"contacts", "--scene", "builtin:grasp", "--sim", "--frames", "3", "--calibration", ""}, `--calibration "": empty: write a calibration file`},
	} {
		r := runBinary(t, 30*time.Second, tc.args...)
		r.oneLine(t, 2, tc.says)
	}
}

// TestEmulatePoseFlagsNeedTheCalibrationPoses: --noise, --pose and
// --script shape the calibration poses only; without --calibration the
// emulator refuses each in one line (exit code 2) rather than playing a
// motion they do not touch.
func TestEmulatePoseFlagsNeedTheCalibrationPoses(t *testing.T) {
	t.Parallel()
	for _, f := range [][]string{{"--noise", "1"}, {"--pose", "fist"}, {"--script", filepath.Join(t.TempDir(), "s.txt")}} {
		for _, model := range []string{"cyberglove", "opengloves"} {
			r := runBinary(t, 10*time.Second, append([]string{"emulate", "--model", model}, f...)...)
			r.oneLine(t, 2, f[0]+" shapes the calibration poses, played only with --calibration FILE")
		}
	}
}

// TestFramesLimitsARecordingToo: --frames N with --recording runs the
// recording's first N frames (it was taken only for --sim, and ignored
// silently), and --frames 0 is refused for either.
func TestFramesLimitsARecordingToo(t *testing.T) {
	t.Parallel()
	rec := "../../testdata/recordings/grasp.glove"
	r := runBinary(t, 20*time.Second, "contacts", "--scene", "builtin:grasp", "--recording", rec, "--frames", "4")
	if lines := strings.Count(r.stdout, "\n"); r.code != 0 || lines != 4 {
		t.Errorf("exit %d, %d lines, want 4:\n%s%s", r.code, lines, r.stdout, r.stderr)
	}
	runBinary(t, 20*time.Second, "contacts", "--scene", "builtin:grasp", "--recording", rec, "--frames", "0").oneLine(t, 2, "--frames 0: want at least 1")
}
