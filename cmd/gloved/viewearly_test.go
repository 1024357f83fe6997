package main

import (
	"strings"
	"testing"
	"time"
)

// TestAViewAddressThatCannotBeServedIsSaidBeforeAnyFrame: contacts --view
// and replay --view with a port in use or beyond 65535 fail in one line
// naming --view and what to do, before a single frame is computed or
// printed; a port beyond 65535, or none, is a bad flag value (exit 2, as
// --target's), a port in use is not (exit 1).
func TestAViewAddressThatCannotBeServedIsSaidBeforeAnyFrame(t *testing.T) {
	t.Parallel()
	busy := busyTCP(t)
	for _, tc := range []struct {
		addr string
		code int
		says string
	}{
		{busy, 1, "--view " + busy + ": the port is in use: choose a free port"},
		{"127.0.0.1:99999", 2, "--view 127.0.0.1:99999: address 99999: invalid port: choose host:port with a free port"},
		{"127.0.0.1", 2, "--view 127.0.0.1: address 127.0.0.1: missing port in address: choose host:port"},
	} {
		for _, args := range [][]string{
			{"contacts", "--scene", "builtin:grasp", "--sim", "--frames", "3000", "--view", tc.addr},
			{"replay", "../../testdata/recordings/grasp.glove", "--speed", "max", "--target", freeUDP(t), "--view", tc.addr},
		} {
			r := runBinary(t, 60*time.Second, args...)
			r.oneLine(t, tc.code, tc.says)
			if strings.Contains(r.stdout, "frame") {
				t.Errorf("%s --view %s printed frames before failing:\n%.300s", args[0], tc.addr, r.stdout)
			}
		}
	}
}

// TestRunCheckRefusesTheViewRunWould: `run --check --view ADDR` refuses
// what `run --view ADDR` does, in the same line naming --view: a
// malformed address, a port beyond 65535, the port of one of the
// config's own servers; --view off passes both.
func TestRunCheckRefusesTheViewRunWould(t *testing.T) {
	t.Parallel()
	cfg := writeConfig(t, "127.0.0.1:0", "builtin:grasp", "[oscquery]\nenabled = true\nlisten = \"127.0.0.1:9432\"\n")
	for _, tc := range []struct{ view, says string }{
		{"nohost", `--view: view.listen = "nohost": want host:port`},
		{"127.0.0.1:99999", `--view: view.listen = "127.0.0.1:99999": "99999" is no port: give one of 0 to 65535`},
		{"127.0.0.1:9432", `--view: view.listen = "127.0.0.1:9432" and oscquery.listen = "127.0.0.1:9432": two of gloved's servers on one port`},
	} {
		runBinary(t, 60*time.Second, "run", "-c", cfg, "--check", "--view", tc.view).oneLine(t, 2, tc.says)
		runBinary(t, 60*time.Second, "run", "-c", cfg, "--for", "5s", "--status=false", "--view", tc.view).oneLine(t, 2, tc.says)
	}
	if r := runBinary(t, 60*time.Second, "run", "-c", cfg, "--check", "--view", "off"); r.code != 0 || !strings.HasPrefix(r.stdout, "config ok") {
		t.Errorf("--check --view off: exit %d, stdout %q, stderr %s", r.code, r.stdout, r.stderr)
	}
}
