package daemon

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/internal/netns"
	"github.com/gloved/gloved/internal/zeroconftest"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/osc/openxr"
	"github.com/gloved/gloved/osc/vmc"
	"github.com/gloved/gloved/oscquery"
)

// TestOSCQueryConfig: the service is on by default, as
// "gloved-<host name>" on loopback at any free port; its keys' errors
// name the key, and an oscquery: target needs the service and a glob.
func TestOSCQueryConfig(t *testing.T) {
	base := simOnTheBuiltinScene
	c, err := ParseConfig("lab.toml", []byte(base))
	if err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	host, _, _ = strings.Cut(host, ".")
	if q := c.OSCQuery; !q.on() || q.Listen != "127.0.0.1:0" || q.Name != truncate("gloved-"+host, maxNameLen) {
		t.Errorf("defaults %+v", q)
	}
	if c, _ := ParseConfig("lab.toml", []byte(base+"[oscquery]\nenabled = false\n")); c.OSCQuery.on() {
		t.Error("enabled = false left it on")
	}
	tests := []struct{ name, text, says string }{
		{"name", base + "[oscquery]\nname = \"lab glove\"\n", `oscquery.name = "lab glove": want a name starting with gloved`},
		{"long name", base + "[oscquery]\nname = \"gloved-" + strings.Repeat("x", 60) + "\"\n", "oscquery.name"},
		{"control character", base + "[oscquery]\nname = \"gloved\\tlab\"\n", "oscquery.name"},
		{"right-to-left override", base + "[oscquery]\nname = \"gloved-\u202ebal\"\n", "no control or format characters"},
		{"zero-width joiner", base + "[oscquery]\nname = \"gloved-l\u200dab\"\n", "no control or format characters"},
		{"listen", base + "[oscquery]\nlisten = \"127.0.0.1\"\n", `oscquery.listen = "127.0.0.1": want host:port`},
		{"interfaces", base + "[oscquery]\ninterfaces = [\"lo\", \"lo\"]\n", `oscquery.interfaces[1] = "lo"`},
		{"unknown key", base + "[oscquery]\nport = 9432\n", "unknown key oscquery.port"},
		{"glob", base + "[osc]\ntargets = [\"oscquery:VRChat-[\"]\n", `osc.targets[0] = "oscquery:VRChat-["`},
		{"empty glob", base + "[osc]\ntargets = [\"127.0.0.1:9000\", \"oscquery:\"]\n", `osc.targets[1] = "oscquery:"`},
		{"off", base + "[osc]\ntargets = [\"oscquery:VRChat-Client-*\"]\n[oscquery]\nenabled = false\n", "[oscquery] enabled = false turns off"},
	}
	for _, tc := range tests {
		_, err := ParseConfig("lab.toml", []byte(tc.text))
		if err == nil || !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: got %v, want a config error saying %q", tc.name, err, tc.says)
		}
	}
	c, err = ParseConfig("lab.toml", []byte(base+"[osc]\ntargets = [\"127.0.0.1:9000\", \"oscquery:VRChat-Client-*\"]\n"+
		"[[osc.profile]]\nname = \"vrchat\"\ntargets = [\"oscquery:VRChat-Client-*\", \"oscquery:Router-*\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Validate(context.Background()); err != nil {
		t.Errorf("an oscquery: target does not validate: %v", err)
	}
	if g := c.globs(); !slices.Equal(g, []string{"Router-*", "VRChat-Client-*"}) {
		t.Errorf("the apps looked for: %v", g)
	}
	_, err = ParseConfig("lab.toml", []byte(base+"[oscquery]\nenabled = false\n[[osc.profile]]\nname = \"vmc\"\ntargets = [\"oscquery:VSeeFace*\"]\n"))
	if err == nil || !strings.Contains(err.Error(), `osc.profile[0].targets[0] = "oscquery:VSeeFace*"`) {
		t.Errorf("a profile's oscquery: target with the service off: %v", err)
	}
}

