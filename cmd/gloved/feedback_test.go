package main

import (
	"context"
	"fmt"
	"math"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"syscall"
	"testing"
	"time"

	goosc "github.com/hypebeast/go-osc/osc"

	"github.com/gloved/gloved/daemon/daemontest"
	"github.com/gloved/gloved/handmodel"
)

// Tolerances of the force-feedback loop through the binaries.
const (
	// forceTol: a feedback force against 1 - the curl computed from the
	// same frame's joint angles on the wire (float32 angles).
	forceTol = 1e-3
	// firstServoTol: a hold's first servo value (/1000) against 1 - the
	// curl at the contact's frame. The line goes out at most rate_hz a
	// second, so it may carry the next frame's limit, which a finger that
	// closed on meanwhile moved: two frames of the grasp's closing.
	firstServoTol = 0.02
	// stopTol: a held finger's curl on the wire against the limit its
	// servo set: the glove's readings are whole counts of 4095, read back
	// through the calibration.
	stopTol = 0.005
)

// TestTheEmulatedServosStopTheFingersAtTheBallThroughTheBinaries:
// `gloved emulate --model opengloves --force-feedback --servo-log`
// plays the grasp on a pty; `gloved run` with device = "opengloves", the
// hand posed at the grasp scene's ball and [feedback] enabled reads it
// and sends OSC to this test. Every frame carries a feedback message,
// each force and pulse in 0..1; a finger's force at the frame its touch
// begins is 1 - its curl at that frame (computed here from the frame's
// joint angles) and a contact of one of its links is in that frame; the
// first servo line of each hold sets that limit; while a servo holds a
// finger, the curl the glove reports (the frame's joint angles) never
// exceeds the limit it set; the fingers that touch are held back by
// their servos (the emulator's exit summary), and the fingers that never
// touch are never set nor held; the daemon exiting frees every servo
// (the servo log's last line all 0).
func TestTheEmulatedServosStopTheFingersAtTheBallThroughTheBinaries(t *testing.T) {
	dir := t.TempDir()
	link, servoLog := filepath.Join(dir, "glove"), filepath.Join(dir, "servo.log")
	rx, got := daemontest.Listen(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	emu := exec.CommandContext(ctx, binary(t), "emulate", "--model", "opengloves", "--force-feedback", "--motion", "grasp",
		"--link", link, "--servo-log", servoLog)
	var emuOut, emuErr syncBuffer
	emu.Stdout, emu.Stderr = &emuOut, &emuErr
	if err := emu.Start(); err != nil {
		t.Fatal(err)
	}
	waited := false
	stopEmu := func() {
		if waited {
			return
		}
		waited = true
		emu.Process.Signal(syscall.SIGTERM)
		if err := emu.Wait(); err != nil {
			t.Errorf("emulate: %v\n%s", err, emuErr.String())
		}
	}
	defer stopEmu()
	awaitLink(t, link, emuErr.String)
	cfg := handConfig(t, dir, fmt.Sprintf("device = \"opengloves\"\nport = %q\nwrist_pose = [0.0, 0.91, 0.10, -0.70710678, 0.0, 0.0, 0.70710678]", link), rx.LocalAddr().String(), "[feedback]\nenabled = true\n")
	daemon := exec.CommandContext(ctx, binary(t), "run", "-c", cfg, "--for", "7s", "--status=false")
	var stderr syncBuffer
	daemon.Stderr = &stderr
	if err := daemon.Run(); err != nil {
		t.Fatalf("gloved run: %v\n%s", err, stderr.String())
	}
	stopEmu()

	servos, err := readServoLog(servoLog)
	if err != nil {
		t.Fatal(err)
	}
	summary := regexp.MustCompile(`servos: (\d+) lines set them; last values \[[0-9 ]+\]; lines held back per finger \[(\d+) (\d+) (\d+) (\d+) (\d+)\]`).FindStringSubmatch(emuOut.String())
	if summary == nil {
		t.Fatalf("the emulator's exit summary is missing: %q", emuOut.String())
	}
	if n, _ := strconv.Atoi(summary[1]); n != len(servos) {
		t.Errorf("the summary counts %d servo lines, the log %d", n, len(servos))
	}

	curls := handmodel.NewCurls(&handmodel.DefaultLimits)
	var held, touched [5]bool
	frames, s := 0, 0 // s: the servo lines read before the frame's sample
	for _, b := range got.All() {
		fb, q, ok := frameFeedback(t, b)
		if !ok {
			continue
		}
		frames++
		at := b.Timetag.Time() // the sample's bytes at the driver
		for s < len(servos) && servos[s].At.Before(at) {
			s++
		}
		for f := range 5 {
			curl := curls.Curl(f, q[:])
			switch {
			case fb[f] > 0 && !held[f]: // a touch's first frame
				touched[f] = true
				if math.Abs(float64(fb[f])-(1-curl)) > forceTol {
					t.Errorf("finger %d: force %v at its first contact, its curl on the wire %.4f", f, fb[f], curl)
				}
				if !fingerContact(b, f) {
					t.Errorf("finger %d held at a frame without a contact of its links", f)
				}
				first := firstServo(servos[s:], f)
				if first < 0 || math.Abs(float64(first)/1000-(1-curl)) > firstServoTol {
					t.Errorf("finger %d touched at curl %.4f; the first servo line after set %d (want %.0f ± %.0f)", f, curl, first, 1000*(1-curl), 1000*firstServoTol)
				}
			}
			held[f] = fb[f] > 0
			if s > 0 && servos[s-1].V[f] > 0 {
				if limit := 1 - float64(servos[s-1].V[f])/1000; curl > limit+stopTol {
					t.Errorf("finger %d at curl %.4f while its servo held it at %.4f", f, curl, limit)
				}
			}
		}
	}
	if frames < 400 {
		t.Fatalf("%d frames with feedback\n%s", frames, stderr.String())
	}
	for f := range 5 {
		stopped, _ := strconv.Atoi(summary[2+f])
		set := false
		for _, l := range servos {
			set = set || l.V[f] > 0
		}
		if touched[f] != set || touched[f] != (stopped > 0) {
			t.Errorf("finger %d: touched %v, its servo set %v, held back %d lines", f, touched[f], set, stopped)
		}
	}
	if !touched[1] || !touched[2] {
		t.Errorf("the grasp's index and middle never touched the ball: touched %v", touched)
	}
	if len(servos) == 0 || servos[len(servos)-1].V != [5]int{} {
		t.Errorf("the daemon exited leaving the servos set (lines %v), want every one freed", servos[max(len(servos)-1, 0):])
	}
	t.Logf("%d frames, %d servo lines, fingers touched %v, held back %v lines", frames, len(servos), touched, summary[2:])
}

// firstServo returns finger f's first nonzero value in lines, -1 if none.
func firstServo(lines []servoRead, f int) int {
	for _, l := range lines {
		if l.V[f] > 0 {
			return l.V[f]
		}
	}
	return -1
}

// frameFeedback returns the right hand's feedback forces and joint
// angles in a frame bundle, failing on a feedback message out of range.
func frameFeedback(t *testing.T, b *goosc.Bundle) (force [5]float32, q handmodel.Angles, ok bool) {
	t.Helper()
	var hasFB, hasJoints bool
	for _, m := range b.Messages {
		switch m.Address {
		case "/gloved/right/feedback":
			if len(m.Arguments) != 6 {
				t.Fatalf("feedback %v", m.Arguments)
			}
			for k, a := range m.Arguments {
				v, isF := a.(float32)
				if !isF || !(v >= 0 && v <= 1) {
					t.Fatalf("feedback %v: argument %d not in 0..1", m.Arguments, k)
				}
				if k < 5 {
					force[k] = v
				}
			}
			hasFB = true
		case "/gloved/right/joints":
			for j, a := range m.Arguments {
				if v, isF := a.(float32); isF && j < len(q) {
					q[j] = float64(v)
				}
			}
			hasJoints = true
		}
	}
	if hasJoints && !hasFB {
		t.Fatal("a frame without its feedback message")
	}
	return force, q, hasFB && hasJoints
}

// fingerContact reports whether bundle b holds a contact of one of
// finger f's links (thumb 0 to little 4).
func fingerContact(b *goosc.Bundle, f int) bool {
	for _, m := range b.Messages {
		if m.Address != "/gloved/right/contact" || len(m.Arguments) == 0 {
			continue
		}
		name, _ := m.Arguments[0].(string)
		for l := handmodel.ThumbMetacarpal; l <= handmodel.LittleDistal; l++ {
			if l.String() == name && int(l-handmodel.ThumbMetacarpal)/3 == f {
				return true
			}
		}
	}
	return false
}

// TestAServoLogWithoutServosIsAUsageError: --servo-log asks for an
// OpenGloves glove with --force-feedback, and says so in one line.
func TestAServoLogWithoutServosIsAUsageError(t *testing.T) {
	log := filepath.Join(t.TempDir(), "servo.log")
	runBinary(t, 10*time.Second, "emulate", "--model", "opengloves", "--servo-log", log).oneLine(t, 2, "--servo-log", "--force-feedback")
	runBinary(t, 10*time.Second, "emulate", "--servo-log", log).oneLine(t, 2, "--servo-log", "--model opengloves")
}
