package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gloved/gloved/daemon/daemontest"
	goosc "github.com/hypebeast/go-osc/osc"
)

// startEmulator runs `gloved emulate` linked at dir/glove until the test
// ends, and returns the link.
func startEmulator(t *testing.T, dir string, args ...string) string {
	t.Helper()
	link := filepath.Join(dir, "glove")
	emu := exec.Command(binary(t), append([]string{"emulate", "--link", link}, args...)...)
	var emuErr bytes.Buffer
	emu.Stderr = &emuErr
	if err := emu.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		emu.Process.Signal(syscall.SIGTERM)
		emu.Wait()
	})
	awaitLink(t, link, func() string { return "" })
	return link
}

// gloveConfig writes a config of one CyberGlove hand on port, sending
// frames to target (none if empty), and returns its path.
func gloveConfig(t *testing.T, dir, name, port, target string) string {
	t.Helper()
	targets := "[]"
	if target != "" {
		targets = fmt.Sprintf("[%q]", target)
	}
	cfg := filepath.Join(dir, name)
	text := fmt.Sprintf(`
[[hand]]
name = "right"
device = "cyberglove"
port = %q
[scene]
files = [{ path = "builtin:grasp" }]
[osc]
listen = "127.0.0.1:0"
targets = %s
[frame]
count_tris = false
`, port, targets)
	if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestOneProcessOwnsAGlovePort: while a daemon streams from a glove, a
// second daemon, `gloved record` and `gloved ports --probe` on its port
// each say at once who holds it, and the first daemon streams on
// untouched. Once it stops, the port is free again.
func TestOneProcessOwnsAGlovePort(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	link := startEmulator(t, dir, "--seed", "3")
	rx, got := daemontest.Listen(t)
	first := exec.Command(binary(t), "run", "-c", gloveConfig(t, dir, "first.toml", link, rx.LocalAddr().String()), "--status=false")
	var firstErr bytes.Buffer
	first.Stderr = &firstErr
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	stopFirst := func() {
		first.Process.Signal(syscall.SIGTERM)
		first.Wait()
	}
	defer stopFirst()
	for deadline := time.Now().Add(15 * time.Second); daemontest.Frames(got.All(), "right") < 20; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the first daemon sent no frames: %s", firstErr.String())
		}
	}
	before := len(got.All())
	holder := fmt.Sprintf("%s is in use by gloved (pid %d): stop it or choose another port", link, first.Process.Pid)

	second := runBinary(t, 20*time.Second, "run", "-c", gloveConfig(t, dir, "second.toml", link, ""), "--status=false")
	second.oneLine(t, 1, holder)

	rec := runBinary(t, 20*time.Second, "record", "--port", link, "--seconds", "1", "-o", filepath.Join(dir, "r.glove"))
	rec.oneLine(t, 1, holder)

	probe := runBinary(t, 20*time.Second, "ports", "--probe", link)
	if probe.code != 0 || !strings.Contains(probe.stdout, fmt.Sprintf("not probed: in use by gloved (pid %d)", first.Process.Pid)) {
		t.Errorf("ports --probe: exit %d\n%s%s", probe.code, probe.stdout, probe.stderr)
	}

	// The first daemon's stream went on as it was: its glove never away,
	// frames arriving meanwhile. (Degraded may be honest on a machine
	// starved by the three binaries started meanwhile; losing the port
	// would show as reconnecting or stalled.)
	all := got.All()
	if statuses := daemontest.Statuses(all[before:], "right"); slices.ContainsFunc(statuses, func(s string) bool { return s != "streaming" && s != "degraded" }) {
		t.Errorf("the first daemon's statuses while the others tried its port: %v", statuses)
	}
	if n := daemontest.Frames(all[before:], "right"); n == 0 {
		t.Errorf("the first daemon sent no frames while the others tried its port")
	}

	stopFirst()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, binary(t), "record", "--port", link, "--seconds", "0.3", "-o", filepath.Join(dir, "after.glove")).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "recorded") {
		t.Errorf("record once the daemon stopped: %v\n%s", err, out)
	}
}

// TestAGloveLosingSamplesIsReportedDegraded: a line that loses a third of
// its records (what a second reader of the port used to do) makes the
// hand degraded, with the rate that arrives, on OSC and in the metrics;
// the glove keeps its pose live meanwhile.
func TestAGloveLosingSamplesIsReportedDegraded(t *testing.T) {
	dir := t.TempDir()
	link := startEmulator(t, dir, "--seed", "5", "--lose", "0.34")
	rx, got := daemontest.Listen(t)
	metrics := freePortTCP(t)
	cfg := gloveConfig(t, dir, "gloved.toml", link, rx.LocalAddr().String())
	appendMetrics(t, cfg, metrics)
	daemon := exec.Command(binary(t), "run", "-c", cfg, "--status=false")
	var stderr bytes.Buffer
	daemon.Stderr = &stderr
	if err := daemon.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		daemon.Process.Signal(syscall.SIGTERM)
		daemon.Wait()
	}()
	for deadline := time.Now().Add(20 * time.Second); !slices.Contains(daemontest.Statuses(got.All(), "right"), "degraded"); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("never degraded; statuses %v\n%s", daemontest.Statuses(got.All(), "right"), stderr.String())
		}
	}
	rates := daemontest.Rates(got.All(), "right")["degraded"]
	if len(rates) == 0 {
		t.Fatalf("a degraded status without its rate")
	}
	for _, r := range rates {
		// 100 records a second, each lost with probability 0.34.
		if r < 40 || r >= 80 {
			t.Errorf("degraded at %.1f samples/s: want about 66, under 80", r)
		}
	}
	body := scrape(t, metrics)
	for _, m := range []string{`gloved_hand_status{hand="right",status="degraded"} 1`, `gloved_hand_nominal_rate{hand="right"} 100`, `gloved_hand_sample_rate{hand="right"}`} {
		if !bytes.Contains(body, []byte(m)) {
			t.Errorf("metrics lack %s", m)
		}
	}
	if n := daemontest.Frames(got.All(), "right"); n == 0 {
		t.Errorf("no frames while degraded")
	}
}

