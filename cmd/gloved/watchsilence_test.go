package main

import (
	"strings"
	"testing"
	"time"
)

// TestWatchThatHearsNothingFailsAndSaysWhy: a watch that nothing reached
// fails in one line by the end of --for as by its timeout: with no daemon
// at the address, that none answered; with a daemon there under another
// osc.prefix, that it sent nothing under watch's --prefix, naming it, and
// to check the daemon's osc.prefix.
func TestWatchThatHearsNothingFailsAndSaysWhy(t *testing.T) {
	t.Parallel()
	none := freeUDP(t)
	r := runBinary(t, 30*time.Second, "watch", "--daemon", none, "--for", "1s")
	r.oneLine(t, 1, "gloved: no gloved answered at "+none+" within 1s: is the daemon running? (gloved run)")

	addr := freeUDP(t)
	p := startGloved(t, "gloved run", "run", "-c", writeConfig(t, addr, "builtin:grasp", ""), "--status=false")
	p.logLine(t, "gloved running")
	for _, args := range [][]string{{"--for", "1s"}, {"--timeout", "1s"}} {
		r = runBinary(t, 30*time.Second, append([]string{"watch", "--daemon", addr, "--prefix", "/lab"}, args...)...)
		r.oneLine(t, 1, "nothing under /lab came from "+addr+" within 1s", "check the daemon's osc.prefix (--prefix /lab must match it)")
	}
	// The daemon's own prefix is heard within the same time.
	r = runBinary(t, 30*time.Second, "watch", "--daemon", addr, "--for", "1s")
	if r.code != 0 || !strings.Contains(r.stdout, "right: streaming") {
		t.Errorf("watch under /gloved: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestWatchRefusesWhatCannotBeADaemonOrAPrefix: --daemon with port 0 and
// a --prefix that is no OSC address are usage errors, said in one line
// before anything is sent; a --listen port in use names the flag and
// what to do, as the other commands' listen errors do.
func TestWatchRefusesWhatCannotBeADaemonOrAPrefix(t *testing.T) {
	t.Parallel()
	busy := loopbackUDP(t)
	for _, tc := range []struct {
		args []string
		code int
		says []string
	}{
		{[]string{"--daemon", "127.0.0.1:0"}, 2, []string{"--daemon 127.0.0.1:0", "port 0", "osc.listen"}},
		{[]string{"--daemon", "255.255.255.255:9431"}, 2, []string{"--daemon 255.255.255.255:9431", "broadcast, multicast or unspecified", "osc.listen"}},
		{[]string{"--daemon", "224.0.0.251:5353"}, 2, []string{"--daemon 224.0.0.251:5353", "broadcast, multicast or unspecified"}},
		{[]string{"--daemon", "[ff02::1]:9431"}, 2, []string{"--daemon [ff02::1]:9431", "broadcast, multicast or unspecified"}},
		{[]string{"--daemon", "0.0.0.0:9431"}, 2, []string{"--daemon 0.0.0.0:9431", "broadcast, multicast or unspecified"}},
		{[]string{"--prefix", "/x y"}, 2, []string{`--prefix "/x y"`, "like /gloved"}},
		{[]string{"--prefix", "gloved/"}, 2, []string{`--prefix "gloved/"`, "like /gloved"}},
		{[]string{"--listen", busy.LocalAddr().String()}, 1, []string{"--listen " + busy.LocalAddr().String() + ": the port is in use: choose a free port"}},
	} {
		r := runBinary(t, 30*time.Second, append([]string{"watch", "--daemon", freeUDP(t), "--for", "1s"}, tc.args...)...)
		r.oneLine(t, tc.code, tc.says...)
		if tc.code == 2 && strings.Contains(r.stdout, "watching") {
			t.Errorf("%v: watched before refusing:\n%s", tc.args, r.stdout)
		}
	}
}
