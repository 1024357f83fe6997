package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	goosc "github.com/hypebeast/go-osc/osc"

	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/internal/netns"
	"github.com/gloved/gloved/internal/zeroconftest"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/oscquery"
)

// inNamespace re-runs the test in a private network namespace, handing it
// the binary built here; it returns true in the namespace.
func inNamespace(t *testing.T) bool {
	t.Helper()
	return netns.Run(t, builtEnv+"="+binary(t))
}

// twoHandConfig is a config of a right and a left simulated hand with
// OSC on oscListen and extra appended.
func twoHandConfig(t *testing.T, oscListen, extra string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "gloved.toml")
	text := fmt.Sprintf(`
[[hand]]
name = "right"
device = "sim"
[[hand]]
name = "left"
device = "sim"
side = "left"
[scene]
files = [{ path = "builtin:grasp" }]
[frame]
budget_ms = 100.0
count_tris = false
[osc]
listen = %q
%s`, oscListen, extra)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// logLine waits until the process logs a line whose message contains
// msg, and returns the line's fields.
func (p *proc) logLine(t *testing.T, msg string) map[string]any {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		for _, l := range strings.Split(p.errs.String(), "\n") {
			var f map[string]any
			if json.Unmarshal([]byte(l), &f) == nil && strings.Contains(fmt.Sprint(f["message"]), msg) {
				return f
			}
		}
		select {
		case <-p.done:
			t.Fatalf("%s exited without logging %q:\n%s", p.name, msg, p.errs.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not log %q:\n%s", p.name, msg, p.errs.String())
		}
	}
}

// TestAnIndependentClientFindsGlovedAndReadsItsTree is issue 15's "done
// when": python-zeroconf, browsing _oscjson._tcp, finds `gloved run`'s
// instance, resolves it to the address and port it serves at, reads
// HOST_INFO and the tree over HTTP, and both pass the OSCQuery JSON
// schema; the tree holds every method of osc.Methods for both configured
// hands, with the contract's type tags, direction, description, units
// and ranges, in the proposal's structure. _osc._udp is advertised too,
// at the OSC listen port.
func TestAnIndependentClientFindsGlovedAndReadsItsTree(t *testing.T) {
	t.Parallel()
	if !inNamespace(t) {
		return
	}
	jsonPeer := zeroconftest.Start(t, "browse", "_oscjson._tcp.local.", "--http", "--schema")
	oscPeer := zeroconftest.Start(t, "browse", "_osc._udp.local.")
	for _, b := range []*zeroconftest.Peer{jsonPeer, oscPeer} {
		b.Next(t, 10*time.Second, func(e zeroconftest.Event) bool { return e.Event == "browsing" })
	}
	oscListen := freeUDP(t)
	p := startGloved(t, "gloved run", "run", "-c", twoHandConfig(t, oscListen, "[oscquery]\nname = \"gloved-lab\"\n"), "--status=false")
	running := p.logLine(t, "gloved running")
	e := jsonPeer.Next(t, 20*time.Second, func(e zeroconftest.Event) bool { return e.Event == "added" })
	if e.Name != "gloved-lab._oscjson._tcp.local." || !slices.Equal(e.Addresses, []string{"127.0.0.1"}) ||
		running["oscquery"] != fmt.Sprintf("http://127.0.0.1:%d/", e.Port) {
		t.Fatalf("python-zeroconf found %s; gloved serves at %v", e.Raw, running["oscquery"])
	}
	if len(e.SchemaErrors) > 0 || e.HTTP["host_info"] != float64(200) || e.HTTP["tree"] != float64(200) || e.HTTP["tree_type"] != "application/json" {
		t.Fatalf("read %s", e.Raw)
	}
	var hi oscquery.HostInfo
	if err := json.Unmarshal(e.HostInfo, &hi); err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(oscListen)
	if hi.Name != "gloved-lab" || hi.OSCIP != "127.0.0.1" || fmt.Sprint(hi.OSCPort) != port || hi.OSCTransport != "UDP" || hi.Extensions["VALUE"] {
		t.Errorf("HOST_INFO %s", e.HostInfo)
	}
	if err := oscquery.CheckJSON(e.Tree); err != nil {
		t.Errorf("the tree's structure: %v", err)
	}
	checkContract(t, e.Tree, []string{"right", "left"})
	o := oscPeer.Next(t, 20*time.Second, func(e zeroconftest.Event) bool { return e.Event == "added" })
	if o.Name != "gloved-lab._osc._udp.local." || fmt.Sprint(o.Port) != port || !slices.Equal(o.Addresses, []string{"127.0.0.1"}) {
		t.Errorf("_osc._udp: %s", o.Raw)
	}
	p.cmd.Process.Signal(os.Interrupt)
	jsonPeer.Next(t, 10*time.Second, func(e zeroconftest.Event) bool { return e.Event == "removed" })
}

