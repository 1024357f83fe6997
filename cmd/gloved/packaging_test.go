package main

import (
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gloved/gloved/configs"
	"github.com/gloved/gloved/daemon"
	"github.com/gloved/gloved/session"
)

// The service's files: the unit, and the conffile the Debian package
// installs as /etc/gloved/gloved.toml. (packaging/check-deb.sh checks the
// built package itself, as root where it can.)
const (
	unitFile = "../../systemd/gloved.service"
	conffile = "../../packaging/gloved.toml"
)

// execStart returns the unit's ExecStart command line, split.
func execStart(t *testing.T) []string {
	t.Helper()
	unit, err := os.ReadFile(unitFile)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^ExecStart=(.*)$`).FindSubmatch(unit)
	if m == nil {
		t.Fatal("the unit has no ExecStart")
	}
	return strings.Fields(string(m[1]))
}

// TestTheUnitsCommandLineRunsTheConffile runs the unit's ExecStart as
// written (its binary replaced by the one built here, its config by the
// shipped conffile) with --check: every flag it passes exists, and the
// conffile loads as the service would load it, scene included.
func TestTheUnitsCommandLineRunsTheConffile(t *testing.T) {
	argv := execStart(t)
	if argv[0] != "/usr/local/bin/gloved" || argv[1] != "run" {
		t.Fatalf("ExecStart = %q: build-deb.sh points /usr/local/bin/gloved at /usr/bin/gloved", argv)
	}
	args := argv[1:]
	found := false
	for i, a := range args {
		if a == "/etc/gloved/gloved.toml" {
			args[i], found = conffile, true
		}
	}
	if !found {
		t.Fatalf("ExecStart = %q does not run /etc/gloved/gloved.toml", argv)
	}
	r := runBinary(t, 30*time.Second, append(args, "--check")...)
	if r.code != 0 || !strings.HasPrefix(r.stdout, "config ok: 1 hand(s), scene of ") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
}

// TestTheConffileIsTheDemo: as installed, the service runs the built-in
// demo's hand, scene, OSC targets and frame settings, with every port on
// loopback.
func TestTheConffileIsTheDemo(t *testing.T) {
	c, err := daemon.LoadConfig(conffile)
	if err != nil {
		t.Fatal(err)
	}
	text, err := configs.Files.ReadFile("demo.toml")
	if err != nil {
		t.Fatal(err)
	}
	demo, err := daemon.ParseConfig("demo.toml", text)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c.Hands, demo.Hands) || !reflect.DeepEqual(c.Scene, demo.Scene) ||
		!reflect.DeepEqual(c.OSC, demo.OSC) || !reflect.DeepEqual(c.Frame, demo.Frame) {
		t.Errorf("the conffile is not the demo:\n%+v\nwant\n%+v", c, demo)
	}
	for _, addr := range []string{c.OSC.Listen, c.View.Listen} {
		if !strings.HasPrefix(addr, "127.0.0.1:") {
			t.Errorf("%s is not loopback", addr)
		}
	}
	if c.View.Listen == demo.View.Listen {
		t.Errorf("the service's page shares the demo's %s: a demo run beside the service could not start", c.View.Listen)
	}
}

// TestTheConffilesGloveSectionIsAGlove: the commented [[hand]], with its
// comment marks taken off, is a CyberGlove hand that parses.
func TestTheConffilesGloveSectionIsAGlove(t *testing.T) {
	text, err := os.ReadFile(conffile)
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile(`(?m)^# \[\[hand\]\]\n(?:# .*\n)+`).Find(text)
	if block == nil {
		t.Fatal("the conffile has no commented [[hand]] section")
	}
	uncommented := regexp.MustCompile(`(?m)^# `).ReplaceAll(block, nil)
	c, err := daemon.ParseConfig("glove.toml", append(uncommented, "[scene]\nfiles = [{ path = \"builtin:grasp\" }]\n"...))
	if err != nil {
		t.Fatalf("%v\n%s", err, uncommented)
	}
	h := c.Hands[0]
	if h.Device != session.DeviceCyberGlove || h.Port != "/dev/cyberglove" || h.Baud != 115200 || h.Recording == "" || h.Calibration == "" {
		t.Errorf("%+v", h)
	}
}