// TestReloadKeepsTheOSCQueryService: a SIGHUP reload that changes the
// hands keeps the advertisement (an mDNS browser sees no goodbye) and the
// HTTP server (at the port 0 picked), and the tree then holds the new
// hands; one that changes oscquery.listen replaces them.
func TestReloadKeepsTheOSCQueryService(t *testing.T) {
	t.Parallel()
	if !netns.Run(t) {
		return
	}
	b := zeroconftest.Start(t, "browse", "_oscjson._tcp.local.")
	b.Next(t, 10*time.Second, func(e zeroconftest.Event) bool { return e.Event == "browsing" })
	write, urls, reload := runReloadable(t, "right", "127.0.0.1:0")
	url := next(t, urls)
	if hands := treeHands(t, url); hands != "right" {
		t.Fatalf("the tree holds %q", hands)
	}
	added := b.Next(t, 10*time.Second, func(e zeroconftest.Event) bool { return e.Event == "added" })
	if added.Name != "gloved-reload._oscjson._tcp.local." || !strings.HasSuffix(url, fmt.Sprintf(":%d/", added.Port)) {
		t.Fatalf("advertised %s, serving %s", added.Raw, url)
	}
	write("lefty", "127.0.0.1:0")
	reload <- os.Interrupt
	if again := next(t, urls); again != url {
		t.Errorf("after a reload with other hands the tree is at %s, was %s", again, url)
	}
	if hands := treeHands(t, url); hands != "lefty" {
		t.Errorf("after the reload the tree holds %q, want lefty", hands)
	}
	b.None(t, 2*time.Second, func(e zeroconftest.Event) bool { return e.Event == "removed" })
	write("lefty", freeTCPPort(t))
	reload <- os.Interrupt
	moved := next(t, urls)
	if moved == url || treeHands(t, moved) != "lefty" {
		t.Errorf("after a reload to another oscquery.listen the tree is at %s (was %s)", moved, url)
	}
	b.Next(t, 10*time.Second, func(e zeroconftest.Event) bool { return e.Event == "removed" })
	e := b.Next(t, 10*time.Second, func(e zeroconftest.Event) bool { return e.Event == "added" || e.Event == "updated" })
	if !strings.HasSuffix(moved, fmt.Sprintf(":%d/", e.Port)) {
		t.Errorf("advertised at port %d, serving %s", e.Port, moved)
	}
}

// runReloadable runs a daemon of one hand and [oscquery] name
// "gloved-reload" until the test ends, its config written by write (the
// hand's name, oscquery.listen) and first of the given ones: a send on
// reload reloads it; urls hears the OSCQuery URL of each "gloved
// running" line.
func runReloadable(t *testing.T, name, listen string) (write func(name, listen string), urls chan string, reload chan os.Signal) {
	t.Helper()
	cfgPath := filepath.Join(t.TempDir(), "g.toml")
	oscListen := freeUDPPort(t)
	write = func(name, listen string) {
		writeConfig(t, cfgPath, hand(name, "sim")+sections{listen: oscListen}.String()+fmt.Sprintf("[oscquery]\nname = \"gloved-reload\"\nlisten = %q\n", listen))
	}
	write(name, listen)
	logR, logW := io.Pipe()
	urls = make(chan string, 8)
	go func() {
		sc := bufio.NewScanner(logR)
		for sc.Scan() {
			var line struct{ Message, OSCQuery string }
			if json.Unmarshal(sc.Bytes(), &line) == nil && line.Message == "gloved running" {
				urls <- line.OSCQuery
			}
		}
	}()
	reload = make(chan os.Signal, 1)
	svc := Service{Path: cfgPath, Log: logW, Reload: reload}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- svc.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
		logW.Close()
	})
	return write, urls, reload
}

// TestReloadRereadsTheInterfaces: the interfaces mDNS runs on are read
// again at a reload: a daemon started while loopback carried no
// multicast (not advertised, as it says) is advertised after `ip link
// set lo multicast on` and a SIGHUP that changes nothing else.
func TestReloadRereadsTheInterfaces(t *testing.T) {
	t.Parallel()
	if !netns.Run(t) {
		return
	}
	multicast := func(on string) {
		if out, err := exec.Command("ip", "link", "set", "lo", "multicast", on).CombinedOutput(); err != nil {
			t.Fatalf("%v %s", err, out)
		}
	}
	multicast("off")
	_, urls, reload := runReloadable(t, "right", "127.0.0.1:0")
	next(t, urls)
	multicast("on")
	b := zeroconftest.Start(t, "browse", "_oscjson._tcp.local.")
	b.Next(t, 10*time.Second, func(e zeroconftest.Event) bool { return e.Event == "browsing" })
	reload <- os.Interrupt
	url := next(t, urls)
	added := b.Next(t, 10*time.Second, func(e zeroconftest.Event) bool { return e.Event == "added" })
	if added.Name != "gloved-reload._oscjson._tcp.local." || !strings.HasSuffix(url, fmt.Sprintf(":%d/", added.Port)) {
		t.Errorf("advertised %s, serving %s", added.Raw, url)
	}
}

// next returns the next URL logged.
func next(t *testing.T, urls chan string) string {
	t.Helper()
	select {
	case u := <-urls:
		if u == "" {
			t.Fatal("no OSCQuery URL logged")
		}
		return u
	case <-time.After(15 * time.Second):
		t.Fatal("the daemon did not start within 15 s")
	}
	return ""
}

// treeHands returns the hands the tree at url holds under /gloved.
func treeHands(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url + "gloved?CONTENTS")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var v struct{ CONTENTS map[string]json.RawMessage }
	json.NewDecoder(resp.Body).Decode(&v)
	var hands []string
	for k, n := range v.CONTENTS {
		if strings.Contains(string(n), `"CONTENTS"`) {
			hands = append(hands, k)
		}
	}
	return strings.Join(hands, ",")
}

