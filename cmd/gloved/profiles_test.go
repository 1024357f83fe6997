package main

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gloved/gloved/daemon/daemontest"
)

// TestRunSendsEveryProfileAtOnce: `gloved run` with a simulated glove and
// five profiles at once (gloved's own to osc.targets, gloved's in ROS
// coordinates, openxr in Unity's, vrchat and vmc), each to its own socket:
// every receiver gets its dialect, and only its own: gloved's bundles,
// ROS's links in ROS's axes (the palm above the table: Z up), the 26
// OpenXR joints, VRChat's parameters as bare messages no more often than
// 10 ticks a second allow over the run, VMC's bones with the right hand's
// names.
func TestRunSendsEveryProfileAtOnce(t *testing.T) {
	t.Parallel()
	names := []string{"gloved", "ros", "openxr", "vrchat", "vmc"}
	addr := map[string]string{}
	got := map[string]*daemontest.Packets{}
	for _, n := range names {
		rx, r := daemontest.ListenAny(t)
		addr[n], got[n] = rx.LocalAddr().String(), r
	}
	cfg := filepath.Join(t.TempDir(), "profiles.toml")
	text := fmt.Sprintf(`
[[hand]]
name = "right"
device = "sim"
wrist_pose = [0.0, 0.91, 0.10, -0.70710678, 0.0, 0.0, 0.70710678]
[scene]
files = [{ path = "builtin:grasp" }]
[osc]
listen = "127.0.0.1:0"
targets = [%q]
[[osc.profile]]
name = "gloved"
coords = "ros"
targets = [%q]
[[osc.profile]]
name = "openxr"
coords = "unity"
targets = [%q]
[[osc.profile]]
name = "vrchat"
targets = [%q]
rate_hz = 10.0
[[osc.profile]]
name = "vmc"
targets = [%q]
[frame]
count_tris = false
[log]
level = "error"
`, addr["gloved"], addr["ros"], addr["openxr"], addr["vrchat"], addr["vmc"])
	if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	const runFor = 3 * time.Second
	r := runBinary(t, 30*time.Second, "run", "-c", cfg, "--status=false", "--for", runFor.String())
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	count := func(n, addr string) int {
		k := 0
		for _, m := range got[n].Messages() {
			if m.Address == addr {
				k++
			}
		}
		return k
	}
	for _, n := range names {
		for _, p := range got[n].All() {
			if p.Bundle == (n == "vrchat") {
				t.Fatalf("%s: a packet bundled %v: want vrchat's bare, the others' bundles", n, p.Bundle)
			}
			for _, m := range p.Messages {
				own := map[string]bool{
					"gloved": strings.HasPrefix(m.Address, "/gloved/right/") && !strings.Contains(m.Address, "/xr/"),
					"openxr": strings.HasPrefix(m.Address, "/gloved/right/xr/"),
					"vrchat": strings.HasPrefix(m.Address, "/avatar/parameters/gloved/right/"),
					"vmc":    strings.HasPrefix(m.Address, "/VMC/Ext/"),
				}
				kind := n
				if n == "ros" {
					kind = "gloved"
				}
				if !own[kind] {
					t.Fatalf("%s received %s", n, m.Address)
				}
			}
		}
	}
	frames := count("gloved", "/gloved/right/frame")
	if frames < 100 || count("ros", "/gloved/right/frame") < frames*9/10 {
		t.Fatalf("%d gloved frames, %d in ROS coordinates", frames, count("ros", "/gloved/right/frame"))
	}
	if n := count("openxr", "/gloved/right/xr/pinky-finger-tip"); n < frames*9/10 {
		t.Errorf("openxr: %d joint messages for %d frames", n, frames)
	}
	if n := count("vmc", "/VMC/Ext/T"); n < frames*9/10 || !strings.Contains(fmt.Sprint(got["vmc"].Messages()), "RightIndexDistal") {
		t.Errorf("vmc: %d frames for %d, or no right index", n, frames)
	}
	// The simulated hand's palm is 91 cm above the floor: ROS's Z, Unity's Y.
	for _, m := range got["ros"].Messages() {
		if m.Address == "/gloved/right/links" {
			if z := m.Arguments[2].(float32); z < 0.85 || z > 0.95 {
				t.Fatalf("ros: the palm at %v: want Z up, about 0.91", m.Arguments[:3])
			}
			break
		}
	}
	ticks := int(runFor.Seconds()*10) + 1
	per := map[string]int{}
	for _, m := range got["vrchat"].Messages() {
		per[m.Address]++
	}
	if len(per) != 25 {
		t.Errorf("vrchat: %d parameters, want 25", len(per))
	}
	for a, k := range per {
		if k > ticks {
			t.Errorf("vrchat: %s sent %d times in %v: more than the %d ticks 10 a second allow", a, k, runFor, ticks)
		}
	}
}

