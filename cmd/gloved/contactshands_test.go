package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestContactsBetweenHands: `gloved contacts --hands configs/handshake.toml`
// prints a JSON frame of both hands per line, and what the right hand
// touches of the left, the left touches of the right: the same pairs of
// links the other way round, equally deep, with opposite normals.
func TestContactsBetweenHands(t *testing.T) {
	t.Parallel()
	out, err := gloved(t, "contacts", "--hands", "../../configs/handshake.toml", "--frames", "150")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 150 {
		t.Fatalf("%d frames printed, want 150", len(lines))
	}
	meeting := 0
	for i, l := range lines {
		var f handsJSON
		if err := json.Unmarshal([]byte(l), &f); err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
		if f.Frame != i || len(f.Hands) != 2 || f.Hands[0].Hand != "right" || f.Hands[1].Hand != "left" {
			t.Fatalf("line %d: frame %d of hands %+v", i, f.Frame, f.Hands)
		}
		right, left := f.Hands[0], f.Hands[1]
		if len(right.Hands) != len(left.Hands) {
			t.Fatalf("frame %d: the right hand touches the left %d times, the left the right %d", i, len(right.Hands), len(left.Hands))
		}
		if len(right.Hands) > 0 {
			meeting++
		}
		for _, c := range right.Hands {
			found := false
			for _, d := range left.Hands {
				if d.Link != c.OtherLink || d.OtherLink != c.Link {
					continue
				}
				found = true
				n := [3]float64{c.Normal[0] + d.Normal[0], c.Normal[1] + d.Normal[1], c.Normal[2] + d.Normal[2]}
				if c.Other != "left" || d.Other != "right" || math.Abs(c.Depth-d.Depth) > 1e-6 || math.Hypot(n[0], math.Hypot(n[1], n[2])) > 1e-3 {
					t.Fatalf("frame %d: %+v against %+v: want the same depth and opposite normals", i, c, d)
				}
			}
			if !found {
				t.Fatalf("frame %d: right %s touches left %s, but not the other way", i, c.Link, c.OtherLink)
			}
		}
	}
	if meeting < 75 {
		t.Fatalf("the hands meet in %d of 150 frames", meeting)
	}
}

// TestContactsBetweenHandsErrors: each misuse of contacts --hands is one
// line; a live hand (a glove on a line, a tracker on a socket, which no
// frame count ends: a tracker hand hung it for good) is refused.
func TestContactsBetweenHandsErrors(t *testing.T) {
	t.Parallel()
	live := func(device string) string {
		path := filepath.Join(t.TempDir(), device+".toml")
		text := "[[hand]]\nname = \"a\"\ndevice = \"sim\"\n[[hand]]\nname = \"b\"\ndevice = \"" + device + "\"\nport = \"/nonexistent/tty\"\n[scene]\nfiles = [{ path = \"builtin:grasp\" }]\n"
		if device != "cyberglove" {
			text = strings.Replace(text, "port = \"/nonexistent/tty\"\n", "", 1)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"contacts", "--hands", "../../configs/demo.toml"}, "1 [[hand]]; two or more meet"},
		{[]string{"contacts", "--hands", "../../configs/handshake.toml", "--sim"}, "leave out --sim"},
		{[]string{"contacts", "--hands", "../../configs/handshake.toml", "--proximity", "0.5"}, "leave out --proximity (only --frames goes with it)"},
		{[]string{"contacts", "--hands", "../../configs/handshake.toml", "--frames", "0"}, "--frames 0"},
		{[]string{"contacts", "--hands", "nowhere.toml"}, "nowhere.toml"},
		{[]string{"contacts", "--hands", live("cyberglove"), "--frames", "3"}, "hand b is a live cyberglove; contacts runs recordings and simulations"},
		{[]string{"contacts", "--hands", live("vmc"), "--frames", "3"}, "hand b is a live vmc; contacts runs recordings and simulations"},
		{[]string{"contacts", "--hands", live("osc"), "--frames", "3"}, "hand b is a live osc"},
	} {
		r := runBinary(t, 20*time.Second, tc.args...)
		r.oneLine(t, 2, tc.says)
	}
}

// TestWatchShowsHandsMeeting: `gloved run` on the shipped handshake config
// (its ports moved, its frame budget the most a config may give) and
// `gloved watch` beside it: watch prints where each hand touches the
// other. The daemon runs in this process, under the race detector when
// the tests do: the config's 5 ms would leave the test between the hands
// at a level of boxes, short of the links, on a loaded machine.
func TestWatchShowsHandsMeeting(t *testing.T) {
	t.Parallel()
	text, err := os.ReadFile("../../configs/handshake.toml")
	if err != nil {
		t.Fatal(err)
	}
	const budget = "budget_ms = 5.0"
	if !strings.Contains(string(text), budget) {
		t.Fatalf("configs/handshake.toml no longer says %q", budget)
	}
	listen := freePort(t)
	conf := strings.Replace(string(text), budget, "budget_ms = 1000.0", 1)
	conf = strings.Replace(conf, `listen = "127.0.0.1:9431"`, fmt.Sprintf("listen = %q", listen), 1)
	conf = strings.Replace(conf, `targets = ["127.0.0.1:9430"]`, "targets = []", 1)
	conf += "\n[log]\nlevel = \"error\"\n"
	cfg := filepath.Join(t.TempDir(), "handshake.toml")
	if err := os.WriteFile(cfg, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	out := watchRunning(t, cfg, listen)
	if !strings.Contains(out, "right: streaming") || !strings.Contains(out, "left: streaming") || !strings.Contains(out, " on left ") || !strings.Contains(out, " on right ") {
		t.Fatalf("watch output:\n%s", out)
	}
}

// TestContactsBetweenHandsWarnsOfADamagedRecording: a hand replaying a
// cut recording runs the intact frames, then says what was wrong and that
// it ended before --frames.
func TestContactsBetweenHandsWarnsOfADamagedRecording(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src.glove")
	if _, err := gloved(t, "record", "--device", "sim", "--motion", "handshake", "--seconds", "0.3", "-o", src); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(src)
	cut := filepath.Join(dir, "cut.glove")
	os.WriteFile(cut, data[:len(data)-5], 0o644)
	cfg := filepath.Join(dir, "two.toml")
	os.WriteFile(cfg, []byte(`
[[hand]]
name = "right"
device = "replay"
recording = "cut.glove"
wrist_pose = [0.0, 1.3, 0.025, 0.0, 0.0, -0.70710678, 0.70710678]
[[hand]]
name = "left"
device = "sim"
side = "left"
motion = "handshake"
wrist_pose = [0.15, 1.3, -0.025, 0.70710678, -0.70710678, 0.0, 0.0]
[scene]
files = [{ path = "builtin:grasp" }]
`), 0o644)
	var said strings.Builder
	warnings = &said
	defer func() { warnings = os.Stderr }()
	out, err := gloved(t, "contacts", "--hands", cfg, "--frames", "100")
	if err != nil {
		t.Fatal(err)
	}
	n := strings.Count(out, "\n")
	if n < 20 || n >= 100 {
		t.Fatalf("%d frames from a cut 0.3 s recording", n)
	}
	for _, want := range []string{"cut.glove", "hand right: its recording ended after"} {
		if !strings.Contains(said.String(), want) {
			t.Errorf("warned %q, want it to say %q", said.String(), want)
		}
	}
}
