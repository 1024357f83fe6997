package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	goosc "github.com/hypebeast/go-osc/osc"

	"github.com/gloved/gloved/daemon"
	"github.com/gloved/gloved/daemon/daemontest"
	"github.com/gloved/gloved/env"
)

func dumpLines(t *testing.T, path string) []dumpLine {
	t.Helper()
	out, err := gloved(t, "dump", path)
	if err != nil {
		t.Fatal(err)
	}
	var lines []dumpLine
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var l dumpLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("dump line %q: %v", sc.Text(), err)
		}
		lines = append(lines, l)
	}
	return lines
}

// TestEmulateRecordDumpEndToEnd: a simulated session is recorded, played by
// the emulator on a pty (with garbage on the line), recorded again through
// the real driver, and dumped: every sample dumped is one the source held,
// in order, with its joint angles.
func TestEmulateRecordDumpEndToEnd(t *testing.T) {
	dir := t.TempDir()
	src, link, got := filepath.Join(dir, "src.glove"), filepath.Join(dir, "glove"), filepath.Join(dir, "got.glove")
	if out, err := gloved(t, "record", "--device", "sim", "--motion", "tap", "--seconds", "0.4", "-o", src); err != nil || !strings.Contains(out, "recorded") {
		t.Fatalf("record sim: %v %s", err, out)
	}
	source := dumpLines(t, src)
	if len(source) < 30 {
		t.Fatalf("sim recording has %d samples", len(source))
	}
	known := map[string]bool{}
	for i, l := range source {
		if l.Seq != uint64(i) || len(l.Angles) != 23 {
			t.Fatalf("source line %d: %+v", i, l)
		}
		known[fmt.Sprint(l.Raw)] = true
	}

	ctx, cancel := context.WithCancel(context.Background())
	var emuOut syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"emulate", "--source", src, "--link", link, "--garbage", "0.05"}, &emuOut)
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("emulate: %v", err)
		}
	}()
	awaitLink(t, link, emuOut.String)
	if !strings.Contains(emuOut.String(), "22-sensor right-hand CyberGlove (recording") {
		t.Errorf("emulator announced %q", emuOut.String())
	}
	out, err := gloved(t, "record", "--port", link, "--seconds", "0.6", "-o", got)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "22-sensor right glove") {
		t.Errorf("record said %q", out)
	}
	lines := dumpLines(t, got)
	if len(lines) < 30 {
		t.Fatalf("only %d samples recorded in 0.6 s at 100 Hz", len(lines))
	}
	for i, l := range lines {
		if l.Seq != uint64(i) {
			t.Fatalf("line %d has seq %d", i, l.Seq)
		}
		if _, ok := known[fmt.Sprint(l.Raw)]; !ok {
			t.Fatalf("sample %d raw %v is not in the source recording", i, l.Raw)
		}
		for _, a := range l.Angles {
			if math.IsNaN(a) || math.IsInf(a, 0) {
				t.Fatalf("sample %d has angle %v", i, a)
			}
		}
		if i > 0 && l.T < lines[i-1].T {
			t.Fatalf("time went back at sample %d", i)
		}
	}
}

func TestRecordAndDumpErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.glove")
	os.WriteFile(bad, []byte("not a recording"), 0o644)
	tests := []struct {
		args []string
		says string
	}{
		{[]string{"record", "--device", "sim", "-o", filepath.Join(dir, "x.glove")}, "needs --seconds"},
		{[]string{"record", "--device", "glove9000", "--seconds", "1", "-o", filepath.Join(dir, "x.glove")}, `--device "glove9000"`},
		{[]string{"record", "--port", filepath.Join(dir, "nope"), "--seconds", "1", "-o", filepath.Join(dir, "x.glove")}, "nope"},
		{[]string{"record", "--device", "sim", "--motion", "wave", "--seconds", "1", "-o", filepath.Join(dir, "x.glove")}, `motion = "wave": want grasp, tap, pinch, fist, cross, spread or handshake`},
		{[]string{"dump", bad}, "bad.glove: not a gloved recording"},
		{[]string{"dump"}, "one recording file"},
		{[]string{"emulate", "--sensors", "20"}, "20 sensors"},
		{[]string{"emulate", "--source", bad}, "bad.glove"},
	}
	for _, tc := range tests {
		_, err := gloved(t, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%v: got %v, want an error saying %q", tc.args, err, tc.says)
		}
	}
}

