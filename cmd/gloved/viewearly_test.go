package main

import (
	"strings"
	"testing"
	"time"
)

// TestAViewAddressThatCannotBeServedIsSaidBeforeAnyFrame: contacts --view
// and replay --view with a port in use or beyond 65535 fail in one line
// naming --view and what to do, before a single frame is computed or
// printed.
func TestAViewAddressThatCannotBeServedIsSaidBeforeAnyFrame(t *testing.T) {
	t.Parallel()
	busy := busyTCP(t)
	for _, tc := range []struct {
		addr string
		says string
	}{
		{busy, "--view " + busy + ": the port is in use: choose a free port"},
		{"127.0.0.1:99999", "--view 127.0.0.1:99999: address 99999: invalid port: choose host:port with a free port"},
	} {
		for _, args := range [][]string{
			{"contacts", "--scene", "builtin:grasp", "--sim", "--frames", "3000", "--view", tc.addr},
			{"replay", "../../testdata/recordings/grasp.glove", "--speed", "max", "--target", freeUDP(t), "--view", tc.addr},
		} {
			r := runBinary(t, 60*time.Second, args...)
			r.oneLine(t, 1, tc.says)
			if strings.Contains(r.stdout, "frame") {
				t.Errorf("%s --view %s printed frames before failing:\n%.300s", args[0], tc.addr, r.stdout)
			}
		}
	}
}
