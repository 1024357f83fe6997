package main

import (
	"fmt"
	"net"
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
	metrics := freePortTCP(t)
	cfg := writeConfig(t, "127.0.0.1:0", "builtin:grasp", fmt.Sprintf("[metrics]\nlisten = %q\n[oscquery]\nenabled = false\n", metrics))
	p := startGloved(t, "gloved run", "run", "-c", cfg, "--status=false")
	// Asked once it runs, each subscription is sent once: the count of
	// those refused is exact.
	listen := fmt.Sprint(p.logLine(t, "gloved running")["osc"])
	rx, got := daemontest.ListenAny(t)
	dst, err := net.ResolveUDPAddr("udp", listen)
	if err != nil {
		t.Fatal(err)
	}
	ask := func(port int) *goosc.Message {
		b, _ := goosc.NewMessage("/gloved/subscribe", "127.0.0.1", int32(port)).MarshalBinary()
		n := len(got.Messages())
		rx.WriteTo(b, dst)
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			for _, m := range got.Messages()[n:] {
				if m.Address == "/gloved/refused" || m.Address == "/gloved/subscribed" {
					return m
				}
			}
		}
		t.Fatal("no answer to /gloved/subscribe")
		return nil
	}
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
