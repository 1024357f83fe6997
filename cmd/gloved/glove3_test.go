package main

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	goosc "github.com/hypebeast/go-osc/osc"

	"github.com/gloved/gloved/daemon/daemontest"
	"github.com/gloved/gloved/devices/emulator"
	"github.com/gloved/gloved/handmodel"
)

// TestGloveFaultsThroughTheBinaries: `gloved emulate` plays a CyberGlove
// I/II, then a III, then an OpenGloves glove (with splay, waiting for the
// host's line after each of its own), on a pseudo-terminal with garbage
// on the line, the glove unplugged from the unit (not an OpenGloves
// glove's: it has none), the glove silent and the port hung up and back;
// `gloved run` with device = "cyberglove", "cyberglove3" or "opengloves"
// reads it, publishes frames over OSC and records the session. The
// statuses on the wire follow every fault in order, frames keep coming,
// the hand moves (the joint angles on the wire change), and `gloved dump`
// replays the recording: contiguous samples of the model's resolution,
// every angle finite. The OpenGloves glove, its controls worked
// (--controls), sends them with every frame, as checkControls says; the
// CyberGloves send none.
func TestGloveFaultsThroughTheBinaries(t *testing.T) {
	for _, model := range []string{"cyberglove", "cyberglove3", "opengloves"} {
		t.Run(model, func(t *testing.T) {
			t.Parallel() // with each other: an emulator and a daemon each, mostly waiting
			faultsThroughTheBinaries(t, model)
		})
	}
}

func faultsThroughTheBinaries(t *testing.T, model string) {
	dir := t.TempDir()
	link, rec := filepath.Join(dir, "glove"), filepath.Join(dir, "session.glove")
	rx, got := daemontest.Listen(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	args := []string{"emulate", "--model", model, "--link", link, "--seed", "7", "--garbage", "0.03",
		"--silent-at", "3", "--silent-for", "0.8", "--hangup-at", "4.6", "--hangup-for", "0.5"}
	want, sensors := []string{"streaming", "no-glove", "streaming", "stalled", "streaming", "reconnecting", "streaming"}, 22
	if model == "opengloves" {
		args = append(args, "--splay", "--force-feedback", "--controls")
		want, sensors = slices.Delete(want, 1, 3), 41
	} else {
		args = append(args, "--unplug-at", "1.5", "--unplug-for", "0.5")
	}
	emu := exec.CommandContext(ctx, binary(t), args...)
	// Read while emulate runs: os/exec's goroutines write them meanwhile.
	var emuOut, emuErr syncBuffer
	emu.Stdout, emu.Stderr = &emuOut, &emuErr
	if err := emu.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		emu.Process.Signal(syscall.SIGTERM)
		if err := emu.Wait(); err != nil {
			t.Errorf("emulate: %v\n%s", err, emuErr.String())
		}
	}()
	awaitLink(t, link, emuErr.String)
	cfg := handConfig(t, dir, fmt.Sprintf("device = %q\nport = %q\nrecording = %q", model, link, rec), rx.LocalAddr().String(), "stall_ms = 300.0\n")
	daemon := exec.CommandContext(ctx, binary(t), "run", "-c", cfg, "--for", "6.5s", "--status=false")
	var stderr bytes.Buffer
	daemon.Stderr = &stderr
	if err := daemon.Run(); err != nil {
		t.Fatalf("gloved run: %v\n%s", err, stderr.String())
	}

	unit := map[string]string{"cyberglove": "22-sensor right-hand CyberGlove (", "cyberglove3": "22-sensor right-hand CyberGlove III (", "opengloves": "an OpenGloves glove (full scale 4095"}[model]
	if !strings.Contains(emuOut.String(), unit) {
		t.Errorf("the emulator announced %q", emuOut.String())
	}
	statuses, frames := daemontest.Statuses(got.All(), "right"), daemontest.Frames(got.All(), "right")
	if !daemontest.InOrder(statuses, want) || frames < 300 {
		t.Errorf("statuses %v, want %v in that order; %d frames\n%s", statuses, want, frames, stderr.String())
	}
	if span := daemontest.JointSpan(got.All(), "right", int(handmodel.IndexPIP)); span < 0.5 {
		t.Errorf("the index finger's PIP moved %.2f rad on the wire: the grasp did not reach the hand", span)
	}
	if strings.Contains(stderr.String(), "panic") {
		t.Errorf("the daemon's log:\n%s", stderr.String())
	}
	checkControls(t, got.All(), model == "opengloves")

	lines := dumpLines(t, rec)
	wide, fine := false, false
	for i, l := range lines {
		if l.Seq != uint64(i) || len(l.Raw) != sensors {
			t.Fatalf("dumped line %d: seq %d, %d values", i, l.Seq, len(l.Raw))
		}
		for _, v := range l.Raw {
			wide, fine = wide || v > 254, fine || v%16 != 0
		}
		for _, a := range l.Angles {
			if math.IsNaN(a) || math.IsInf(a, 0) {
				t.Fatalf("sample %d has angle %v", i, a)
			}
		}
	}
	if len(lines) < 300 || wide != (model != "cyberglove") || (model == "cyberglove3" && !fine) {
		t.Errorf("%d samples recorded; values above 254: %v, not multiples of 16: %v", len(lines), wide, fine)
	}
	t.Logf("statuses %v, %d frames, %d samples recorded", statuses, frames, len(lines))
}

