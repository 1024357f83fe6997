package main

import (
	"fmt"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	goosc "github.com/hypebeast/go-osc/osc"

	"github.com/gloved/gloved/daemon/daemontest"
)

// TestTwoOfGlovedsServersNeverShareAPort: the page, the metrics and the
// OSCQuery tree on one address and port (or the OSC socket on mDNS's
// port) would leave one of them unable to start; --check and a start
// refuse the config with one line naming both keys, and so does a start
// whose --view takes the metrics' port.
func TestTwoOfGlovedsServersNeverShareAPort(t *testing.T) {
	port := freePortTCP(t)
	_, p, _ := net.SplitHostPort(port)
	tests := []struct {
		name, extra string
		says        []string
	}{
		{"page and metrics", fmt.Sprintf("[view]\nlisten = %q\n[metrics]\nlisten = %q\n", port, port), []string{"metrics.listen", "view.listen", "one port"}},
		{"tree on every address and page", fmt.Sprintf("[oscquery]\nlisten = \"0.0.0.0:%s\"\n[view]\nlisten = %q\n", p, port), []string{"view.listen", "oscquery.listen", "one port"}},
		{"metrics on localhost and tree", fmt.Sprintf("[oscquery]\nlisten = %q\n[metrics]\nlisten = \"localhost:%s\"\n", port, p), []string{"metrics.listen", "oscquery.listen", "one port"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := writeConfig(t, "127.0.0.1:0", "builtin:grasp", tc.extra)
			runBinary(t, 20*time.Second, "run", "-c", cfg, "--check").oneLine(t, 2, tc.says...)
			runBinary(t, 20*time.Second, "run", "-c", cfg, "--status=false", "--for", "3s").oneLine(t, 2, tc.says...)
		})
	}
	mdns := writeConfig(t, "127.0.0.1:5353", "builtin:grasp", "")
	runBinary(t, 20*time.Second, "run", "-c", mdns, "--check").oneLine(t, 2, `osc.listen = "127.0.0.1:5353"`, "oscquery.enabled", "mDNS")
	metrics := writeConfig(t, "127.0.0.1:0", "builtin:grasp", fmt.Sprintf("[metrics]\nlisten = %q\n", port))
	runBinary(t, 20*time.Second, "run", "-c", metrics, "--view", port, "--status=false", "--for", "3s").oneLine(t, 2, "--view", "metrics.listen", "view.listen")
	apart := writeConfig(t, "127.0.0.1:0", "builtin:grasp", fmt.Sprintf("[view]\nlisten = \"127.0.0.2:%s\"\n[metrics]\nlisten = %q\n[oscquery]\nlisten = \"127.0.0.1:0\"\n", p, port))
	if r := runBinary(t, 20*time.Second, "run", "-c", apart, "--check"); r.code != 0 {
		t.Errorf("servers on two addresses refused: %s", r.stderr)
	}
}

// TestGlovedIsNeverItsOwnTarget: a target that is gloved's own OSC
// listen address would have its frames come back to it as input (its
// wrist messages taken for a tracker's) and go round; --check and a
// start refuse it, naming the key.
func TestGlovedIsNeverItsOwnTarget(t *testing.T) {
	listen := freeUDP(t)
	_, p, _ := net.SplitHostPort(listen)
	sim := "device = \"sim\"\n"
	tests := []struct {
		name, config string
		says         []string
	}{
		{"osc.targets", rightHandConfig(t, sim, listen, listen), []string{"osc.targets[0]", "own osc.listen"}},
		{"localhost on every address", rightHandConfig(t, sim, "0.0.0.0:"+p, "localhost:"+p), []string{"osc.targets[0]", "own osc.listen"}},
		// Go binds 0.0.0.0 to both IP versions: ::1 reaches it too.
		{"IPv6 loopback on 0.0.0.0", rightHandConfig(t, sim, "0.0.0.0:"+p, "[::1]:"+p), []string{"osc.targets[0]", "own osc.listen"}},
		{"a profile's targets", writeConfig(t, listen, "builtin:grasp", fmt.Sprintf("[[osc.profile]]\nname = \"vrchat\"\ntargets = [\"127.0.0.1:9000\", %q]\n", listen)), []string{"osc.profile[0].targets[1]", "own osc.listen"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			runBinary(t, 20*time.Second, "run", "-c", tc.config, "--check").oneLine(t, 2, tc.says...)
			runBinary(t, 20*time.Second, "run", "-c", tc.config, "--status=false", "--for", "3s").oneLine(t, 2, tc.says...)
		})
	}
}