// appendMetrics adds a [metrics] table listening at addr to the config at
// path.
func appendMetrics(t *testing.T, path, addr string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := fmt.Fprintf(f, "[metrics]\nlisten = %q\n", addr); err != nil {
		t.Fatal(err)
	}
}

// scrape returns the daemon's metrics at addr.
func scrape(t *testing.T, addr string) []byte {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return body
}

// TestTheDaemonOutlivesItsReaders: `gloved run | head -1`: when what
// reads the daemon's status lines and log goes away, the daemon goes on
// sending frames, and stops cleanly on SIGTERM.
func TestTheDaemonOutlivesItsReaders(t *testing.T) {
	t.Parallel()
	rx, got := daemontest.Listen(t)
	cfg := simConfig(t, "127.0.0.1:0", rx.LocalAddr().String(), "")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	daemon := exec.Command(binary(t), "run", "-c", cfg, "--status")
	daemon.Stdout, daemon.Stderr = w, w
	if err := daemon.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	exited := make(chan error, 1)
	go func() { exited <- daemon.Wait() }()
	for deadline := time.Now().Add(20 * time.Second); daemontest.Frames(got.All(), "right") < 10; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no frames")
		}
	}
	r.Close() // the reader goes away
	n := daemontest.Frames(got.All(), "right")
	for deadline := time.Now().Add(20 * time.Second); daemontest.Frames(got.All(), "right") < n+200; time.Sleep(20 * time.Millisecond) {
		select {
		case err := <-exited:
			t.Fatalf("the daemon ended when its reader went away: %v", err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("frames stopped when the reader went away")
		}
	}
	daemon.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("after SIGTERM: %v", err)
		}
	case <-time.After(20 * time.Second):
		daemon.Process.Kill()
		t.Fatal("the daemon did not stop on SIGTERM")
	}
}

// TestTwoHandsOnOneSerialPortAreRefusedNamingBoth: two gloves whose
// ports name one file (spelt apart, /x/./cg, or a symlink such as a udev
// rule's name to its device) are refused by --check and by run in one
// line naming both hands' port keys, instead of the second hand finding
// the port held by the first and blaming another gloved; two ports that
// are two files pass.
func TestTwoHandsOnOneSerialPortAreRefusedNamingBoth(t *testing.T) {
	dir := t.TempDir()
	dev, other, link := filepath.Join(dir, "cg"), filepath.Join(dir, "cg2"), filepath.Join(dir, "glove")
	// Character devices stand for the gloves' (a regular file is refused
	// as no device).
	for f, to := range map[string]string{dev: "/dev/null", other: "/dev/zero"} {
		if err := os.Symlink(to, f); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(dev, link); err != nil {
		t.Fatal(err)
	}
	config := func(a, b string) string {
		return handConfig(t, t.TempDir(), fmt.Sprintf("device = \"cyberglove\"\nport = %q\n[[hand]]\nname = \"left\"\ndevice = \"cyberglove\"\nport = %q", a, b), "127.0.0.1:9", "")
	}
	absent := filepath.Join(dir, "absent")
	for _, tc := range [][2]string{
		{dev, dev},
		{dev, dir + "/./cg"},
		{link, dev},
		{absent, dir + "/./absent"},
	} {
		path := config(tc[0], tc[1])
		want := fmt.Sprintf("hand[0].port = %q and hand[1].port = %q are one serial port", tc[0], tc[1])
		runBinary(t, 20*time.Second, "run", "-c", path, "--check").oneLine(t, 2, want, "each glove needs its own port")
		runBinary(t, 20*time.Second, "run", "-c", path, "--status=false").oneLine(t, 2, want)
	}
	if r := runBinary(t, 20*time.Second, "run", "-c", config(dev, other), "--check"); r.code != 0 {
		t.Errorf("two gloves on two ports refused: %s", r.stderr)
	}
}

// TestARelativePortIsBesideTheConfig: a port written relative (a link
// the emulator, or a udev rule, made beside the config) is found from
// the config's directory, as every path of the config is, whatever the
// directory gloved runs in: it was looked for in the working directory
// and waited for forever.
func TestARelativePortIsBesideTheConfig(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	startEmulator(t, dir) // its link: dir/glove
	rx, got := daemontest.Listen(t)
	cfg := handConfig(t, dir, "device = \"cyberglove\"\nport = \"glove\"", rx.LocalAddr().String(), "")
	startGloved(t, "gloved run", "run", "-c", cfg, "--status=false")
	waitFor(t, got, "streaming", func(b []*goosc.Bundle) bool {
		return slices.Contains(daemontest.Statuses(b, "right"), "streaming") && daemontest.Frames(b, "right") > 10
	})
}