// TestProfileConfigErrorsThroughTheBinary: `gloved run --check` and
// `gloved run` end a config with a bad [[osc.profile]] with one line
// naming the key, exit code 2.
func TestProfileConfigErrorsThroughTheBinary(t *testing.T) {
	tests := []struct {
		name, profile string
		says          []string
	}{
		{"unknown profile", "name = \"mocap\"\ntargets = [\"127.0.0.1:9500\"]", []string{`osc.profile[0].name = "mocap"`, "want gloved, openxr, vmc or vrchat"}},
		{"bad coords", "name = \"openxr\"\ntargets = [\"127.0.0.1:9500\"]\ncoords = \"maya\"", []string{`osc.profile[0].coords = "maya"`, "unity, unreal or ros"}},
		{"coords on vrchat", "name = \"vrchat\"\ncoords = \"unity\"", []string{`osc.profile[0].coords = "unity"`, "leave coords out"}},
		{"bad target", "name = \"vmc\"\ntargets = [\"127.0.0.1:395390\"]", []string{`osc.profile[0].targets[0] = "127.0.0.1:395390"`, "port 1-65535"}},
		{"unresolvable target", "name = \"vmc\"\ntargets = [\"no-such-host.invalid:39539\"]", []string{`osc.profile[0].targets`, "no-such-host.invalid"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := writeConfig(t, "127.0.0.1:0", "builtin:grasp", "[[osc.profile]]\n"+tc.profile+"\n")
			r := runBinary(t, 20*time.Second, "run", "-c", cfg, "--check")
			r.oneLine(t, 2, tc.says...)
			if tc.name != "unresolvable target" {
				r = runBinary(t, 20*time.Second, "run", "-c", cfg, "--status=false", "--for", "1s")
				r.oneLine(t, 2, tc.says...)
			}
		})
	}
}

// TestReplaySendsProfiles: `gloved replay --profile` sends the recording
// in the profiles given, each to its targets, and a bad one is refused
// as a config's would be.
func TestReplaySendsProfiles(t *testing.T) {
	xr, xrGot := daemontest.ListenAny(t)
	vm, vmGot := daemontest.ListenAny(t)
	g, _ := daemontest.ListenAny(t)
	r := runBinary(t, 30*time.Second, "replay", "../../testdata/recordings/grasp.glove", "--speed", "max", "--target", g.LocalAddr().String(),
		"--profile", "openxr@unreal="+xr.LocalAddr().String(), "--profile", "vmc="+vm.LocalAddr().String())
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if !waitUntil(3*time.Second, func() bool {
		return strings.Contains(fmt.Sprint(xrGot.Messages()), "/gloved/right/xr/pinky-finger-tip") && strings.Contains(fmt.Sprint(vmGot.Messages()), "RightLittleDistal")
	}) {
		t.Fatalf("openxr received %d messages, vmc %d", len(xrGot.Messages()), len(vmGot.Messages()))
	}
	for _, m := range xrGot.Messages() {
		if m.Address == "/gloved/right/xr/wrist" {
			if z := m.Arguments[2].(float32); z < 85 || z > 100 {
				t.Fatalf("openxr in unreal's coordinates: the wrist at %v: want Z up in centimetres", m.Arguments[:3])
			}
			break
		}
	}
	bad := runBinary(t, 30*time.Second, "replay", "../../testdata/recordings/grasp.glove", "--speed", "max", "--profile", "vrchat@unity")
	bad.oneLine(t, 2, `osc.profile[0].coords = "unity"`)
}

// waitUntil polls cond until it holds or d has passed.
func waitUntil(d time.Duration, cond func() bool) bool {
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return cond()
}

// TestADestinationGivenOneProfileTwiceIsRefused: a destination that two
// lists send one profile to (osc.targets and an [[osc.profile]] named
// gloved, even as localhost and in other coordinates; two openxr
// profiles) is refused by --check and at start in one line naming both
// keys, since it would receive every frame twice; one destination of two
// different profiles is not.
func TestADestinationGivenOneProfileTwiceIsRefused(t *testing.T) {
	t.Parallel()
	dst := freeUDP(t)
	_, port, _ := net.SplitHostPort(dst)
	config := func(profiles string) string {
		path := filepath.Join(t.TempDir(), "gloved.toml")
		text := fmt.Sprintf("[[hand]]\nname = \"right\"\ndevice = \"sim\"\n[scene]\nfiles = [{ path = \"builtin:grasp\" }]\n[osc]\nlisten = \"127.0.0.1:0\"\ntargets = [%q]\n%s", dst, profiles)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	for _, tc := range []struct{ profiles, first, second string }{
		{"[[osc.profile]]\nname = \"gloved\"\ncoords = \"ros\"\ntargets = [\"localhost:" + port + "\"]\n",
			fmt.Sprintf("osc.targets[0] = %q", dst), fmt.Sprintf(`osc.profile[0].targets[0] = "localhost:%s"`, port)},
		{"[[osc.profile]]\nname = \"openxr\"\ntargets = [\"127.0.0.1:9600\"]\n[[osc.profile]]\nname = \"openxr\"\ncoords = \"unity\"\ntargets = [\"127.0.0.1:9601\", \"127.0.0.1:9600\"]\n",
			`osc.profile[0].targets[0] = "127.0.0.1:9600"`, `osc.profile[1].targets[1] = "127.0.0.1:9600"`},
	} {
		cfg := config(tc.profiles)
		for _, args := range [][]string{{"--check"}, {"--status=false", "--for", "5s"}} {
			r := runBinary(t, 30*time.Second, append([]string{"run", "-c", cfg}, args...)...)
			r.oneLine(t, 2, tc.first+" and "+tc.second+" are one destination of the", "profile: it would receive every frame twice", "list it in one of them")
		}
	}
	r := runBinary(t, 30*time.Second, "run", "-c", config("[[osc.profile]]\nname = \"openxr\"\ntargets = [\""+dst+"\"]\n"), "--check")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "config ok") {
		t.Errorf("one destination of gloved and openxr: exit %d, %s%s", r.code, r.stdout, r.stderr)
	}
}