// TestASubscriptionToGlovedsOwnPortIsRefused: /subscribe naming the
// daemon's own listen address is refused with a reason and counted as
// refused, as other refused subscriptions are, while the subscriber's
// own port is taken.
func TestASubscriptionToGlovedsOwnPortIsRefused(t *testing.T) {
	t.Parallel()
	listen, metrics := freeUDP(t), freePortTCP(t)
	cfg := writeConfig(t, listen, "builtin:grasp", fmt.Sprintf("[metrics]\nlisten = %q\n[oscquery]\nenabled = false\n", metrics))
	p := startGloved(t, "gloved run", "run", "-c", cfg, "--status=false")
	rx, got := daemontest.ListenAny(t)
	dst, err := net.ResolveUDPAddr("udp", listen)
	if err != nil {
		t.Fatal(err)
	}
	ask := func(port int) *goosc.Message { return askSubscription(t, p, rx, got, dst, port) }
	if m := ask(dst.Port); m.Address != "/gloved/refused" || !strings.Contains(fmt.Sprint(m.Arguments...), "own listen address") {
		t.Fatalf("a subscription of gloved's own port answered %s %v", m.Address, m.Arguments)
	}
	if m := ask(rx.LocalAddr().(*net.UDPAddr).Port); m.Address != "/gloved/subscribed" {
		t.Fatalf("the subscriber's own port answered %s %v", m.Address, m.Arguments)
	}
	if n := regexp.MustCompile(`(?m)^gloved_osc_refused_total (\d+)$`).FindSubmatch(scrape(t, metrics)); n == nil || string(n[1]) != "1" {
		t.Errorf("gloved_osc_refused_total: %q, want 1", n)
	}
}