// freeTCPPort returns a loopback TCP address free a moment ago.
func freeTCPPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// labTree is the config of one simulated right hand with the given
// [[osc.profile]]s, and its OSCQuery tree, which must have the proposal's
// structure.
func labTree(t *testing.T, profiles string) (*Config, *oscquery.Tree) {
	t.Helper()
	c, err := ParseConfig("lab.toml", []byte(hand("right", "sim")+sections{}.String()+profiles))
	if err != nil {
		t.Fatal(err)
	}
	tree, err := c.Tree()
	if err != nil {
		t.Fatal(err)
	}
	if err := oscquery.CheckJSON(tree.JSON("/")); err != nil {
		t.Error(err)
	}
	return c, tree
}

// TestOSCQueryTreeHoldsTheProfiles: the tree holds gloved's contract and
// that of each output profile configured (openxr's joints under the
// prefix, vmc's bones), in the proposal's structure; the vrchat profile's
// avatar parameters are left out, so that VRChat, which sends every
// avatar parameter to an app whose tree holds /avatar, does not.
func TestOSCQueryTreeHoldsTheProfiles(t *testing.T) {
	c, tree := labTree(t, profileTable("openxr", targets("127.0.0.1:9500"))+profileTable("vmc")+profileTable("vrchat")+
		profileTable("gloved", `coords = "unity"`, targets("127.0.0.1:9501")))
	for _, m := range [][]osc.Method{osc.Methods(), openxr.Methods(geom.Gloved), vmc.Methods()} {
		for _, x := range m {
			addr := x.Address(c.OSC.Prefix, "right")
			if n := tree.Node(addr); n == nil || n.Access&int(x.Access) == 0 {
				t.Errorf("%s: %+v", addr, n)
			}
		}
	}
	if tree.Node("/avatar") != nil {
		t.Error("the tree holds /avatar")
	}
}

// TestOSCQueryTreeSaysEachProfilesCoordinates: the tree describes each
// profile in its own coordinates: an openxr profile in unreal's gives
// its positions and radii in distance.cm, its joints' axes as Unreal's
// (+X along the bone) and Unreal's; where another stream sends an
// address in other coordinates (a second openxr profile in gloved's, a
// gloved profile in unreal's beside osc.targets' own), the node is the
// first's and its description names the profile and its coordinates;
// where they agree, nothing is added.
func TestOSCQueryTreeSaysEachProfilesCoordinates(t *testing.T) {
	_, tree := labTree(t, profileTable("openxr", `coords = "unreal"`, targets("127.0.0.1:9500"))+
		profileTable("gloved", `coords = "unreal"`, targets("127.0.0.1:9501"))+profileTable("openxr", targets("127.0.0.1:9502"))+
		profileTable("openxr", `coords = "unreal"`, targets("127.0.0.1:9503")))
	unit := func(n *oscquery.Node, k int) string {
		if n.Unit == nil || n.Unit[k] == nil {
			return ""
		}
		return *n.Unit[k]
	}
	unreal := " osc.profile[1] sends it to its targets in unreal's coordinates (left-handed, +Z up, +X forward, +Y right), lengths in centimetres."
	own := map[string]string{}
	for _, m := range osc.Methods() {
		own[m.Address("/gloved", "right")] = m.Description
	}
	tests := []struct {
		addr, unit string
		unitAt     int
		desc       string
	}{
		{"/gloved/right/xr/palm", "distance.cm", 7, openxr.Methods(geom.Unreal)[2].Description +
			" osc.profile[2] sends it to its targets in gloved's coordinates (right-handed, +Y up, -Z forward, +X right), lengths in metres."},
		{"/gloved/right/xr/active", "", 0, openxr.Methods(geom.Gloved)[0].Description},
		{"/gloved/right/links", "distance.m", 0, own["/gloved/right/links"] + unreal},
		{"/gloved/right/pinch", "distance.m", 2, own["/gloved/right/pinch"] + unreal},
		{"/gloved/right/frame", "", 2, own["/gloved/right/frame"]},
	}
	for _, tc := range tests {
		n := tree.Node(tc.addr)
		if n == nil {
			t.Errorf("%s is not in the tree", tc.addr)
			continue
		}
		if got := unit(n, tc.unitAt); got != tc.unit || n.Description != tc.desc {
			t.Errorf("%s: UNIT[%d] %q, DESCRIPTION %q; want %q, %q", tc.addr, tc.unitAt, got, n.Description, tc.unit, tc.desc)
		}
	}
	if palm := tree.Node("/gloved/right/xr/palm"); unit(palm, 0) != "distance.cm" || !strings.Contains(palm.Description, "+X along the bone") {
		t.Errorf("unreal's palm: UNIT %q, %q", unit(palm, 0), palm.Description)
	}
}

// TestTreeNotesNameAProfilesCoordinatesWhereItHasAny: the note on a node
// another profile sends with another meaning names that profile's
// coordinates, or, for one that has none, its own contract.
func TestTreeNotesNameAProfilesCoordinatesWhereItHasAny(t *testing.T) {
	unreal := ProfileConfig{conv: geom.Unreal}
	if got, want := unreal.sendsItToo(1), " osc.profile[1] sends it to its targets in unreal's coordinates (left-handed, +Z up, +X forward, +Y right), lengths in centimetres."; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := (&ProfileConfig{}).sendsItToo(2), " osc.profile[2] sends it to its targets too, as its own contract says."; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