// checkContract fails t unless tree holds exactly osc.Methods for the
// hands: each address with the contract's TYPE, ACCESS, DESCRIPTION, and
// per argument UNIT and RANGE.
func checkContract(t *testing.T, tree []byte, hands []string) {
	t.Helper()
	var root treeNode
	if err := json.Unmarshal(tree, &root); err != nil {
		t.Fatal(err)
	}
	shape := osc.Shape{Joints: int(handmodel.NumJoints), Links: handmodel.FingerLinks}
	want := 0
	for _, m := range osc.Methods() {
		names := hands
		if !m.ForHand() {
			names = []string{""}
		}
		for _, h := range names {
			want++
			addr := m.Address("/gloved", h)
			n := root.at(addr)
			if n == nil {
				t.Errorf("%s is not in the tree", addr)
				continue
			}
			if n.Type != m.TypeTags(shape) || n.Access != int(m.Access) || n.Description != m.Description {
				t.Errorf("%s: TYPE %q ACCESS %d DESCRIPTION %q; the contract: %q %d %q", addr, n.Type, n.Access, n.Description, m.TypeTags(shape), m.Access, m.Description)
			}
			for i, a := range m.Expand(shape) {
				unit := ""
				if n.Unit != nil && n.Unit[i] != nil {
					unit = *n.Unit[i]
				}
				var rng map[string]any
				if n.Range != nil {
					rng = n.Range[i]
				}
				if unit != a.Unit || !reflect.DeepEqual(rng, rangeJSON(a.Range)) {
					t.Errorf("%s argument %d (%s): UNIT %q RANGE %v; the contract: %q %v", addr, i, a.Name, unit, rng, a.Unit, rangeJSON(a.Range))
				}
			}
		}
	}
	if got := root.methods(); got != want {
		t.Errorf("%d methods in the tree, %d in the contract", got, want)
	}
}

// treeNode is a node of the tree as a client decodes it.
type treeNode struct {
	Type        string               `json:"TYPE"`
	Access      int                  `json:"ACCESS"`
	Description string               `json:"DESCRIPTION"`
	Unit        []*string            `json:"UNIT"`
	Range       []map[string]any     `json:"RANGE"`
	Contents    map[string]*treeNode `json:"CONTENTS"`
}

func (n *treeNode) at(addr string) *treeNode {
	for _, seg := range strings.Split(strings.TrimPrefix(addr, "/"), "/") {
		if n = n.Contents[seg]; n == nil {
			return nil
		}
	}
	return n
}

func (n *treeNode) methods() int {
	c := 0
	if n.Type != "" {
		c++
	}
	for _, s := range n.Contents {
		c += s.methods()
	}
	return c
}