func TestDumpOfATruncatedRecordingWarnsAndKeepsTheGoodPart(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src.glove")
	if _, err := gloved(t, "record", "--device", "sim", "--seconds", "0.2", "-o", src); err != nil {
		t.Fatal(err)
	}
	whole := dumpLines(t, src)
	data, _ := os.ReadFile(src)
	cut := filepath.Join(dir, "cut.glove")
	os.WriteFile(cut, data[:len(data)-5], 0o644)
	var said strings.Builder
	warnings = &said
	defer func() { warnings = os.Stderr }()
	part := dumpLines(t, cut)
	if len(part) != len(whole)-1 {
		t.Fatalf("truncated dump has %d samples, want %d", len(part), len(whole)-1)
	}
	if !strings.Contains(said.String(), "cut.glove") || !strings.Contains(said.String(), "dumped the samples before it") {
		t.Errorf("dump warned %q", said.String())
	}
	said.Reset()
	out, err := gloved(t, "contacts", "--scene", "builtin:grasp", "--recording", cut)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out, "frame "); n != len(part) {
		t.Errorf("contacts ran %d frames of the %d intact samples", n, len(part))
	}
	if !strings.Contains(said.String(), "cut.glove") {
		t.Errorf("contacts warned %q", said.String())
	}
}

func TestHandExport(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hand.obj")
	out, err := gloved(t, "hand", "--pose", "fist", "--left", "--forearm", "-o", path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "left hand") || !strings.Contains(out, "forearm") || !strings.Contains(out, "wrote "+path) {
		t.Errorf("output:\n%s", out)
	}
	m, err := env.Load(path, env.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Objects) != 17 || m.Objects[16] != "forearm" {
		t.Fatalf("exported objects %v", m.Objects)
	}
	if _, err := gloved(t, "hand", "--length", "3"); err == nil {
		t.Error("a 3 m hand must be refused")
	}
}

const graspWrist = "0 0.91 0.10 -0.70710678 0 0 0.70710678"

// TestContactsFromSimAndRecording: `gloved contacts --json` on the
// simulated grasp prints a frame a line, every contact one with the ball
// at a unit normal; a recording of the same session gives the same
// frames. The recording is 0.5 s of a glove read in real time and must
// hold 40 frames: the test runs alone (not t.Parallel).
func TestContactsFromSimAndRecording(t *testing.T) {
	scene := "../../testdata/scenes/grasp.obj"
	out, err := gloved(t, "contacts", "--scene", scene, "--sim", "--frames", "120", "--wrist-pose", graspWrist, "--json")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 120 {
		t.Fatalf("%d frames printed, want 120", len(lines))
	}
	touched := 0
	for i, l := range lines {
		var f frameJSON
		if err := json.Unmarshal([]byte(l), &f); err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
		if f.Frame != i || f.Contacts == nil || f.Near == nil {
			t.Fatalf("line %d: %+v", i, f)
		}
		for _, c := range f.Contacts {
			if c.Object != "ball" || !(c.Depth >= 0) || c.Tris < 0 {
				t.Fatalf("line %d: contact %+v", i, c)
			}
			n := math.Sqrt(c.Normal[0]*c.Normal[0] + c.Normal[1]*c.Normal[1] + c.Normal[2]*c.Normal[2])
			if math.Abs(n-1) > 1e-6 {
				t.Fatalf("line %d: normal of length %v", i, n)
			}
			touched++
		}
	}
	if touched < 50 || !strings.Contains(out, `"near":[{`) {
		t.Fatalf("%d contacts over the grasp, near misses present: %v", touched, strings.Contains(out, `"near":[{`))
	}
	// The same session recorded and replayed gives the same contacts.
	rec := filepath.Join(t.TempDir(), "grasp.glove")
	if _, err := gloved(t, "record", "--device", "sim", "--seconds", "0.5", "--wrist-pose", graspWrist, "-o", rec); err != nil {
		t.Fatal(err)
	}
	fromRec, err := gloved(t, "contacts", "--scene", scene, "--recording", rec, "--json")
	if err != nil {
		t.Fatal(err)
	}
	fromSim, err := gloved(t, "contacts", "--scene", scene, "--sim", "--frames", "50", "--wrist-pose", graspWrist, "--json")
	if err != nil {
		t.Fatal(err)
	}
	recLines := strings.Split(strings.TrimSpace(fromRec), "\n")
	simLines := strings.Split(strings.TrimSpace(fromSim), "\n")
	if len(recLines) < 40 {
		t.Fatalf("%d frames from a 0.5 s recording", len(recLines))
	}
	for i := range min(len(recLines), len(simLines)) {
		if recLines[i] != simLines[i] {
			t.Fatalf("frame %d differs between the recording and the simulation:\n%s\n%s", i, recLines[i], simLines[i])
		}
	}
	human, err := gloved(t, "contacts", "--scene", scene, "--sim", "--frames", "100", "--wrist-pose", graspWrist)
	if err != nil || !strings.Contains(human, "in ball") {
		t.Fatalf("human output: %v\n%s", err, human)
	}
	if _, err := gloved(t, "contacts", "--scene", scene); err == nil {
		t.Error("contacts without a source must be refused")
	}
}