// checkControls checks the controls of the right hand on the wire: none
// for a glove without (has false); for an emulated OpenGloves glove with
// its controls worked, one message with every frame, each argument in
// its range, the joystick round its full circle on both axes, A pressed
// while it points right and B while left, each pressed and released,
// never both, and the grasp's trigger and grab gesture moving.
func checkControls(t *testing.T, bundles []*goosc.Bundle, has bool) {
	t.Helper()
	frames, n := daemontest.Frames(bundles, "right"), 0
	lo, hi := [3]float32{1, 1, 1}, [3]float32{-1, -1, -1}
	var pressed, released [8]int
	for _, b := range bundles {
		for _, m := range b.Messages {
			if m.Address != "/gloved/right/controls" {
				continue
			}
			n++
			if len(m.Arguments) != 11 {
				t.Fatalf("controls %v", m.Arguments)
			}
			var v [3]float32
			for k := range v {
				v[k], _ = m.Arguments[k].(float32)
				lo[k], hi[k] = min(lo[k], v[k]), max(hi[k], v[k])
			}
			if v[0] < -1 || v[0] > 1 || v[1] < -1 || v[1] > 1 || v[2] < 0 || v[2] > 1 {
				t.Fatalf("controls %v out of range", m.Arguments)
			}
			for k := range 8 {
				switch m.Arguments[3+k] {
				case int32(1):
					pressed[k]++
				case int32(0):
					released[k]++
				default:
					t.Fatalf("controls %v: button %d is neither 0 nor 1", m.Arguments, k)
				}
			}
			a, bb := m.Arguments[5] == int32(1), m.Arguments[6] == int32(1)
			if a && bb || a && v[0] < -0.01 || bb && v[0] > 0.01 {
				t.Fatalf("controls %v: A %v and B %v with the joystick at x %v", m.Arguments, a, bb, v[0])
			}
		}
	}
	if !has {
		if n != 0 {
			t.Errorf("a glove without controls sent %d controls messages", n)
		}
		return
	}
	round := lo[0] < -0.95 && hi[0] > 0.95 && lo[1] < -0.95 && hi[1] > 0.95
	if n != frames || !round || hi[2]-lo[2] < 0.25 || pressed[2] == 0 || released[2] == 0 || pressed[3] == 0 || released[3] == 0 || pressed[4] == 0 || released[4] == 0 {
		t.Errorf("%d controls messages in %d frames; joystick and trigger from %v to %v; pressed %v, released %v", n, frames, lo, hi, pressed, released)
	}
}

