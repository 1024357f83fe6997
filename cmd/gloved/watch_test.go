package main

import (
	"net"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestWatchProvesItsAddressBeyondLoopback: gloved watch subscribing an
// address that is not loopback (in a private namespace, 192.0.2.1 on
// loopback, the daemon listening on every address) answers the daemon's
// token and shows the hands, as it does on loopback with no round trip.
func TestWatchProvesItsAddressBeyondLoopback(t *testing.T) {
	if !inNamespace(t) {
		return
	}
	if out, err := exec.Command("ip", "addr", "add", "192.0.2.1/32", "dev", "lo").CombinedOutput(); err != nil {
		t.Fatalf("ip addr add: %v %s", err, out)
	}
	_, port, _ := net.SplitHostPort(freeUDP(t))
	p := startGloved(t, "gloved run", "run", "-c", twoHandConfig(t, "0.0.0.0:"+port, ""), "--status=false")
	p.logLine(t, "gloved running")
	r := runBinary(t, 20*time.Second, "watch", "--daemon", "192.0.2.1:"+port, "--listen", "192.0.2.1:0", "--for", "3s")
	if r.code != 0 || !strings.Contains(r.stdout, "right: streaming") || !strings.Contains(r.stdout, "left: streaming") {
		t.Fatalf("exit %d; watch output:\n%s%s", r.code, r.stdout, r.stderr)
	}
}