// rangeJSON is an argument's range as JSON decodes the served one.
func rangeJSON(r *osc.Range) map[string]any {
	if r == nil {
		return nil
	}
	out := map[string]any{}
	if r.HasMin {
		out["MIN"] = r.Min
	}
	if r.HasMax {
		out["MAX"] = r.Max
	}
	if len(r.Values) > 0 {
		vals := make([]any, len(r.Values))
		for i, v := range r.Values {
			vals[i] = v
		}
		out["VALS"] = vals
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// TestGlovedSendsToTheVRChatItFinds: with osc.targets and a vrchat
// profile's targets both "oscquery:VRChat-Client-*", `gloved run` finds
// the fake VRChat that python-zeroconf advertises on _osc._udp, pointing
// at a UDP socket the test holds, and both the gloved frames and the
// avatar parameters arrive there; an app of another name is not sent to;
// a reload that renames the hand keeps sending to the app found, the new
// hand's frames; when the fake VRChat withdraws, gloved says it went away
// and the frames stop.
func TestGlovedSendsToTheVRChatItFinds(t *testing.T) {
	t.Parallel()
	if !inNamespace(t) {
		return
	}
	vrchat, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer vrchat.Close()
	other, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	port := func(c *net.UDPConn) string { return fmt.Sprint(c.LocalAddr().(*net.UDPAddr).Port) }
	otherApp := zeroconftest.Start(t, "advertise", "_osc._udp.local.", "Other-App", port(other), "127.0.0.1")
	otherApp.Next(t, 10*time.Second, func(e zeroconftest.Event) bool { return e.Event == "registered" })
	fake := zeroconftest.Start(t, "advertise", "_osc._udp.local.", "VRChat-Client-A1B2C3", port(vrchat), "127.0.0.1")
	fake.Next(t, 10*time.Second, func(e zeroconftest.Event) bool { return e.Event == "registered" })
	config := func(hand string) string {
		return vrchatConfig(hand) + `[[osc.profile]]
name = "vrchat"
targets = ["oscquery:VRChat-Client-*"]
`
	}
	path := filepath.Join(t.TempDir(), "gloved.toml")
	os.WriteFile(path, []byte(config("right")), 0o644)
	p := startGloved(t, "gloved run", "run", "-c", path, "--status=false")
	found := p.logLine(t, "found an app to send to")
	if found["instance"] != "VRChat-Client-A1B2C3" || found["address"] != vrchat.LocalAddr().String() {
		t.Errorf("found %v", found)
	}
	for _, want := range []string{"/gloved/right/frame", "/avatar/parameters/"} {
		if !receives(t, vrchat, want) {
			t.Errorf("the fake VRChat got nothing starting %s", want)
		}
	}
	if m := frameAt(t, other, 500*time.Millisecond); m != "" {
		t.Errorf("the app of another name got %q", m)
	}
	os.WriteFile(path, []byte(config("lefty")), 0o644)
	p.cmd.Process.Signal(syscall.SIGHUP)
	if !receives(t, vrchat, "/gloved/lefty/frame") {
		t.Error("after a reload the app found gets no frames of the new hand")
	}
	fake.Send("quit")
	p.logLine(t, "an app went away")
	for deadline := time.Now().Add(5 * time.Second); frameAt(t, vrchat, 500*time.Millisecond) != ""; {
		if time.Now().After(deadline) {
			t.Fatal("frames kept coming after the app went away")
		}
	}
}

// TestAnAppAnnouncedAtGlovedsOwnPortIsNotSentTo: a local process
// announces "VRChat-Client-AAAAAA" over mDNS at gloved's own osc.listen,
// and "VRChat-Client-CCCCCC" at a tracker hand's options.listen; gloved,
// sending to "oscquery:VRChat-Client-*", refuses both (their frames
// would come back to it as input), says so once each, counts them in
// gloved_oscquery_apps_self_total, and still sends to the real VRChat
// found beside them.
func TestAnAppAnnouncedAtGlovedsOwnPortIsNotSentTo(t *testing.T) {
	t.Parallel()
	if !inNamespace(t) {
		return
	}
	listen := freePort(t)
	_, self, _ := net.SplitHostPort(listen)
	vrchat, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer vrchat.Close()
	liar := zeroconftest.Start(t, "advertise", "_osc._udp.local.", "VRChat-Client-AAAAAA", self, "127.0.0.1")
	liar.Next(t, 10*time.Second, func(e zeroconftest.Event) bool { return e.Event == "registered" })
	tracker := freePort(t)
	_, trackerPort, _ := net.SplitHostPort(tracker)
	trackerLiar := zeroconftest.Start(t, "advertise", "_osc._udp.local.", "VRChat-Client-CCCCCC", trackerPort, "127.0.0.1")
	trackerLiar.Next(t, 10*time.Second, func(e zeroconftest.Event) bool { return e.Event == "registered" })
	app := zeroconftest.Start(t, "advertise", "_osc._udp.local.", "VRChat-Client-B1B2B3", fmt.Sprint(vrchat.LocalAddr().(*net.UDPAddr).Port), "127.0.0.1")
	app.Next(t, 10*time.Second, func(e zeroconftest.Event) bool { return e.Event == "registered" })
	path := filepath.Join(t.TempDir(), "gloved.toml")
	trackerHand := fmt.Sprintf("[[hand]]\nname = \"tracked\"\ndevice = \"osc\"\n[hand.options]\nlisten = %q\n", tracker)
	os.WriteFile(path, []byte(trackerHand+strings.Replace(vrchatConfig("right"), `"127.0.0.1:0"`, strconv.Quote(listen), 1)), 0o644)
	metrics := freePortTCP(t)
	appendMetrics(t, path, metrics)
	p := startGloved(t, "gloved run", "run", "-c", path, "--status=false")
	refused := p.logLine(t, "refused an app that is gloved's own osc.listen")
	if refused["instance"] != "VRChat-Client-AAAAAA" || refused["address"] != listen {
		t.Errorf("refused %v", refused)
	}
	refused = p.logLine(t, "refused an app that is where one of gloved's tracker hands listens")
	if refused["instance"] != "VRChat-Client-CCCCCC" || refused["tracker_listen"] != tracker {
		t.Errorf("refused %v", refused)
	}
	if !receives(t, vrchat, "/gloved/right/frame") {
		t.Error("the real VRChat found beside it got no frames")
	}
	for _, said := range []string{"refused an app that is gloved's own osc.listen", "refused an app that is where one of gloved's tracker hands listens"} {
		if strings.Count(p.errs.String(), said) != 1 {
			t.Errorf("the refusal %q is not said once:\n%s", said, p.errs.String())
		}
	}
	for _, l := range strings.Split(p.errs.String(), "\n") {
		if strings.Contains(l, "found an app to send to") && (strings.Contains(l, "AAAAAA") || strings.Contains(l, "CCCCCC")) {
			t.Errorf("gloved sends to itself: %s", l)
		}
	}
	if body := string(scrape(t, metrics)); !strings.Contains(body, "\ngloved_oscquery_apps_self_total 2\n") {
		t.Errorf("the refusal is not counted:\n%s", body)
	}
}

// vrchatConfig is a config of one simulated hand whose frames go to the
// VRChat clients found over mDNS.
func vrchatConfig(hand string) string {
	return fmt.Sprintf(`
[[hand]]
name = %q
device = "sim"
[scene]
files = [{ path = "builtin:grasp" }]
[frame]
budget_ms = 100.0
count_tris = false
[osc]
listen = "127.0.0.1:0"
targets = ["oscquery:VRChat-Client-*"]
`, hand)
}

// receives reports whether c gets a message whose address starts with
// prefix within ten seconds.
func receives(t *testing.T, c *net.UDPConn, prefix string) bool {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		if strings.HasPrefix(frameAt(t, c, time.Second), prefix) {
			return true
		}
	}
	return false
}

// frameAt returns the address of the next message c receives within d,
// bare or a bundle's first ("" if none).
func frameAt(t *testing.T, c *net.UDPConn, d time.Duration) string {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(d))
	buf := make([]byte, 1<<16)
	n, err := c.Read(buf)
	if err != nil {
		return ""
	}
	pk, err := goosc.ParsePacket(string(buf[:n]))
	switch v := pk.(type) {
	case *goosc.Bundle:
		if err == nil && len(v.Messages) > 0 {
			return v.Messages[0].Address
		}
	case *goosc.Message:
		return v.Address
	}
	return "?"
}

