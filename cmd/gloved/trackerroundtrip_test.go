package main

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	goosc "github.com/hypebeast/go-osc/osc"

	"github.com/gloved/gloved/daemon/daemontest"
	"github.com/gloved/gloved/handmodel"
)

// demoWrist is configs/demo.toml's right hand's wrist pose: the hand
// palm down over the grasp scene's ball.
const demoWrist = "wrist_pose = [0.0, 0.91, 0.10, -0.70710678, 0.0, 0.0, 0.70710678]\n"

// wireFrame is one frame of a hand as a test socket received it: its
// timetag, joint angles and the (link, object) pairs of its contacts.
type wireFrame struct {
	at       time.Time
	joints   []float32
	contacts []string
}

// wireFrames returns the frames of the right hand in bundles, those
// that carry its joints.
func wireFrames(bundles []*goosc.Bundle) []wireFrame {
	var out []wireFrame
	for _, b := range bundles {
		f := wireFrame{at: b.Timetag.Time()}
		for _, m := range b.Messages {
			switch m.Address {
			case "/gloved/right/joints":
				for _, a := range m.Arguments {
					f.joints = append(f.joints, a.(float32))
				}
			case "/gloved/right/contact":
				f.contacts = append(f.contacts, fmt.Sprint(m.Arguments[0], "/", m.Arguments[1]))
			}
		}
		if f.joints != nil {
			slices.Sort(f.contacts)
			out = append(out, f)
		}
	}
	return out
}

// jointError is the largest difference between a's and b's joint
// angles from first on (+Inf unless both hold every joint).
func jointError(a, b []float32, first handmodel.Joint) float64 {
	if len(a) != int(handmodel.NumJoints) || len(b) != int(handmodel.NumJoints) {
		return math.Inf(1)
	}
	e := 0.0
	for j := first; j < handmodel.NumJoints; j++ {
		e = max(e, math.Abs(float64(a[j])-float64(b[j])))
	}
	return e
}

// TestAGlovedsVMCOutputDrivesAnotherGlovedsHandAndItsContactsThroughTheBinaries:
// two daemons on real UDP. gloved A runs the demo's simulated grasp of
// the ball (the demo's scene and wrist pose) with a vmc output profile
// sending to gloved B, whose hand is device = "vmc" at the same wrist
// pose in the same scene. Each frame B sends matches a frame A sent in
// the 200 ms before it, every joint angle but the wrist's within the
// documented round-trip tolerance (1e-4 rad), and B's hand touches the
// ball in at least half the frames A's does.
func TestAGlovedsVMCOutputDrivesAnotherGlovedsHandAndItsContactsThroughTheBinaries(t *testing.T) {
	t.Parallel()
	glovedToGloved(t, "vmc", "vmc", "")
}

// TestAGlovedsOpenXROutputDrivesAnotherGlovedsHandAndItsContactsThroughTheBinaries:
// the same two daemons, A's openxr profile (in Unity's coordinates) into
// B's hand of device = "osc" reading them in Unity's coordinates.
func TestAGlovedsOpenXROutputDrivesAnotherGlovedsHandAndItsContactsThroughTheBinaries(t *testing.T) {
	t.Parallel()
	glovedToGloved(t, "openxr", "osc", "coords = \"unity\"\n")
}

// glovedToGloved runs gloved B, its right hand of device listening with
// the options lines given, and gloved A, the demo's grasp, sending its
// output profile (with the same options lines) to B, and checks B's
// frames against A's.
func glovedToGloved(t *testing.T, profile, device, options string) {
	listenB := freeUDP(t)
	gotB := runTrackerHand(t, device, listenB, "hold_ms = 500\n"+options, func(cfg string) {
		b, err := os.ReadFile(cfg)
		if err != nil {
			t.Fatal(err)
		}
		key := fmt.Sprintf("device = %q\n", device)
		text := strings.Replace(string(b), key, key+demoWrist, 1)
		if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	})

	sockA, gotA := daemontest.Listen(t)
	cfgA := rightHandConfig(t, "device = \"sim\"\nmotion = \"grasp\"\n"+demoWrist, freeUDP(t), sockA.LocalAddr().String())
	f, err := os.OpenFile(cfgA, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fmt.Fprintf(f, "[[osc.profile]]\nname = %q\ntargets = [%q]\n%s", profile, listenB, options); err != nil {
		t.Fatal(err)
	}
	f.Close()
	a := startGloved(t, "gloved A", "run", "-c", cfgA, "--view", "off")

	// Two grasps of the ball, once B's hand streams.
	waitFor(t, gotB, "B streaming", func(b []*goosc.Bundle) bool {
		return strings.HasSuffix(strings.Join(daemontest.Statuses(b, "right"), " "), "no-glove streaming")
	})
	start := time.Now()
	time.Sleep(7 * time.Second)
	a.cmd.Process.Signal(os.Interrupt)
	a.exit(t)

	framesA := wireFrames(gotA.All())
	var errs, wristErrs []float64
	var both, onlyA, onlyB int
	for _, fb := range wireFrames(gotB.All()) {
		if fb.at.Before(start) {
			continue // B's open hand before A's first pose
		}
		best, bestAt := math.Inf(1), -1
		for i, fa := range framesA {
			if fa.at.After(fb.at.Add(20*time.Millisecond)) || fa.at.Before(fb.at.Add(-200*time.Millisecond)) {
				continue
			}
			if e := jointError(fa.joints, fb.joints, handmodel.PalmArch); e < best {
				best, bestAt = e, i
			}
		}
		if bestAt < 0 {
			continue // A stopped: B holds its last pose
		}
		errs = append(errs, best)
		wristErrs = append(wristErrs, jointError(framesA[bestAt].joints, fb.joints, 0))
		if best > roundTripTolerance {
			t.Errorf("B's frame at %v: joints %v, nearest of A's in 200 ms %v off", fb.at, fb.joints, best)
		}
		ballA, ballB := touchesBall(framesA[bestAt].contacts), touchesBall(fb.contacts)
		switch {
		case ballA && ballB:
			both++
		case ballA:
			onlyA++
		case ballB:
			onlyB++
		}
	}
	if len(errs) < 100 {
		t.Fatalf("%d of B's frames matched", len(errs))
	}
	slices.Sort(errs)
	slices.Sort(wristErrs)
	t.Logf("%d frames of B: joint error (wrist excluded) median %.3g, max %.3g rad; with the wrist median %.3g, max %.3g; both touching the ball in %d, A alone in %d, B alone in %d",
		len(errs), errs[len(errs)/2], errs[len(errs)-1], wristErrs[len(wristErrs)/2], wristErrs[len(wristErrs)-1], both, onlyA, onlyB)
	if both == 0 || both < onlyA {
		t.Fatalf("B's hand touched the ball in %d of the %d frames A's did", both, both+onlyA)
	}
}

// touchesBall says whether contacts, link/object pairs, hold one with
// the grasp scene's ball.
func touchesBall(contacts []string) bool {
	return slices.ContainsFunc(contacts, func(c string) bool { return strings.HasSuffix(c, "/ball") })
}