// TestATargetGlovedCannotSendToIsRefused: an OSC socket bound to one
// address sends within its IP version alone, and one bound to loopback
// (the default) to this machine alone, so a target of the other version,
// or another machine's from loopback, would fail every frame: --check
// and a start refuse it in one line naming the target and the listen
// address; listening on every address sends to both and is taken.
func TestATargetGlovedCannotSendToIsRefused(t *testing.T) {
	sim := "device = \"sim\"\n"
	tests := []struct {
		name, listen, target string
		says                 []string
	}{
		{"IPv6 target of an IPv4 listen", "127.0.0.1:0", "[::1]:9001", []string{`osc.targets[0] = "[::1]:9001"`, "IPv6", "127.0.0.1", "IPv4 target"}},
		{"IPv4 target of an IPv6 listen", "[::1]:0", "127.0.0.1:9001", []string{`osc.targets[0] = "127.0.0.1:9001"`, "IPv4", "::1", "IPv6 target"}},
		{"another machine from loopback", "127.0.0.1:0", "192.0.2.1:9001", []string{`osc.targets[0] = "192.0.2.1:9001"`, "another machine", "loopback address 127.0.0.1", `":PORT"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := rightHandConfig(t, sim, tc.listen, tc.target)
			runBinary(t, 20*time.Second, "run", "-c", cfg, "--check").oneLine(t, 2, tc.says...)
			runBinary(t, 20*time.Second, "run", "-c", cfg, "--status=false", "--for", "3s").oneLine(t, 2, tc.says...)
		})
	}
	for _, listen := range []string{"0.0.0.0:0", ":0"} {
		for _, target := range []string{"[::1]:9001", "192.0.2.1:9001"} {
			cfg := rightHandConfig(t, sim, listen, target)
			if r := runBinary(t, 20*time.Second, "run", "-c", cfg, "--check"); r.code != 0 {
				t.Errorf("osc.listen = %q with the target %s refused: %s", listen, target, r.stderr)
			}
		}
	}
}

// askSubscription sends /gloved/subscribe "127.0.0.1" port from rx to the
// daemon p at dst, once it is running (its OSC socket read), and returns
// its answer. The request is sent once, so a refusal is counted once
// (and no reply is held back by the replies' rate limit).
func askSubscription(t *testing.T, p *proc, rx *net.UDPConn, got *daemontest.Packets, dst *net.UDPAddr, port int) *goosc.Message {
	t.Helper()
	p.logLine(t, "gloved running")
	n := len(got.Messages())
	b, _ := goosc.NewMessage("/gloved/subscribe", "127.0.0.1", int32(port)).MarshalBinary()
	rx.WriteTo(b, dst)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		for _, m := range got.Messages()[n:] {
			if m.Address == "/gloved/refused" || m.Address == "/gloved/subscribed" {
				return m
			}
		}
	}
	t.Fatal("no answer to /gloved/subscribe")
	return nil
}

// trackerHands writes a config of a tracker hand for each of hands, "osc
// listen = ..." (its device, a space, its [hand.options] lines), on the
// built-in scene, with gloved's OSC socket at listen and extra after.
func trackerHands(t *testing.T, listen, extra string, hands ...string) string {
	t.Helper()
	var text strings.Builder
	for i, h := range hands {
		device, options, _ := strings.Cut(h, " ")
		fmt.Fprintf(&text, "[[hand]]\nname = \"h%d\"\ndevice = %q\n[hand.options]\n%s\n", i, device, options)
	}
	fmt.Fprintf(&text, "[scene]\nfiles = [{ path = \"builtin:grasp\" }]\n[frame]\ncount_tris = false\n[osc]\nlisten = %q\n%s", listen, extra)
	path := filepath.Join(t.TempDir(), "gloved.toml")
	if err := os.WriteFile(path, []byte(text.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestGlovedNeverSendsToItsOwnTrackerHand: a target that is the address
// a tracker hand of gloved's listens on (options.listen) would have its
// frames come back to it as the tracker's poses, as fast as it can go
// round; --check and a start refuse it in one line naming the target and
// the hand's key, the defaults of a vmc hand and a vmc profile among
// them (both 127.0.0.1:39539). A target on another port is taken.
func TestGlovedNeverSendsToItsOwnTrackerHand(t *testing.T) {
	tracker := freeUDP(t)
	_, p, _ := net.SplitHostPort(tracker)
	oscHand := fmt.Sprintf("osc listen = %q", tracker)
	tests := []struct {
		name, config string
		says         []string
	}{
		{"osc.targets", trackerHands(t, "127.0.0.1:0", fmt.Sprintf("targets = [%q]\n", tracker), oscHand),
			[]string{fmt.Sprintf("osc.targets[0] = %q", tracker), "hand[0].options.listen", "come back"}},
		{"localhost to a tracker on every address", trackerHands(t, "0.0.0.0:0", "targets = [\"localhost:"+p+"\"]\n", "osc listen = \"0.0.0.0:"+p+"\""),
			[]string{"osc.targets[0]", "hand[0].options.listen"}},
		{"a profile's targets, the second hand's", trackerHands(t, "127.0.0.1:0", fmt.Sprintf("[[osc.profile]]\nname = \"openxr\"\ntargets = [\"127.0.0.1:9000\", %q]\n", tracker), "vmc listen = \"127.0.0.1:9\"", oscHand),
			[]string{"osc.profile[0].targets[1]", "hand[1].options.listen"}},
		{"a vmc hand and a vmc profile by default", trackerHands(t, "127.0.0.1:0", "[[osc.profile]]\nname = \"vmc\"\n", "vmc "),
			[]string{`osc.profile[0].targets[0] = "127.0.0.1:39539"`, "hand[0].options.listen"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			runBinary(t, 20*time.Second, "run", "-c", tc.config, "--check").oneLine(t, 2, tc.says...)
			runBinary(t, 20*time.Second, "run", "-c", tc.config, "--status=false", "--for", "3s").oneLine(t, 2, tc.says...)
		})
	}
	other := trackerHands(t, "127.0.0.1:0", "targets = [\"127.0.0.1:9\"]\n", oscHand)
	if r := runBinary(t, 20*time.Second, "run", "-c", other, "--check"); r.code != 0 {
		t.Errorf("a target on another port than the tracker's refused: %s", r.stderr)
	}
}

// TestASubscriptionToATrackerHandsPortIsRefused: /subscribe naming the
// port a tracker hand of gloved's listens on is refused with a reason
// and counted as refused, as one naming osc.listen is.
func TestASubscriptionToATrackerHandsPortIsRefused(t *testing.T) {
	listen, tracker, metrics := freeUDP(t), freeUDP(t), freePortTCP(t)
	cfg := trackerHands(t, listen, fmt.Sprintf("[metrics]\nlisten = %q\n[oscquery]\nenabled = false\n", metrics), fmt.Sprintf("osc listen = %q", tracker))
	p := startGloved(t, "gloved run", "run", "-c", cfg, "--status=false")
	rx, got := daemontest.ListenAny(t)
	dst, err := net.ResolveUDPAddr("udp", listen)
	if err != nil {
		t.Fatal(err)
	}
	port := net.UDPAddrFromAddrPort(netip.MustParseAddrPort(tracker)).Port
	if m := askSubscription(t, p, rx, got, dst, port); m.Address != "/gloved/refused" || !strings.Contains(fmt.Sprint(m.Arguments...), "tracker") {
		t.Fatalf("a subscription of the tracker hand's port answered %s %v", m.Address, m.Arguments)
	}
	if n := regexp.MustCompile(`(?m)^gloved_osc_refused_total (\d+)$`).FindSubmatch(scrape(t, metrics)); n == nil || string(n[1]) != "1" {
		t.Errorf("gloved_osc_refused_total: %q, want 1", n)
	}
}

// TestATrackerHandNeverTakesOneOfGlovedsOwnPorts: a tracker hand
// listening on osc.listen's port, or on mDNS's while the OSCQuery
// service needs it, would leave one of gloved's sockets unable to open,
// and the error blame another app; --check and a start refuse the config
// in one line naming both keys, as for two tracker hands on two
// addresses of one port (only one could bind it). Two tracker hands on
// one address share its socket and are taken.
func TestATrackerHandNeverTakesOneOfGlovedsOwnPorts(t *testing.T) {
	listen := freeUDP(t)
	_, p, _ := net.SplitHostPort(listen)
	tests := []struct {
		name, config string
		says         []string
	}{
		{"osc.listen's address", trackerHands(t, listen, "", fmt.Sprintf("osc listen = %q", listen)),
			[]string{fmt.Sprintf("hand[0].options.listen = %q", listen), "osc.listen", "one port"}},
		{"every address and osc.listen's", trackerHands(t, listen, "", "vmc listen = \"0.0.0.0:"+p+"\""),
			[]string{"hand[0].options.listen", "osc.listen", "one port"}},
		{"mDNS's port", trackerHands(t, "127.0.0.1:0", "", "vmc listen = \"0.0.0.0:5353\""),
			[]string{`hand[0].options.listen = "0.0.0.0:5353"`, "oscquery.enabled", "mDNS"}},
		{"two addresses of one port", trackerHands(t, "127.0.0.1:0", "", "vmc listen = \"0.0.0.0:"+p+"\"", "vmc listen = \"127.0.0.1:"+p+"\""),
			[]string{"hand[0].options.listen", "hand[1].options.listen", "two tracker sockets on one port"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			runBinary(t, 20*time.Second, "run", "-c", tc.config, "--check").oneLine(t, 2, tc.says...)
			runBinary(t, 20*time.Second, "run", "-c", tc.config, "--status=false", "--for", "3s").oneLine(t, 2, tc.says...)
		})
	}
	tracker := fmt.Sprintf("vmc listen = %q", freeUDP(t))
	shared := trackerHands(t, "127.0.0.1:0", "", tracker, tracker)
	if r := runBinary(t, 20*time.Second, "run", "-c", shared, "--status=false", "--for", "1s"); r.code != 0 {
		t.Errorf("two tracker hands on one address refused: %s", r.stderr)
	}
	noMDNS := trackerHands(t, "127.0.0.1:0", "[oscquery]\nenabled = false\n", "vmc listen = \"127.0.0.1:5353\"")
	if r := runBinary(t, 20*time.Second, "run", "-c", noMDNS, "--check"); r.code != 0 {
		t.Errorf("a tracker on mDNS's port without OSCQuery refused: %s", r.stderr)
	}
}