// watchRunning runs the daemon of cfg (in this process), listening at
// listen, and once it answers a subscription, `gloved watch` of it for 2
// s; it returns what watch printed, once the daemon has stopped, without
// an error, at the end of the watch.
func watchRunning(t *testing.T, cfg, listen string) string {
	t.Helper()
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	done := make(chan error, 1)
	go func() {
		var out syncBuffer
		done <- run(ctx, []string{"run", "-c", cfg, "--status=false"}, &out)
	}()
	awaitSubscription(t, listen, done)
	// Longer than the grasp's 3 s cycle: the ball is touched in every
	// watch, however far into the cycle it begins (and whatever a slow
	// start, the race detector's, takes of it).
	out, err := gloved(t, "watch", "--daemon", listen, "--for", "4s")
	stop()
	if derr := <-done; derr != nil {
		t.Fatalf("gloved run: %v", derr)
	}
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// awaitSubscription subscribes a socket of the test's to the daemon at
// listen, again every 100 ms, until the daemon sends it anything: the
// daemon runs by then (loading a scene may take seconds under the race
// detector). It fails the test if the daemon ends (done) first or
// answers nothing within a minute.
func awaitSubscription(t *testing.T, listen string, done chan error) {
	t.Helper()
	dst, err := net.ResolveUDPAddr("udp", listen)
	if err != nil {
		t.Fatal(err)
	}
	rx, got := daemontest.ListenAny(t)
	ask, err := goosc.NewMessage("/gloved/subscribe", "127.0.0.1", int32(rx.LocalAddr().(*net.UDPAddr).Port)).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); len(got.All()) == 0; time.Sleep(100 * time.Millisecond) {
		select {
		case err := <-done:
			t.Fatalf("the daemon ended before it answered a subscription: %v", err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("the daemon at %s answered no subscription within a minute", listen)
		}
		rx.WriteTo(ask, dst)
	}
}

// TestRunAndWatch: `gloved run --check` passes a config of one simulated
// hand; `gloved watch` of the daemon running it shows the hand streaming
// and in the ball; a config of an unknown device is a config error naming
// the key.
func TestRunAndWatch(t *testing.T) {
	t.Parallel()
	listen := freePort(t)
	cfg := filepath.Join(t.TempDir(), "g.toml")
	os.WriteFile(cfg, []byte(fmt.Sprintf(`
[[hand]]
name = "right"
device = "sim"
wrist_pose = [0.0, 0.91, 0.10, -0.70710678, 0.0, 0.0, 0.70710678]
[scene]
files = [{ path = %q }]
[osc]
listen = %q
[frame]
count_tris = false
[log]
level = "error"
`, mustAbs(t, "../../testdata/scenes/grasp.obj"), listen)), 0o644)
	if out, err := gloved(t, "run", "-c", cfg, "--check"); err != nil || !strings.Contains(out, "config ok: 1 hand(s)") {
		t.Fatalf("--check: %v %s", err, out)
	}
	out := watchRunning(t, cfg, listen)
	if !strings.Contains(out, "right: streaming") || !strings.Contains(out, "in ball") {
		t.Fatalf("watch output:\n%s", out)
	}
	// A bad config is a usage-class error naming the key.
	bad := filepath.Join(t.TempDir(), "bad.toml")
	os.WriteFile(bad, []byte("[[hand]]\nname = \"x\"\ndevice = \"toaster\"\n"), 0o644)
	_, err := gloved(t, "run", "-c", bad)
	if err == nil || !errors.Is(err, daemon.ErrConfig) || !strings.Contains(err.Error(), `hand[0].device = "toaster"`) {
		t.Fatalf("bad config: %v", err)
	}
}

func mustAbs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestSIGHUPReloadsAndMetricsServe: a running daemon serves Prometheus
// metrics; rewriting its config and sending SIGHUP switches it to the new
// one (here: the hand's OSC name changes). The daemon runs in this
// process, signalled as a whole: the test runs alone (not t.Parallel),
// before the tests whose daemons run in this process too.
func TestSIGHUPReloadsAndMetricsServe(t *testing.T) {
	rx, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer rx.Close()
	metrics := freePortTCP(t)
	cfg := filepath.Join(t.TempDir(), "g.toml")
	write := func(hand string) {
		os.WriteFile(cfg, []byte(fmt.Sprintf(`
[[hand]]
name = %q
device = "sim"
[scene]
files = [{ path = %q }]
[osc]
targets = [%q]
listen = "127.0.0.1:0"
[frame]
count_tris = false
[log]
level = "error"
[metrics]
listen = %q
`, hand, mustAbs(t, "../../testdata/scenes/grasp.obj"), rx.LocalAddr().String(), metrics)), 0o644)
	}
	write("first")
	done := make(chan error, 1)
	go func() {
		var out syncBuffer
		done <- run(context.Background(), []string{"run", "-c", cfg, "--for", "4s", "--status=false"}, &out)
	}()
	seen := func(addr string) bool {
		buf := make([]byte, 65536)
		for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); {
			rx.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
			n, _, err := rx.ReadFrom(buf)
			if err == nil && bytes.Contains(buf[:n], []byte(addr)) {
				return true
			}
		}
		return false
	}
	if !seen("/gloved/first/frame") {
		t.Fatal("no frames from the first config")
	}
	resp, err := http.Get("http://" + metrics + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, m := range []string{"gloved_frames_total", `gloved_stage_seconds_bucket{stage="narrow"`, "gloved_osc_packets_sent_total", "gloved_serial_bad_frames_total", "gloved_stalls_total", `gloved_hand_status{hand="first",status="streaming"} 1`} {
		if !bytes.Contains(body, []byte(m)) {
			t.Errorf("metrics lack %s", m)
		}
	}
	write("second")
	syscall.Kill(os.Getpid(), syscall.SIGHUP)
	if !seen("/gloved/second/frame") {
		t.Fatal("SIGHUP did not switch to the new config")
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestBenchPipelineAndExport(t *testing.T) {
	t.Parallel()
	fullRunOnly(t)
	scene, rec := "../../testdata/scenes/grasp.obj", "../../testdata/recordings/grasp.glove"
	out, err := gloved(t, "bench", "pipeline", "--scene", scene, "--recording", rec, "--self=false", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var res pipelineBench
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.Frames != 201 || len(res.Stages) != 7 || res.Stages[6].Stage != "total" || !(res.Stages[6].P99US >= res.Stages[6].P50US) {
		t.Fatalf("bench pipeline: %+v", res)
	}
	// Self-contact is timed when it runs, by default as in the daemon,
	// and is not timed (0) when it does not.
	out, err = gloved(t, "bench", "pipeline", "--scene", scene, "--recording", rec, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var withSelf pipelineBench
	if err := json.Unmarshal([]byte(out), &withSelf); err != nil {
		t.Fatal(err)
	}
	if res.Stages[4].Stage != "self" || res.Stages[4].MaxUS != 0 || !(withSelf.Stages[4].P50US > 0) {
		t.Fatalf("bench pipeline self stage: with --self=false %+v, by default %+v", res.Stages[4], withSelf.Stages[4])
	}
	dir := t.TempDir()
	if _, err := gloved(t, "export", "--scene", scene, "--recording", rec, "--out", dir); err != nil {
		t.Fatal(err)
	}
	frames, _ := os.ReadFile(filepath.Join(dir, "frames.txt"))
	lines := strings.Split(strings.TrimSpace(string(frames)), "\n")
	if len(lines) != 1+201*16 || len(strings.Fields(lines[1])) != 14 {
		t.Fatalf("frames.txt: %d lines, first %q", len(lines), lines[1])
	}
	contacts, _ := os.ReadFile(filepath.Join(dir, "contacts.jsonl"))
	if n := strings.Count(string(contacts), "\n"); n != 201 {
		t.Fatalf("contacts.jsonl has %d lines", n)
	}
	want, err := gloved(t, "contacts", "--scene", scene, "--recording", rec, "--json")
	if err != nil || want != string(contacts) {
		t.Fatalf("contacts.jsonl differs from gloved contacts --json (%v)", err)
	}
	link, err := env.Load(filepath.Join(dir, "links", "index3.obj"), env.LoadOptions{})
	if err != nil || !link.Convex[0] {
		t.Fatalf("links/index3.obj: %v (convex %v)", err, link.Convex)
	}
	sc, err := env.Load(filepath.Join(dir, "scene.obj"), env.LoadOptions{})
	if err != nil || len(sc.Objects) != 2 || len(sc.Tris) != 524 {
		t.Fatalf("scene.obj: %v", err)
	}
}