// TestCyberGlove3ErrorsSayWhatToDo: what a user can get wrong about a
// CyberGlove III ends with one line naming it.
func TestCyberGlove3ErrorsSayWhatToDo(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "x.glove")
	noPort := filepath.Join(dir, "no-port.toml")
	os.WriteFile(noPort, []byte("[[hand]]\nname = \"right\"\ndevice = \"cyberglove3\"\n"), 0o644)
	silent, err := emulator.OpenPTY() // nothing answers on it
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	for _, tc := range []struct {
		args []string
		code int
		says []string
	}{
		{[]string{"record", "--device", "cyberglove3", "--rate", "50", "--port", "/dev/null", "--seconds", "1", "-o", out}, 2, []string{"--rate", "a cyberglove3 streams at its own rate"}},
		{[]string{"record", "--device", "cyberglove3", "--poll", "--port", "/dev/null", "--seconds", "1", "-o", out}, 2, []string{"poll", "only a cyberglove (I/II) can be polled"}},
		{[]string{"record", "--device", "cyberglove4", "--seconds", "1", "-o", out}, 2, []string{`--device "cyberglove4"`, "cyberglove3"}},
		{[]string{"record", "--device", "cyberglove3", "--port", filepath.Join(dir, "ttyUSB7"), "--seconds", "1", "-o", out}, 1, []string{"ttyUSB7", "plugged in"}},
		{[]string{"calibrate", "--device", "sim", "-o", filepath.Join(dir, "c.toml")}, 2, []string{`--device "sim"`, "cyberglove, cyberglove3 or opengloves"}},
		{[]string{"emulate", "--model", "cyberglove4"}, 2, []string{`model "cyberglove4"`, "cyberglove3"}},
		{[]string{"run", "-c", noPort, "--check"}, 2, []string{"hand[0].port", "a cyberglove3 needs its serial port"}},
		{[]string{"record", "--device", "cyberglove3", "--port", silent.Path, "--seconds", "1", "-o", out}, 1, []string{silent.Path, "?S: no reply", "needs its sensors (18 or 22) and side (right or left)"}},
		{[]string{"record", "--device", "cyberglove3", "--port", silent.Path, "--side", "middle", "--seconds", "1", "-o", out}, 2, []string{`--side middle: want right or left`}},
	} {
		r := runBinary(t, 20*time.Second, tc.args...)
		r.oneLine(t, tc.code, tc.says...)
	}
}

// TestCyberGlove3RecordsThroughTheEmulator: `gloved record --device
// cyberglove3` on `gloved emulate --model cyberglove3 --source` a
// recording gives samples that are the source's readings at 12 bits:
// within half an 8-bit count of one of them, in order.
func TestCyberGlove3RecordsThroughTheEmulator(t *testing.T) {
	dir := t.TempDir()
	src, link, got := filepath.Join(dir, "src.glove"), filepath.Join(dir, "glove"), filepath.Join(dir, "got.glove")
	if _, err := gloved(t, "record", "--device", "sim", "--motion", "tap", "--seconds", "0.4", "-o", src); err != nil {
		t.Fatal(err)
	}
	source := dumpLines(t, src)
	ctx, cancel := context.WithCancel(context.Background())
	var emuOut syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"emulate", "--model", "cyberglove3", "--source", src, "--link", link, "--garbage", "0.05", "--sensors", "22"}, &emuOut)
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("emulate: %v", err)
		}
	}()
	awaitLink(t, link, emuOut.String)
	out, err := gloved(t, "record", "--device", "cyberglove3", "--port", link, "--seconds", "0.6", "-o", got)
	if err != nil || !strings.Contains(out, "22-sensor right glove") {
		t.Fatalf("record: %v %q", err, out)
	}
	lines := dumpLines(t, got)
	if len(lines) < 30 {
		t.Fatalf("only %d samples recorded in 0.6 s at 90 Hz", len(lines))
	}
	for i, l := range lines {
		if !slices.ContainsFunc(source, func(src dumpLine) bool { return widens(src.Raw, l.Raw) }) {
			t.Fatalf("sample %d %v is no source reading at 12 bits", i, l.Raw)
		}
	}
}

