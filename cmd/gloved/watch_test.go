package main

import (
	"testing"
	"time"
)

// TestWatchWithoutADaemonSaysSo: `gloved watch` at an address where no
// daemon answers gives up after its timeout (3 s, or --timeout), exits 1
// and says in one line that no gloved answered there, and how to start
// one.
func TestWatchWithoutADaemonSaysSo(t *testing.T) {
	addr := freeUDP(t)
	for _, tc := range []struct {
		args   []string
		within string
	}{
		{nil, "3s"},
		{[]string{"--timeout", "500ms"}, "500ms"},
	} {
		r := runBinary(t, 30*time.Second, append([]string{"watch", "--daemon", addr}, tc.args...)...)
		r.oneLine(t, 1, "gloved: no gloved answered at "+addr+" within "+tc.within+": is the daemon running? (gloved run)")
	}
}
