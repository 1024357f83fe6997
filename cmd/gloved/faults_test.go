package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	goosc "github.com/hypebeast/go-osc/osc"

	"github.com/gloved/gloved/daemon/daemontest"
	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/cyberglove/layout"
	"github.com/gloved/gloved/devices/replay"
	"github.com/gloved/gloved/devices/sim"
	"github.com/gloved/gloved/internal/netns"
)

// checkSimRecording replays a recording of the simulated grasp: every
// sample is the simulation's at its sequence number, numbered from 0
// without gaps; it returns how many there are.
func checkSimRecording(t *testing.T, path string) int {
	t.Helper()
	r, err := replay.Open(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var s devices.Sample
	var want [layout.Slots]uint16
	n := 0
	for r.Read(&s) == nil {
		sim.Raw(sim.Grasp, time.Duration(s.Seq)*10*time.Millisecond, &want)
		var got [layout.Slots]uint16
		layout.ToSlots(&s, &got)
		if s.Seq != uint64(n) || got != want {
			t.Fatalf("recorded sample %d (seq %d) is not the simulation's", n, s.Seq)
		}
		n++
	}
	return n
}

// TestDiskFullStopsOnlyTheRecording: when the recording cannot grow (a
// file size limit, as a full disk), the daemon says so once and goes on
// publishing frames; the recording holds complete samples up to there.
func TestDiskFullStopsOnlyTheRecording(t *testing.T) {
	if _, err := exec.LookPath("prlimit"); err != nil {
		netns.Skipf(t, "prlimit (util-linux) is not installed: cannot limit the file size")
	}
	rx, got := daemontest.Listen(t)
	rec := filepath.Join(t.TempDir(), "session.glove")
	cfg := simConfig(t, "127.0.0.1:0", rx.LocalAddr().String(), rec)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "prlimit", "--fsize=10000", binary(t), "run", "-c", cfg, "--for", "2.5s", "--status=false")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("the daemon failed: %v\n%s", err, stderr.String())
	}
	frames := daemontest.Frames(got.All(), "right")
	if !strings.Contains(stderr.String(), "recording stopped") || !strings.Contains(stderr.String(), "file too large") {
		t.Errorf("the daemon did not say the recording stopped:\n%s", stderr.String())
	}
	if frames < 150 {
		t.Errorf("%d frames published in 2.5 s: the full disk stopped more than the recording", frames)
	}
	if n := checkSimRecording(t, rec); n < 50 {
		t.Errorf("%d samples recorded before the disk was full", n)
	}
}

// TestSIGTERMUnderASubscribeFlood: the daemon stops cleanly on SIGTERM
// while datagrams pour into its control port, and its recording is whole.
func TestSIGTERMUnderASubscribeFlood(t *testing.T) {
	listen := freeUDP(t)
	rx, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer rx.Close()
	rec := filepath.Join(t.TempDir(), "session.glove")
	cfg := simConfig(t, listen, rx.LocalAddr().String(), rec)
	cmd := exec.Command(binary(t), "run", "-c", cfg, "--status=false")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	flood, err := net.Dial("udp", listen)
	if err != nil {
		t.Fatal(err)
	}
	defer flood.Close()
	// Flood once the daemon runs: its frames arrive.
	buf := make([]byte, 65536)
	rx.SetReadDeadline(time.Now().Add(20 * time.Second))
	for frames := 0; frames < 20; {
		n, _, err := rx.ReadFrom(buf)
		if err != nil {
			t.Fatalf("no frames from the daemon: %v\n%s", err, stderr.String())
		}
		if bytes.Contains(buf[:n], []byte("/frame\x00")) {
			frames++
		}
	}
	sent := 0
	for i := range 3000 {
		b, _ := goosc.NewMessage("/gloved/subscribe", "127.0.0.1", int32(20000+i%5000)).MarshalBinary()
		flood.Write(b)
		sent++
		if i == 1500 {
			cmd.Process.Signal(syscall.SIGTERM)
		}
		if i%50 == 49 {
			time.Sleep(time.Millisecond)
		}
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			t.Fatal(err)
		}
		if err != nil {
			t.Fatalf("exit %v after SIGTERM under %d datagrams:\n%s", err, sent, stderr.String())
		}
	case <-time.After(5 * time.Second):
		cmd.Process.Kill()
		t.Fatal("the daemon did not stop within 5 s of SIGTERM")
	}
	if n := checkSimRecording(t, rec); n < 20 {
		t.Errorf("%d samples recorded", n)
	}
}

// simConfig writes a config of one simulated hand recording to rec (if
// any), on the built-in scene, listening at listen and sending to target
// (if any).
func simConfig(t *testing.T, listen, target, rec string) string {
	t.Helper()
	hand := "device = \"sim\"\n"
	if rec != "" {
		hand += fmt.Sprintf("recording = %q\n", rec)
	}
	return rightHandConfig(t, hand, listen, target)
}

// rightHandConfig writes a config of one hand, right, with the keys
// given, on the built-in scene, listening at listen and sending to target
// (if any).
func rightHandConfig(t *testing.T, keys, listen, target string) string {
	t.Helper()
	targets := "[]"
	if target != "" {
		targets = fmt.Sprintf("[%q]", target)
	}
	path := filepath.Join(t.TempDir(), "gloved.toml")
	text := fmt.Sprintf(`
[[hand]]
name = "right"
%s[scene]
files = [{ path = "builtin:grasp" }]
[osc]
listen = %q
targets = %s
[frame]
count_tris = false
`, keys, listen, targets)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
