package oscquery

import (
	"encoding/json"
	"errors"
	"net/netip"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gloved/gloved/internal/netns"
	"github.com/gloved/gloved/internal/zeroconftest"
	"github.com/gloved/gloved/mdns"
	"github.com/gloved/gloved/osc"
)

// sink records what a service found.
type sink struct {
	mu     sync.Mutex
	events chan string
}

func newSink() *sink { return &sink{events: make(chan string, 16)} }

func (s *sink) Found(instance string, ap netip.AddrPort) {
	s.events <- "found " + instance + " " + ap.String()
}
func (s *sink) Lost(instance string) { s.events <- "lost " + instance }

func (s *sink) next(t *testing.T) string {
	t.Helper()
	select {
	case e := <-s.events:
		return e
	case <-time.After(15 * time.Second):
		t.Fatal("nothing found or lost within 15 s")
	}
	return ""
}

// startService starts a service of the two hands' tree.
func startService(t *testing.T, cfg Config) *Service {
	t.Helper()
	tree, err := twoHands.Tree(osc.Methods())
	if err != nil {
		t.Fatal(err)
	}
	s, err := Start(cfg, tree)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestServiceIsReadByPythonZeroconf: python-zeroconf finds the
// _oscjson._tcp instance, reads HOST_INFO and the tree at the address
// and port advertised, and both pass the OSCQuery JSON schema; the tree
// read is the one served.
func TestServiceIsReadByPythonZeroconf(t *testing.T) {
	t.Parallel()
	if !netns.Run(t) {
		return
	}
	b := zeroconftest.Start(t, "browse", "_oscjson._tcp.local.", "--http", "--schema")
	b.Next(t, 10*time.Second, func(e zeroconftest.Event) bool { return e.Event == "browsing" })
	s := startService(t, Config{Name: "gloved-test", Listen: "127.0.0.1:0", OSC: netip.MustParseAddrPort("127.0.0.1:9431")})
	e := b.Next(t, 15*time.Second, func(e zeroconftest.Event) bool { return e.Event == "added" })
	if len(e.SchemaErrors) > 0 || e.HTTP["tree"] != float64(200) || e.HTTP["tree_type"] != "application/json" {
		t.Fatalf("read %s", e.Raw)
	}
	var hi HostInfo
	json.Unmarshal(e.HostInfo, &hi)
	if hi.Name != "gloved-test" || hi.OSCIP != "127.0.0.1" || hi.OSCPort != 9431 || e.Port != int(s.Server.AddrPort().Port()) {
		t.Errorf("HOST_INFO %+v at port %d", hi, e.Port)
	}
	var got, want any
	json.Unmarshal(e.Tree, &got)
	_, served := get(s.Server.Handler(), "GET", "/")
	json.Unmarshal([]byte(served), &want)
	if !jsonEqual(got, want) {
		t.Error("the tree read over the network is not the one served")
	}
	if s.Name() != "gloved-test" || !s.Advertised() {
		t.Errorf("name %q advertised %v", s.Name(), s.Advertised())
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// TestServiceSendsToWhatItFinds: of the _osc._udp services advertised,
// those whose names match a pattern are passed to the sink when they
// appear, and lost when they are withdrawn; others are not.
func TestServiceSendsToWhatItFinds(t *testing.T) {
	t.Parallel()
	if !netns.Run(t) {
		return
	}
	zeroconftest.Python(t)
	sk := newSink()
	startService(t, Config{Name: "gloved-test", Listen: "127.0.0.1:0", OSC: netip.MustParseAddrPort("127.0.0.1:9431"),
		Discover: []string{"VRChat-Client-*"}, Sink: sk})
	other := zeroconftest.Start(t, "advertise", "_osc._udp.local.", "Other-App", "9100", "127.0.0.1")
	other.Next(t, 10*time.Second, func(e zeroconftest.Event) bool { return e.Event == "registered" })
	vrc := zeroconftest.Start(t, "advertise", "_osc._udp.local.", "VRChat-Client-A1B2C3", "9000", "127.0.0.1")
	vrc.Next(t, 10*time.Second, func(e zeroconftest.Event) bool { return e.Event == "registered" })
	if e := sk.next(t); e != "found VRChat-Client-A1B2C3 127.0.0.1:9000" {
		t.Fatalf("first: %q", e)
	}
	vrc.Send("quit")
	if e := sk.next(t); e != "lost VRChat-Client-A1B2C3" {
		t.Fatalf("then: %q", e)
	}
}

// TestServiceSaysWhyItIsNotAdvertised: with loopback not carrying
// multicast (Linux's default), a service on loopback is not advertised,
// says so once with what to do (as information: it is the default, not a
// fault), and still serves its tree.
func TestServiceSaysWhyItIsNotAdvertised(t *testing.T) {
	t.Parallel()
	if !netns.Run(t) {
		return
	}
	if out, err := exec.Command("ip", "link", "set", "lo", "multicast", "off").CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	var warned, told []string
	s := startService(t, Config{Name: "gloved-test", Listen: "127.0.0.1:0", OSC: netip.MustParseAddrPort("127.0.0.1:9431"),
		Warn: func(msg string, kv ...any) { warned = append(warned, msg) },
		Info: func(msg string, kv ...any) { told = append(told, msg) }})
	if s.Advertised() || len(warned) != 0 || len(told) != 1 || !strings.Contains(s.NotAdvertised(), "ip link set lo multicast on") || s.MDNS() != nil {
		t.Errorf("advertised %v; warned %q; told %q; why %q", s.Advertised(), warned, told, s.NotAdvertised())
	}
	if code, _ := get(s.Server.Handler(), "GET", "/?HOST_INFO"); code != 200 {
		t.Errorf("HOST_INFO: %d", code)
	}
}

// TestServiceLooksForAppsWhereItIsNotAdvertised: a service on loopback,
// which carries no multicast, that looks for apps runs mDNS on the
// interfaces that do (here a veth pair inside the test's namespace) to
// find them, is not advertised,
// and says so once as information, not as a warning.
func TestServiceLooksForAppsWhereItIsNotAdvertised(t *testing.T) {
	t.Parallel()
	if !netns.Run(t) {
		return
	}
	for _, args := range [][]string{
		{"link", "set", "lo", "multicast", "off"},
		{"link", "add", "v0", "type", "veth", "peer", "name", "v1"},
		{"addr", "add", "10.9.0.1/24", "dev", "v0"},
		{"link", "set", "v1", "up"},
		{"link", "set", "v0", "up"},
	} {
		if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
			t.Fatalf("ip %v: %v %s", args, err, out)
		}
	}
	var warned, told []string
	s := startService(t, Config{Name: "gloved-test", Listen: "127.0.0.1:0", OSC: netip.MustParseAddrPort("127.0.0.1:9431"),
		Discover: []string{"VRChat-Client-*"}, Sink: newSink(),
		Warn: func(msg string, kv ...any) { warned = append(warned, msg) },
		Info: func(msg string, kv ...any) { told = append(told, msg) }})
	if s.Advertised() || s.MDNS() == nil || len(warned) != 0 || !strings.Contains(s.NotAdvertised(), "apps are still looked for") {
		t.Errorf("advertised %v, mDNS running %v; warned %q; told %q; why %q", s.Advertised(), s.MDNS() != nil, warned, told, s.NotAdvertised())
	}
}

// TestDiscoveryPassesWhatTheSocketReaches: a found app is passed on only
// if its name matches and gloved's OSC socket can send to its address (a
// socket on loopback reaches loopback only) and that address is not
// the socket's own (osc.SendsToSelf); an app that becomes unreachable is
// lost.
func TestDiscoveryPassesWhatTheSocketReaches(t *testing.T) {
	for _, tc := range []struct {
		osc, found string
		passed     bool
	}{
		{"127.0.0.1", "127.0.0.1:9000", true},
		{"127.0.0.1", "192.0.2.7:9000", false},
		{"0.0.0.0", "192.0.2.7:9000", true},
		{"0.0.0.0", "127.0.0.1:9000", true},
		{"192.0.2.1", "192.0.2.7:9000", true},
		{"192.0.2.1", "127.0.0.1:9000", false},
		{"127.0.0.1", "127.0.0.1:9001", false}, // gloved's own socket
		{"0.0.0.0", "127.0.0.1:9001", false},
	} {
		sk := newSink()
		d := newDiscovery([]string{"VRChat-Client-*"}, netip.AddrPortFrom(netip.MustParseAddr(tc.osc), 9001), nil, sk, nil)
		d.found(mdns.Found{Instance: "Other", Addr: netip.MustParseAddrPort("127.0.0.1:1")})
		d.found(mdns.Found{Instance: "VRChat-Client-1", Addr: netip.MustParseAddrPort(tc.found)})
		if got := len(sk.events) == 1; got != tc.passed {
			t.Errorf("socket on %s, app at %s: passed %v, want %v", tc.osc, tc.found, got, tc.passed)
		}
	}
	sk := newSink()
	d := newDiscovery([]string{"VRChat-Client-*"}, netip.MustParseAddrPort("127.0.0.1:9001"), nil, sk, nil)
	d.found(mdns.Found{Instance: "VRChat-Client-1", Addr: netip.MustParseAddrPort("127.0.0.1:9000")})
	d.found(mdns.Found{Instance: "VRChat-Client-1", Addr: netip.MustParseAddrPort("127.0.0.1:9000")})
	d.found(mdns.Found{Instance: "VRChat-Client-1", Addr: netip.MustParseAddrPort("192.0.2.7:9000")})
	d.lost(mdns.Found{Instance: "VRChat-Client-1"})
	var got []string
	for len(sk.events) > 0 {
		got = append(got, <-sk.events)
	}
	if strings.Join(got, "; ") != "found VRChat-Client-1 127.0.0.1:9000; lost VRChat-Client-1" {
		t.Errorf("events %v", got)
	}
}

// TestSecondServiceTakesAnotherName: two gloveds with one name on a
// network: the second is advertised as "name (2)", and its HOST_INFO
// says so.
func TestSecondServiceTakesAnotherName(t *testing.T) {
	t.Parallel()
	if !netns.Run(t) {
		return
	}
	cfg := Config{Name: "gloved-test", Listen: "127.0.0.1:0", OSC: netip.MustParseAddrPort("127.0.0.1:9431")}
	first := startService(t, cfg)
	waitName(t, first, "gloved-test")
	cfg.OSC = netip.MustParseAddrPort("127.0.0.1:9441")
	second := startService(t, cfg)
	waitName(t, second, "gloved-test (2)")
	_, body := get(second.Server.Handler(), "GET", "/?HOST_INFO")
	var hi HostInfo
	json.Unmarshal([]byte(body), &hi)
	if hi.Name != "gloved-test (2)" || first.Name() != "gloved-test" {
		t.Errorf("HOST_INFO %+v; the first is %q", hi, first.Name())
	}
}

// waitName waits until s is announced as name.
func waitName(t *testing.T, s *Service, name string) {
	t.Helper()
	announced := func() string {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.peer == nil {
			return ""
		}
		return s.peer.Name()
	}
	deadline := time.Now().Add(10 * time.Second)
	for announced() != name {
		if time.Now().After(deadline) {
			t.Fatalf("announced as %q, want %q", announced(), name)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestServiceSendsOnlyToTheLink: an app advertised at an address off the
// link it was heard on (and not its sender's) is not sent to, however
// well its name matches: any host on the link could otherwise aim
// gloved's stream at a third host. It is counted; osc.allow trusting the
// address makes it one to send to.
func TestServiceSendsOnlyToTheLink(t *testing.T) {
	t.Parallel()
	if !netns.Run(t) {
		return
	}
	zeroconftest.Python(t)
	for _, allow := range []string{"", "198.51.100.0/24"} {
		sk := newSink()
		cfg := Config{Name: "gloved-test", Listen: "127.0.0.1:0", OSC: netip.MustParseAddrPort("0.0.0.0:9431"),
			Discover: []string{"VRChat-Client-*"}, Sink: sk}
		if allow != "" {
			cfg.Allow = []netip.Prefix{netip.MustParsePrefix(allow)}
		}
		s := startService(t, cfg)
		evil := zeroconftest.Start(t, "advertise", "_osc._udp.local.", "VRChat-Client-EVIL", "9000", "198.51.100.7")
		evil.Next(t, 10*time.Second, func(e zeroconftest.Event) bool { return e.Event == "registered" })
		vrc := zeroconftest.Start(t, "advertise", "_osc._udp.local.", "VRChat-Client-A1B2C3", "9000", "127.0.0.1")
		vrc.Next(t, 10*time.Second, func(e zeroconftest.Event) bool { return e.Event == "registered" })
		want := map[string]bool{"found VRChat-Client-A1B2C3 127.0.0.1:9000": true}
		if allow != "" {
			want["found VRChat-Client-EVIL 198.51.100.7:9000"] = true
		}
		for range want {
			if e := sk.next(t); !want[e] {
				t.Errorf("allow %q: %q", allow, e)
			}
		}
		select {
		case e := <-sk.events:
			t.Errorf("allow %q: then %q", allow, e)
		default:
		}
		if refused := s.MDNS().Refused.Load(); (refused == 1) != (allow == "") {
			t.Errorf("allow %q: %d addresses refused", allow, refused)
		}
		evil.Stop()
		vrc.Stop()
		s.Close()
	}
}

// TestServiceWithNoFreeNameIsNotAdvertised: when mDNS gives up on the
// name (every rename taken), the service says so once, NotAdvertised
// says why, and Advertised (gloved_oscquery_advertised) is false.
func TestServiceWithNoFreeNameIsNotAdvertised(t *testing.T) {
	tree, err := twoHands.Tree(osc.Methods())
	if err != nil {
		t.Fatal(err)
	}
	var warned []string
	s, err := Listen(Config{Name: "gloved-test", Listen: "127.0.0.1:0", Warn: func(msg string, kv ...any) { warned = append(warned, msg) }}, tree)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !s.Advertised() {
		t.Fatal("not advertised before mDNS says anything")
	}
	s.unnamed(errors.New(`mdns: no free name after 100 tries ("gloved-test" to "gloved-test (100)" are taken on the network)`))
	if s.Advertised() || !strings.Contains(s.NotAdvertised(), "no free name") || len(warned) != 1 {
		t.Errorf("advertised %v, why %q, warned %q", s.Advertised(), s.NotAdvertised(), warned)
	}
}

// TestServiceWarnsOfAnUnreachableOSCIP: a tree served beyond loopback
// while osc.listen is on loopback gives other machines HOST_INFO's
// OSC_IP 127.0.0.1: that is warned of once at start; the other
// combinations are not.
func TestServiceWarnsOfAnUnreachableOSCIP(t *testing.T) {
	t.Parallel()
	if !netns.Run(t) {
		return
	}
	tree, err := twoHands.Tree(osc.Methods())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		listen, osc string
		warns       bool
	}{
		{"0.0.0.0:0", "127.0.0.1:9431", true},
		{"0.0.0.0:0", "0.0.0.0:9431", false},
		{"127.0.0.1:0", "127.0.0.1:9431", false},
		{"127.0.0.1:0", "0.0.0.0:9431", false},
	} {
		var warned []string
		s, err := Listen(Config{Name: "gloved-test", Listen: tc.listen, OSC: netip.MustParseAddrPort(tc.osc),
			Warn: func(msg string, kv ...any) { warned = append(warned, msg) }}, tree)
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
		if got := len(warned) == 1 && strings.Contains(warned[0], "OSC_IP"); got != tc.warns || len(warned) > 1 {
			t.Errorf("tree on %s, osc.listen %s: warned %q, want a warning %v", tc.listen, tc.osc, warned, tc.warns)
		}
	}
}

// TestServiceIsStaleWhenTheNetworkChanges: a service is stale (a reload
// starts it afresh) once an interface it runs on gains an address, or
// once loopback, which carried no multicast when it started, does.
func TestServiceIsStaleWhenTheNetworkChanges(t *testing.T) {
	t.Parallel()
	if !netns.Run(t) {
		return
	}
	ip := func(args ...string) {
		if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
			t.Fatalf("ip %v: %v %s", args, err, out)
		}
	}
	cfg := Config{Name: "gloved-test", Listen: "127.0.0.1:0", OSC: netip.MustParseAddrPort("127.0.0.1:9431")}
	s := startService(t, cfg)
	if s.Stale() {
		t.Error("stale at once")
	}
	ip("addr", "add", "192.0.2.1/24", "dev", "lo")
	if !s.Stale() {
		t.Error("not stale after loopback gained 192.0.2.1/24")
	}
	s.Close()
	ip("link", "set", "lo", "multicast", "off")
	s = startService(t, cfg)
	if s.Advertised() || s.Stale() {
		t.Errorf("on loopback without multicast: advertised %v, stale %v", s.Advertised(), s.Stale())
	}
	ip("link", "set", "lo", "multicast", "on")
	if !s.Stale() {
		t.Error("not stale once loopback carries multicast")
	}
}
