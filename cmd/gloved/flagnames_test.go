package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestReplayFlagErrorsNameTheFlags: gloved replay's flags set config keys
// of the daemon it builds, and their errors name the flags as given, as
// record's do: --speed 0, a --listen port in use, a --listen no daemon
// can bind, a --target the --listen address cannot send to; never
// hand[0].speed, osc.listen nor osc.targets.
func TestReplayFlagErrorsNameTheFlags(t *testing.T) {
	t.Parallel()
	busy := loopbackUDP(t)
	at := busy.LocalAddr().String()
	rec := "../../testdata/recordings/grasp.glove"
	for _, tc := range []struct {
		args []string
		code int
		says []string
	}{
		{[]string{"--speed", "0"}, 2, []string{`gloved: --speed 0: want "1" or "max"`}},
		{[]string{"--listen", at, "--target", freeUDP(t)}, 1, []string{"gloved: --listen " + at + ": the port is in use", "choose a free port for --listen"}},
		{[]string{"--listen", "[::1]:0", "--target", "127.0.0.1:9"}, 2, []string{"gloved: --target 127.0.0.1:9: an IPv4 address, and --listen binds the IPv6 address ::1 alone"}},
		// A value no daemon can listen on is a usage error, as --view's and
		// --target's are (campaign 9 left it exiting 1).
		{[]string{"--listen", "127.0.0.1:99999"}, 2, []string{"gloved: --listen 127.0.0.1:99999: address 99999: invalid port", "want host:port"}},
		{[]string{"--listen", "192.0.2.1:9000"}, 2, []string{"gloved: --listen 192.0.2.1:9000: cannot listen there", "give an address of this machine"}},
	} {
		r := runBinary(t, 30*time.Second, append([]string{"replay", rec}, tc.args...)...)
		r.oneLine(t, tc.code, tc.says...)
		for _, key := range []string{"hand[0]", "osc.listen", "osc.targets", "config:"} {
			if strings.Contains(r.stderr, key) {
				t.Errorf("replay %v names %s: %s", tc.args, key, r.stderr)
			}
		}
	}
}

// TestCalibrateTakesViewOffAndChecksViewBeforeTheGlove: calibrate --view
// off means no page, as for run (it was refused); a --view that cannot be
// served is said before the glove is opened (here a port that is not
// there, which would otherwise be the error), a usage error (exit 2) as
// every malformed flag value is, and no calibration is written.
func TestCalibrateTakesViewOffAndChecksViewBeforeTheGlove(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "c.cal")
	port := filepath.Join(t.TempDir(), "no-tty")
	r := runBinary(t, 20*time.Second, "calibrate", "--port", port, "-o", out, "--view", "off")
	r.oneLine(t, 1, "open "+port, "is the glove's interface unit plugged in")
	r = runBinary(t, 20*time.Second, "calibrate", "--port", port, "-o", out, "--view", "nohost")
	r.oneLine(t, 2, "--view nohost: ", "choose host:port")
	if _, err := os.Stat(out); err == nil {
		t.Errorf("%s was written", out)
	}
}

// TestHandRefusesASizeBesideASkinnedMesh: gloved hand --mesh takes the
// hand's size from the skin, so --length or --breadth beside it (once
// ignored without a word) is refused in one line naming both flags.
func TestHandRefusesASizeBesideASkinnedMesh(t *testing.T) {
	t.Parallel()
	for _, size := range []string{"length", "breadth"} {
		r := runBinary(t, 20*time.Second, "hand", "--mesh", webxrRight, "--"+size, "0.1")
		r.oneLine(t, 2, "--"+size+" with --mesh: a skinned hand's size is its skin's; leave --"+size+" out")
	}
}
