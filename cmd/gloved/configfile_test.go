package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestADeepConfigIsRefusedAtOnce: a config nested 20,000 tables deep
// (which took 16 GB and 76 s to decode) and one whose unknown key
// is 10,000 tables deep (a line of megabytes) each end with one short
// line naming the limit.
func TestADeepConfigIsRefusedAtOnce(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"inline.toml": "a = " + strings.Repeat("{a = ", 20_000) + "1" + strings.Repeat("}", 20_000) + "\n",
		"header.toml": "[" + strings.Repeat("a.", 10_000) + "a]\n",
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		r := runBinary(t, 60*time.Second, "run", "-c", path, "--check")
		r.oneLine(t, 2, name+": line 1: nested deeper than 16 levels")
		if len(r.stderr) > 300 {
			t.Errorf("%s: a line of %d bytes: %.300s", name, len(r.stderr), r.stderr)
		}
	}
}

// TestATOMLMistakeIsReportedOnItsLine: an array left open on line 8 is
// reported on line 8, not where the decoder gave up.
func TestATOMLMistakeIsReportedOnItsLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gloved.toml")
	text := `# my glove
[[hand]]
name = "right"
device = "sim"

[osc]
listen = "127.0.0.1:0"
targets = ["127.0.0.1:9430"
# frames go to these
prefix = "/gloved"
`
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runBinary(t, 20*time.Second, "run", "-c", path, "--check")
	r.oneLine(t, 2, "gloved.toml: line 8: an array begun here is never closed")
}

// TestAMissingRelativePathSaysWhereItWasLookedFor: a config copied away
// from the files it names by relative paths says, for each, the absolute
// path tried and that paths are relative to the config file, at --check
// and at start alike: a configuration error, exit 2, naming the key.
func TestAMissingRelativePathSaysWhereItWasLookedFor(t *testing.T) {
	scene := writeConfig(t, "127.0.0.1:0", "../scenes/grasp.obj", "")
	cal := writeConfig(t, "127.0.0.1:0", "builtin:grasp", leftHand("cyberglove", `port = "/dev/null-glove"`, `calibration = "../calibrations/mine.toml"`))
	for _, tc := range []struct{ config, key, relative string }{
		{scene, "scene", "../scenes/grasp.obj"},
		{cal, "hand[1] (left).calibration", "../calibrations/mine.toml"},
	} {
		dir := filepath.Dir(tc.config)
		says := []string{"open " + filepath.Join(dir, tc.relative) + ": no such file",
			tc.relative + " is relative to the config file's directory, " + dir}
		r := runBinary(t, 20*time.Second, "run", "-c", tc.config, "--check")
		r.oneLine(t, 2, append(says, tc.key)...)
		r = runBinary(t, 20*time.Second, "run", "-c", tc.config, "--status=false", "--for", "3s")
		r.oneLine(t, 2, append(says, tc.key, "config: "+tc.config)...)
	}
}

// TestTheOldWristFormWarnsOnce: a hand's wrist in the old order still
// checks and runs, with one warning line naming the wrist_pose to write
// (at --check on standard error, at run in the log); wrist_pose itself
// says nothing.
func TestTheOldWristFormWarnsOnce(t *testing.T) {
	t.Parallel()
	old := writeConfig(t, "127.0.0.1:0", "builtin:grasp", leftHand("sim", "wrist = [0.70710678, -0.70710678, 0.0, 0.0, 0.0, 0.91, 0.10]"))
	says := "hand[1].wrist = [0.70710678, -0.70710678, 0.0, 0.0, 0.0, 0.91, 0.1] is the old order, qw qx qy qz tx ty tz: " +
		"write wrist_pose = [0.0, 0.91, 0.1, -0.70710678, 0.0, 0.0, 0.70710678] (tx ty tz qx qy qz qw, as the OSC wrist message)"
	r := runBinary(t, 20*time.Second, "run", "-c", old, "--check")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "config ok") || r.stderr != "gloved: warning: "+old+": "+says+"\n" {
		t.Errorf("--check: exit %d, stdout %q, stderr %q; want config ok and the one warning", r.code, r.stdout, r.stderr)
	}
	r = runBinary(t, 20*time.Second, "run", "-c", old, "--status=false", "--for", "2s")
	if r.code != 0 || strings.Count(r.stderr, "is the old order") != 1 || !strings.Contains(r.stderr, says) {
		t.Errorf("run: exit %d, want the warning logged once:\n%s", r.code, r.stderr)
	}
	written := writeConfig(t, "127.0.0.1:0", "builtin:grasp", leftHand("sim", "wrist_pose = [0.0, 0.91, 0.1, -0.70710678, 0.0, 0.0, 0.70710678]"))
	if r := runBinary(t, 20*time.Second, "run", "-c", written, "--check"); r.code != 0 || r.stderr != "" {
		t.Errorf("wrist_pose: exit %d, stderr %q; want nothing said", r.code, r.stderr)
	}
}
