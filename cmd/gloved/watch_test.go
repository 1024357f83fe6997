package main

import (
	"context"
	"net"
	"os/exec"
	"strings"
	"testing"
	"time"

	goosc "github.com/hypebeast/go-osc/osc"
)

// TestWatchProvesItsAddressBeyondLoopback: gloved watch subscribing an
// address that is not loopback (in a private namespace, 192.0.2.1 on
// loopback, the daemon listening on every address) answers the daemon's
// token and shows the hands, as it does on loopback with no round trip.
func TestWatchProvesItsAddressBeyondLoopback(t *testing.T) {
	t.Parallel()
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

// TestWatchWithoutADaemonSaysSo: `gloved watch` at an address where no
// daemon answers gives up after its timeout (3 s, or --timeout), exits 1
// and says in one line that no gloved answered there, and how to start
// one.
func TestWatchWithoutADaemonSaysSo(t *testing.T) {
	t.Parallel()
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

// TestWatchOnTheDaemonsOwnAddressIsRefusedAndItsOwnRequestsAreNoAnswer:
// --listen equal to --daemon (or every address on the daemon's loopback
// port) would have watch subscribe itself, so it is refused in one line;
// and a request of watch's own that comes back to it from the daemon's
// address is no answer: --timeout still ends a watch that gets nothing
// else.
func TestWatchOnTheDaemonsOwnAddressIsRefusedAndItsOwnRequestsAreNoAnswer(t *testing.T) {
	addr := freeUDP(t)
	_, port, _ := net.SplitHostPort(addr)
	for _, listen := range []string{addr, "0.0.0.0:" + port} {
		r := runBinary(t, 10*time.Second, "watch", "--listen", listen, "--daemon", addr, "--timeout", "2s")
		r.oneLine(t, 2, "--listen "+listen+" is the daemon's address (--daemon "+addr+")", "leave --listen out")
	}
	sub, _ := goosc.NewMessage("/gloved/subscribe", "127.0.0.1", int32(9431)).MarshalBinary()
	got := make(chan datagram, 1)
	got <- datagram{sub, true}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var out strings.Builder
	if watchLoop(ctx, got, 200*time.Millisecond, "/gloved", &out, func(string) {}) {
		t.Errorf("watch's own /subscribe was taken for the daemon's answer")
	}
}

// TestWatchTakesAnswersOnlyFromTheDaemon: anyone may send to watch's
// socket; a token or a refusal from another address is ignored, and
// refusals whose argument is not a string (a blob) are no panic.
func TestWatchTakesAnswersOnlyFromTheDaemon(t *testing.T) {
	t.Parallel()
	blob, _ := goosc.NewMessage("/gloved/refused", []byte{1, 2}).MarshalBinary()
	token, _ := goosc.NewMessage("/gloved/validate", "forged").MarshalBinary()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	got := make(chan datagram, 4)
	got <- datagram{blob, true}
	got <- datagram{blob, true}
	got <- datagram{token, false}
	var validated []string
	var out strings.Builder
	watchLoop(ctx, got, 0, "/gloved", &out, func(tok string) { validated = append(validated, tok) })
	if len(validated) != 0 {
		t.Errorf("a token from another address was taken: %q", validated)
	}
	// Frames from another address are not shown; the daemon's hand names
	// are shown without what a terminal would obey.
	forged := goosc.NewBundle(time.Unix(0, 0))
	forged.Append(goosc.NewMessage("/gloved/evil/status", "streaming"))
	fb, _ := forged.MarshalBinary()
	own := goosc.NewBundle(time.Unix(0, 0))
	own.Append(goosc.NewMessage("/gloved/right/status", "\x1b[2Jstreaming"))
	ob, _ := own.MarshalBinary()
	ctx2, cancel2 := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel2()
	got = make(chan datagram, 2)
	got <- datagram{fb, false}
	got <- datagram{ob, true}
	out.Reset()
	watchLoop(ctx2, got, 0, "/gloved", &out, func(string) {})
	if strings.Contains(out.String(), "evil") || strings.Contains(out.String(), "\x1b") || !strings.Contains(out.String(), "right: ?[2Jstreaming") {
		t.Errorf("watch showed %q", out.String())
	}
}

// TestWatchShowsHandNamesWithoutTerminalCommands: a daemon (here a fake
// one on loopback) whose frames name a hand with escapes in the address
// (/gloved/\x1b]0;OWNED\x07\x1b[2J/status) gets the name shown by
// gloved watch with '?' for each control character, as string
// arguments are, not obeyed by the terminal.
func TestWatchShowsHandNamesWithoutTerminalCommands(t *testing.T) {
	fake, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer fake.Close()
	frame := goosc.NewBundle(time.Unix(0, 0))
	frame.Append(goosc.NewMessage("/gloved/\x1b]0;OWNED\x07\x1b[2J/status", "streaming"))
	b, err := frame.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	go func() { // answer every /subscribe with a frame to the subscriber
		buf := make([]byte, 65536)
		for {
			n, _, err := fake.ReadFromUDP(buf)
			if err != nil {
				return
			}
			p, err := goosc.ParsePacket(string(buf[:n]))
			m, ok := p.(*goosc.Message)
			if err != nil || !ok || m.Address != "/gloved/subscribe" || len(m.Arguments) < 2 {
				continue
			}
			host, _ := m.Arguments[0].(string)
			port, _ := m.Arguments[1].(int32)
			to := &net.UDPAddr{IP: net.ParseIP(host), Port: int(port)}
			for range 5 {
				fake.WriteToUDP(b, to)
				time.Sleep(50 * time.Millisecond)
			}
		}
	}()
	r := runBinary(t, 20*time.Second, "watch", "--daemon", fake.LocalAddr().String(), "--for", "1s")
	if r.code != 0 || strings.ContainsAny(r.stdout, "\x1b\x07") || !strings.Contains(r.stdout, "?]0;OWNED??[2J: streaming") {
		t.Errorf("exit %d; watch output:\n%q%s", r.code, r.stdout, r.stderr)
	}
}

// TestWatchSubscribesFromTheDaemonsIPVersion: gloved watch without
// --listen receives on loopback of the daemon address's IP version, so a
// daemon on [::1] gets the subscription and watch shows its hand (from
// 127.0.0.1 it never could); a --listen of the other version is refused
// in one line before anything is sent.
func TestWatchSubscribesFromTheDaemonsIPVersion(t *testing.T) {
	t.Parallel()
	probe, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv6loopback})
	if err != nil {
		t.Skipf("no IPv6 loopback here: %v", err)
	}
	probe.Close()
	_, port, _ := net.SplitHostPort(freeUDP(t))
	daemon := net.JoinHostPort("::1", port)
	p := startGloved(t, "gloved run", "run", "-c", writeConfig(t, daemon, "builtin:grasp", ""), "--status=false")
	p.logLine(t, "gloved running")
	r := runBinary(t, 20*time.Second, "watch", "--daemon", daemon, "--for", "3s")
	if r.code != 0 || !strings.Contains(r.stdout, "subscribing from [::1]:") || !strings.Contains(r.stdout, "right: streaming") {
		t.Errorf("exit %d; watch output:\n%s%s", r.code, r.stdout, r.stderr)
	}
	runBinary(t, 20*time.Second, "watch", "--daemon", daemon, "--listen", "127.0.0.1:0", "--for", "3s").
		oneLine(t, 2, "--listen 127.0.0.1:0 and --daemon "+daemon+" are of two IP versions", "leave it out")
}

