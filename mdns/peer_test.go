package mdns

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/gloved/gloved/internal/netns"
	"github.com/gloved/gloved/internal/zeroconftest"
)

// startPeer starts a peer on the namespace's loopback, closed when the
// test ends.
func startPeer(t *testing.T, cfg Config) *Peer {
	t.Helper()
	ifs, err := Interfaces(nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Interfaces = ifs
	p, err := Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// TestPeerIsFoundByPythonZeroconf: python-zeroconf browsing each service
// type finds the instance, resolves its SRV, TXT and the one address it
// is advertised at, and sees it removed when the peer closes (goodbye).
func TestPeerIsFoundByPythonZeroconf(t *testing.T) {
	t.Parallel()
	if !netns.Run(t) {
		return
	}
	zeroconftest.Python(t)
	json := zeroconftest.Start(t, "browse", "_oscjson._tcp.local.")
	osc := zeroconftest.Start(t, "browse", "_osc._udp.local.")
	for _, b := range []*zeroconftest.Peer{json, osc} {
		b.Next(t, 10*time.Second, func(e zeroconftest.Event) bool { return e.Event == "browsing" })
	}
	named := make(chan string, 4)
	p := startPeer(t, Config{Instance: "gloved-test", Services: oscquery("127.0.0.1"), OnName: func(n string) { named <- n }})
	for _, tc := range []struct {
		b            *zeroconftest.Peer
		name, server string
		port         int
	}{
		{json, "gloved-test._oscjson._tcp.local.", "gloved-test-oscjson.local.", 9432},
		{osc, "gloved-test._osc._udp.local.", "gloved-test-osc.local.", 9431},
	} {
		e := tc.b.Next(t, 10*time.Second, func(e zeroconftest.Event) bool { return e.Event == "added" })
		if e.Name != tc.name || e.Server != tc.server || e.Port != tc.port || !slices.Equal(e.Addresses, []string{"127.0.0.1"}) {
			t.Errorf("python-zeroconf found %s", e.Raw)
		}
	}
	if n := <-named; n != "gloved-test" || p.Name() != "gloved-test" {
		t.Errorf("announced as %q", n)
	}
	p.Close()
	for _, b := range []*zeroconftest.Peer{json, osc} {
		e := b.Next(t, 10*time.Second, func(e zeroconftest.Event) bool { return e.Event == "removed" })
		t.Logf("after the goodbye: %s", e.Raw)
	}
}

// TestPeerFindsPythonZeroconfsService: a service python-zeroconf
// advertises (VRChat's OSC port, as VRChat names it) is found with its
// address and port, found again when it moves, and lost when it is
// withdrawn.
func TestPeerFindsPythonZeroconfsService(t *testing.T) {
	t.Parallel()
	if !netns.Run(t) {
		return
	}
	zeroconftest.Python(t)
	found, lost := make(chan Found, 8), make(chan Found, 8)
	startPeer(t, Config{Browse: []string{"_osc._udp"}, OnFound: func(f Found) { found <- f }, OnLost: func(f Found) { lost <- f }})
	vrc := zeroconftest.Start(t, "advertise", "_osc._udp.local.", "VRChat-Client-A1B2C3", "9000", "127.0.0.1")
	vrc.Next(t, 10*time.Second, func(e zeroconftest.Event) bool { return e.Event == "registered" })
	f := wait(t, found, "found")
	if f.Instance != "VRChat-Client-A1B2C3" || f.Type != "_osc._udp" || f.Addr != netip.MustParseAddrPort("127.0.0.1:9000") || !f.Local || f.Interface != "lo" {
		t.Errorf("found %+v", f)
	}
	vrc.Send("port 9002")
	if f := wait(t, found, "found after moving"); f.Addr.Port() != 9002 {
		t.Errorf("after moving: %+v", f)
	}
	vrc.Send("quit")
	if l := wait(t, lost, "lost"); l.Instance != "VRChat-Client-A1B2C3" {
		t.Errorf("lost %+v", l)
	}
}

func wait(t *testing.T, ch chan Found, what string) Found {
	t.Helper()
	select {
	case f := <-ch:
		return f
	case <-time.After(15 * time.Second):
		t.Fatalf("not %s within 15 s", what)
	}
	return Found{}
}

// TestTwoPeersOneName: a second peer advertising a name the first holds
// takes "name (2)", started after the first or at the same moment; both
// are found, each once.
func TestTwoPeersOneName(t *testing.T) {
	t.Parallel()
	if !netns.Run(t) {
		return
	}
	found := make(chan Found, 8)
	startPeer(t, Config{Browse: []string{"_osc._udp"}, OnFound: func(f Found) { found <- f }})
	svc := func(port uint16) []Service {
		return []Service{{Type: "_osc._udp", Port: port, Listen: netip.MustParseAddr("127.0.0.1")}}
	}
	first := startPeer(t, Config{Instance: "gloved-test", Services: svc(9431)})
	wait(t, found, "the first")
	second := startPeer(t, Config{Instance: "gloved-test", Services: svc(9441)})
	f := wait(t, found, "the second")
	if first.Name() != "gloved-test" || second.Name() != "gloved-test (2)" || f.Instance != "gloved-test (2)" || f.Addr.Port() != 9441 {
		t.Errorf("names %q and %q; found %+v", first.Name(), second.Name(), f)
	}
	a := startPeer(t, Config{Instance: "gloved-same", Services: svc(9451)})
	b := startPeer(t, Config{Instance: "gloved-same", Services: svc(9461)})
	seen := map[string]uint16{}
	for range 2 {
		f := wait(t, found, "one of two started at once")
		seen[f.Instance] = f.Addr.Port()
	}
	if len(seen) != 2 || a.Name() == b.Name() {
		t.Errorf("two peers started at once: %q and %q, found %v", a.Name(), b.Name(), seen)
	}
	select {
	case f := <-found:
		t.Errorf("found once more: %+v", f)
	case <-time.After(2 * time.Second):
	}
}

// TestPortIsShared: port 5353 is shared with a stack that set only
// SO_REUSEPORT (where the Go mDNS libraries' sockets, SO_REUSEADDR only,
// fail to bind) and with one that set only SO_REUSEADDR.
func TestPortIsShared(t *testing.T) {
	t.Parallel()
	if !netns.Run(t) {
		return
	}
	for _, opt := range []int{unix.SO_REUSEPORT, unix.SO_REUSEADDR} {
		other := bindWith(t, opt)
		_, err := net.ListenUDP("udp4", groupAddr) // as brutella/dnssd, libp2p/zeroconf and betamos/zeroconf bind
		if opt == unix.SO_REUSEPORT && !errors.Is(err, syscall.EADDRINUSE) {
			t.Errorf("beside a SO_REUSEPORT socket, SO_REUSEADDR alone: %v, want the port in use", err)
		}
		p, err := Start(Config{Interfaces: mustInterfaces(t), Browse: []string{"_osc._udp"}})
		if err != nil {
			t.Errorf("beside a socket with only option %d: %v", opt, err)
		} else {
			p.Close()
		}
		other.Close()
	}
}

func mustInterfaces(t *testing.T) []Interface {
	ifs, err := Interfaces(nil)
	if err != nil {
		t.Fatal(err)
	}
	return ifs
}

// bindWith binds 0.0.0.0:5353 with one socket option set.
func bindWith(t *testing.T, opt int) net.PacketConn {
	t.Helper()
	lc := net.ListenConfig{Control: func(_, _ string, rc syscall.RawConn) error {
		var serr error
		rc.Control(func(fd uintptr) { serr = unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, opt, 1) })
		return serr
	}}
	c, err := lc.ListenPacket(context.Background(), "udp4", "0.0.0.0:5353")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestPortHeldSaysWhatToDo: port 5353 held by a socket that does not
// share it fails Start with what to do.
func TestPortHeldSaysWhatToDo(t *testing.T) {
	t.Parallel()
	if !netns.Run(t) {
		return
	}
	other, err := net.ListenPacket("udp4", "0.0.0.0:5353") // no SO_REUSEADDR, no SO_REUSEPORT
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	_, err = Start(Config{Interfaces: mustInterfaces(t), Browse: []string{"_osc._udp"}})
	if !errors.Is(err, syscall.EADDRINUSE) || !strings.Contains(err.Error(), "ss -ulpn") || !strings.Contains(err.Error(), "stop it") {
		t.Errorf("beside a socket that does not share the port: %v", err)
	}
}

// TestOwnPacketsAreKnownByTheirSource: a datagram the socket sent is its
// own when it comes back from the address it was sent from; the same
// bytes from another host are that host's (two browsers send identical
// queries).
func TestOwnPacketsAreKnownByTheirSource(t *testing.T) {
	var s sentPackets
	b := []byte("a query")
	s.add(b, netip.MustParseAddr("192.0.2.1"))
	for _, tc := range []struct {
		b    string
		src  string
		want bool
	}{
		{"a query", "192.0.2.1", true},
		{"a query", "::ffff:192.0.2.1", true},
		{"a query", "192.0.2.7", false},
		{"another", "192.0.2.1", false},
	} {
		if got := s.was([]byte(tc.b), netip.MustParseAddr(tc.src)); got != tc.want {
			t.Errorf("%q from %s: own %v, want %v", tc.b, tc.src, got, tc.want)
		}
	}
}
