package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAPathWithControlCharactersIsQuotedInOneLine: a path holding a
// newline and an escape sequence, whether given on the command line or
// in a config, is named quoted (%q) in an error of one line, and no raw
// ESC reaches the terminal.
func TestAPathWithControlCharactersIsQuotedInOneLine(t *testing.T) {
	dir := t.TempDir()
	const hostile = "a\nb\x1b[2J"
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// One hand, its device and a line of its own, and a scene file (as
	// a TOML string's text).
	config := func(name, device, line, scene string) string {
		return write(name, fmt.Sprintf("[[hand]]\nname = \"right\"\ndevice = %q\n%s\n[scene]\nfiles = [{ path = \"%s\" }]\n", device, line, scene))
	}
	replay := config("replay.toml", "replay", `recording = "a\nb\u001b[2J.glove"`, "builtin:grasp")
	scene := config("scene.toml", "sim", "", `a\nb\u001b[2J.obj`)
	calibration := config("calibration.toml", "sim", `calibration = "a\nb\u001b[2J.toml"`, "builtin:grasp")
	badKey := write(hostile+".toml", "[[hand]]\nname = \"right\"\nnot_a_key = 1\n")
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"dump", filepath.Join(dir, hostile+".glove")}, `"` + dir + `/a\nb\x1b[2J.glove"`},
		{[]string{"run", "--check", "-c", replay}, `"a\nb\x1b[2J.glove" is relative`},
		{[]string{"run", "--check", "-c", scene}, `"a\nb\x1b[2J.obj" is relative`},
		{[]string{"run", "--check", "-c", calibration}, `a\nb\x1b[2J.toml"`},
		{[]string{"run", "--check", "-c", filepath.Join(dir, hostile+"-absent.toml")}, `a\nb\x1b[2J-absent.toml"`},
		{[]string{"run", "--check", "-c", badKey}, `a\nb\x1b[2J.toml"`},
		{[]string{"emulate", "--link", badKey}, `a\nb\x1b[2J.toml" exists and is not an emulator's link`},
	} {
		r := runBinary(t, 20*time.Second, c.args...)
		if strings.ContainsRune(r.stderr, 0x1b) {
			t.Errorf("gloved %q: a raw ESC on stderr: %q", c.args, r.stderr)
		}
		r.oneLine(t, r.code, c.says)
		if r.code == 0 {
			t.Errorf("gloved %q: exit 0", c.args)
		}
	}
}

// TestAHandNeverRecordsIntoAFileTheConfigReads: a recording that is the
// config file itself, a hand's calibration, a replayed recording or a
// scene file (named relative, absolute or through a symlink) is refused
// at --check and at the start, in one line naming both keys, and the
// file stays where it was.
func TestAHandNeverRecordsIntoAFileTheConfigReads(t *testing.T) {
	dir := t.TempDir()
	if out, err := gloved(t, "record", "--device", "sim", "--seconds", "0.1", "-o", filepath.Join(dir, "played.glove")); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	cal, err := os.ReadFile("../../configs/calibration-22.toml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cal.toml"), cal, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ball.obj"), []byte("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("ball.obj", filepath.Join(dir, "alias.obj")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ recording, says string }{
		{"self.toml", "the config file itself"},
		{filepath.Join(dir, "self.toml"), "the config file itself"},
		{"./cal.toml", "hand[0].calibration"},
		{"played.glove", "hand[1].recording"},
		{"alias.obj", "scene.files[0].path"},
		{"twice.glove", "hand[0].recording too"},
	} {
		cfg := filepath.Join(dir, "self.toml")
		text := `
[[hand]]
name = "right"
device = "sim"
calibration = "cal.toml"
recording = "` + c.recording + `"
[[hand]]
name = "left"
side = "left"
device = "replay"
recording = "played.glove"
[[hand]]
name = "third"
device = "sim"
recording = "twice.glove"
[scene]
files = [{ path = "ball.obj" }]
`
		if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		runBinary(t, 20*time.Second, "run", "--check", "-c", cfg).oneLine(t, 2, "recording = ", c.says)
		runBinary(t, 20*time.Second, "run", "--for", "1s", "-c", cfg).oneLine(t, 2, c.says)
		if got, err := os.ReadFile(cfg); err != nil || string(got) != text {
			t.Fatalf("the config moved or changed: %v", err)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*.1.*")); len(left) > 0 {
		t.Errorf("files moved aside: %v", left)
	}
}

// TestContactsBetweenHandsNeverRecords: `gloved contacts --hands` on a
// config whose hands record leaves their recordings as they were: it
// creates none and moves none aside.
func TestContactsBetweenHandsNeverRecords(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	text, err := os.ReadFile("../../configs/handshake.toml")
	if err != nil {
		t.Fatal(err)
	}
	conf := strings.Replace(string(text), `motion = "handshake"`, `motion = "handshake"`+"\nrecording = \"right.glove\"", 1)
	conf = strings.Replace(conf, `side = "left"`, `side = "left"`+"\nrecording = \"left.glove\"", 1)
	cfg := filepath.Join(dir, "handshake.toml")
	if err := os.WriteFile(cfg, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "right.glove"), []byte("earlier session\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := gloved(t, "contacts", "--hands", cfg, "--frames", "20"); err != nil || strings.Count(out, "\n") != 20 {
		t.Fatalf("contacts: %v: %d lines", err, strings.Count(out, "\n"))
	}
	if b, err := os.ReadFile(filepath.Join(dir, "right.glove")); err != nil || string(b) != "earlier session\n" {
		t.Errorf("right.glove: %q, %v", b, err)
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "*")); len(files) != 2 {
		t.Errorf("contacts left %v, want the config and right.glove only", files)
	}
}