// widens reports whether raw12 is raw8 read with 12 bits: each value
// within half a count of the 8-bit one (16*v - 8 .. 16*v + 7).
func widens(raw8, raw12 []uint16) bool {
	if len(raw8) != len(raw12) {
		return false
	}
	for i, v := range raw8 {
		if d := int(raw12[i]) - 16*int(v); d < -8 || d > 7 {
			return false
		}
	}
	return true
}

// TestOpenGlovesErrorsSayWhatToDo: what a user can get wrong about an
// OpenGloves glove ends with one line naming it.
func TestOpenGlovesErrorsSayWhatToDo(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "x.glove")
	noPort := filepath.Join(dir, "no-port.toml")
	os.WriteFile(noPort, []byte("[[hand]]\nname = \"right\"\ndevice = \"opengloves\"\n"), 0o644)
	badMax := filepath.Join(dir, "bad-max.toml")
	os.WriteFile(badMax, []byte("[[hand]]\nname = \"right\"\ndevice = \"opengloves\"\nport = \"/dev/ttyUSB0\"\n[hand.options]\nmax = 255\n"), 0o644)
	for _, tc := range []struct {
		args []string
		code int
		says []string
	}{
		{[]string{"record", "--device", "opengloves", "--port", "/dev/null", "--option", "max=1000", "--seconds", "1", "-o", out}, 2, []string{"options.max = 1000", "want 4095 (an ESP32) or 1023"}},
		{[]string{"record", "--device", "opengloves", "--port", "/dev/null", "--option", "maxx=1023", "--seconds", "1", "-o", out}, 2, []string{"unknown key maxx"}},
		{[]string{"record", "--device", "opengloves", "--rate", "50", "--port", "/dev/null", "--seconds", "1", "-o", out}, 2, []string{"streams at its firmware's rate"}},
		{[]string{"record", "--device", "opengloves", "--port", filepath.Join(dir, "ttyACM3"), "--seconds", "1", "-o", out}, 1, []string{"ttyACM3", "plugged in"}},
		{[]string{"run", "-c", noPort, "--check"}, 2, []string{"hand[0].port", "an opengloves glove needs its serial port"}},
		{[]string{"run", "-c", badMax, "--check"}, 2, []string{"options.max = 255"}},
		{[]string{"calibrate", "--device", "opengloves", "--sensors", "22", "-o", filepath.Join(dir, "c.toml")}, 2, []string{"--sensors 22", "want 41"}},
		{[]string{"calibrate", "--device", "opengloves", "--option", "max=1000", "-o", filepath.Join(dir, "c.toml")}, 2, []string{"options.max = 1000", "want 4095 (an ESP32) or 1023"}},
		{[]string{"emulate", "--model", "opengloves", "--calibration", "../../configs/calibration-22.toml"}, 1, []string{"calibration-22.toml", `glove = "cyberglove": this calibration is for another glove than this one (opengloves)`}},
		{[]string{"emulate", "--model", "opengloves", "--calibration", "../../configs/calibration-opengloves.toml", "--motion", "tap"}, 2, []string{"--calibration plays the calibration poses", "--motion only without it"}},
		{[]string{"emulate", "--model", "opengloves", "--max", "2047"}, 2, []string{"--max 2047", "want 4095 (an ESP32) or 1023"}},
		{[]string{"emulate", "--model", "opengloves", "--unplug-at", "1"}, 2, []string{"--unplug-at", "--hangup-at"}},
		{[]string{"emulate", "--model", "opengloves", "--source", out}, 2, []string{"--source", "simulated motions"}},
		{[]string{"emulate", "--model", "cyberglove3", "--controls"}, 2, []string{"--controls", "only for an emulated OpenGloves glove"}},
		{[]string{"emulate", "--splay"}, 2, []string{"--splay", "--model opengloves"}},
	} {
		r := runBinary(t, 20*time.Second, tc.args...)
		r.oneLine(t, tc.code, tc.says...)
	}
}