// addToLoopback gives the namespace's loopback the addresses of a
// network: hosts to send from and to.
func addToLoopback(t *testing.T, prefixes ...string) {
	t.Helper()
	for _, a := range prefixes {
		if out, err := exec.Command("ip", "addr", "add", a, "dev", "lo").CombinedOutput(); err != nil {
			t.Fatalf("%v %s", err, out)
		}
	}
}

// TestOSCQueryAnswersOverTheNetwork: the real server's answers per the
// proposal (404, 204, 400, 405 and attribute queries), and its access
// rules: a host outside osc.allow is refused, one in it is served, and a
// request on loopback naming another host (DNS rebinding) is refused.
func TestOSCQueryAnswersOverTheNetwork(t *testing.T) {
	t.Parallel()
	if !inNamespace(t) {
		return
	}
	addToLoopback(t, "192.0.2.1/32", "192.0.2.2/32")
	p := startGloved(t, "gloved run", "run", "-c", twoHandConfig(t, freeUDP(t), "allow = [\"192.0.2.2\"]\n[oscquery]\nlisten = \"0.0.0.0:0\"\n"), "--status=false")
	url := fmt.Sprint(p.logLine(t, "gloved running")["oscquery"])
	_, port, _ := net.SplitHostPort(strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/"))
	for _, tc := range []struct {
		from, host, method, target string
		code                       int
		body                       string
	}{
		{"127.0.0.1", "127.0.0.1", "GET", "/gloved/left/pinch?TYPE", 200, `{"TYPE":"sif"}`},
		{"127.0.0.1", "localhost", "GET", "/gloved/left/wrist?ACCESS", 200, `{"ACCESS":2}`},
		{"127.0.0.1", "127.0.0.1", "GET", "/gloved/left?TYPE", 200, `{}`},
		{"127.0.0.1", "127.0.0.1", "GET", "/gloved/left/frame?VALUE", 204, ``},
		{"127.0.0.1", "127.0.0.1", "GET", "/gloved/left/frame?NOPE", 400, ""},
		{"127.0.0.1", "127.0.0.1", "GET", "/gloved/middle/frame", 404, ""},
		{"127.0.0.1", "127.0.0.1", "POST", "/", 405, ""},
		{"127.0.0.1", "rebind.attacker.example", "GET", "/?HOST_INFO", 403, ""},
		{"192.0.2.1", "192.0.2.1", "GET", "/?HOST_INFO", 403, ""},
		{"192.0.2.2", "192.0.2.1", "GET", "/?HOST_INFO", 200, ""},
	} {
		code, body := request(t, tc.from, net.JoinHostPort(tc.host, port), tc.method, tc.target, port)
		if code != tc.code || tc.body != "" && body != tc.body {
			t.Errorf("%s %s from %s as %s: %d %q, want %d %q", tc.method, tc.target, tc.from, tc.host, code, body, tc.code, tc.body)
		}
	}
}

// request sends an HTTP request from address from to the server on this
// machine at port, with Host hostHeader.
func request(t *testing.T, from, hostHeader, method, target, port string) (int, string) {
	t.Helper()
	dst := "127.0.0.1"
	if !strings.HasPrefix(from, "127.") {
		dst = "192.0.2.1"
	}
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 5 * time.Second}
	c := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return d.DialContext(ctx, "tcp", net.JoinHostPort(dst, port))
	}}, Timeout: 10 * time.Second}
	req, err := http.NewRequest(method, "http://"+hostHeader+target, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, strings.TrimSpace(string(b))
}

// TestGlovedWithoutMulticastSaysSoOnce: where the interface
// oscquery.listen is on carries no multicast (Linux's lo by default, the
// default oscquery.listen), gloved runs, serves its tree, and says once,
// as information and not as a warning, that it is not advertised and what
// to do.
func TestGlovedWithoutMulticastSaysSoOnce(t *testing.T) {
	t.Parallel()
	if !inNamespace(t) {
		return
	}
	if out, err := exec.Command("ip", "link", "set", "lo", "multicast", "off").CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	r := runBinary(t, 30*time.Second, "run", "-c", twoHandConfig(t, freeUDP(t), ""), "--status=false", "--for", "2s")
	warned, said := 0, 0
	for _, l := range strings.Split(r.stderr, "\n") {
		if strings.Contains(l, `"level":"warn"`) {
			warned++
		}
		if strings.Contains(l, "not advertised") {
			said++
			if !strings.Contains(l, `"level":"info"`) || !strings.Contains(l, "ip link set lo multicast on") {
				t.Errorf("said %s", l)
			}
		}
	}
	if r.code != 0 || warned != 0 || said != 1 {
		t.Errorf("exit %d, %d warnings, %d lines saying it is not advertised:\n%s", r.code, warned, said, r.stderr)
	}
}