// TestWatchSaysTheDaemonsRefusal: a daemon (here a fake one) that sends
// nothing to watch's subscription and answers /refused when asked to end
// it has watch end in one line saying the daemon's reason, not guessing
// at osc.prefix.
func TestWatchSaysTheDaemonsRefusal(t *testing.T) {
	t.Parallel()
	fake := loopbackUDP(t)
	const why = "the daemon listens on [::1]:9431 and cannot send to another IP version (IPv4)"
	refuseEvery(fake, "/gloved/unsubscribe", why)
	r := runBinary(t, 20*time.Second, "watch", "--daemon", fake.LocalAddr().String(), "--timeout", "1s")
	r.oneLine(t, 1, "the daemon at "+fake.LocalAddr().String()+" sent nothing under /gloved within 1s, and refused watch's subscription of 127.0.0.1:", ": "+why)
	if strings.Contains(r.stderr, "osc.prefix") {
		t.Errorf("watch guessed at the prefix: %s", r.stderr)
	}
}

// TestWatchShowsARefusalAsPrintableText: a daemon's /refused reason is
// shown as every string from the network is, its control characters
// (a terminal's escape sequences, a bell) as '?', never passed to the
// terminal.
func TestWatchShowsARefusalAsPrintableText(t *testing.T) {
	t.Parallel()
	fake := loopbackUDP(t)
	refuseEvery(fake, "/gloved/subscribe", "no\x1b[2J\x07 way")
	r := runBinary(t, 20*time.Second, "watch", "--daemon", fake.LocalAddr().String(), "--for", "1s")
	if !strings.Contains(r.stdout, "the daemon refused the subscription: no?[2J? way") || strings.ContainsAny(r.stdout+r.stderr, "\x1b\x07") {
		t.Errorf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

// refuseEvery makes fake a daemon that answers every message to address
// with /gloved/refused and why, to its sender, and ignores the rest,
// until fake is closed.
func refuseEvery(fake *net.UDPConn, address, why string) {
	refusal, _ := goosc.NewMessage("/gloved/refused", why).MarshalBinary()
	go func() {
		buf := make([]byte, 65536)
		for {
			n, from, err := fake.ReadFromUDP(buf)
			if err != nil {
				return
			}
			p, _ := goosc.ParsePacket(string(buf[:n]))
			if m, ok := p.(*goosc.Message); ok && m.Address == address {
				fake.WriteToUDP(refusal, from)
			}
		}
	}()
}
