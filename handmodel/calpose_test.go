package handmodel

import (
	"math"
	"strings"
	"testing"

	"github.com/gloved/gloved/devices/cyberglove/layout"
)

// TestCalPosesAreHandsWithinTheirLimits: every calibration pose, as an 18-
// or a 22-sensor glove shows it, puts every joint inside DefaultLimits
// (unclamped), and says what to do and why.
func TestCalPosesAreHandsWithinTheirLimits(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range CalPoses {
		if seen[p.Name] || p.Do == "" || p.Why == "" || strings.ContainsAny(p.Name, " \t") {
			t.Errorf("pose %q: want a unique one-word name, an instruction and a reason", p.Name)
		}
		seen[p.Name] = true
		for _, n := range []int{18, 22} {
			q, _ := p.Joints(n)
			for j, v := range q {
				if lim := DefaultLimits[j]; v < lim.Min-1e-12 || v > lim.Max+1e-12 {
					t.Errorf("%s (%d sensors): %v = %.1f degrees, outside %.0f..%.0f", p.Name, n, Joint(j), v*180/math.Pi, lim.Min*180/math.Pi, lim.Max*180/math.Pi)
				}
			}
		}
	}
}

// TestEverySensorIsPinnedForAnOffsetAndAGain: with the whole pose set each
// sensor is held at 0 at least twice (its offset) and at angles at least
// 15 degrees apart (its gain), so no sensor of a working glove falls back.
func TestEverySensorIsPinnedForAnOffsetAndAGain(t *testing.T) {
	for k := range layout.Slots {
		zeros, lo, hi := 0, math.Inf(1), math.Inf(-1)
		for i := range CalPoses {
			p := &CalPoses[i]
			if !p.Pinned(k) {
				continue
			}
			a := p.Angle[k]
			if a == 0 {
				zeros++
			}
			lo, hi = min(lo, a), max(hi, a)
		}
		if zeros < 2 || hi-lo < deg(15) {
			t.Errorf("%s: pinned at 0 by %d poses and over %.0f degrees: want 2 and 15", layout.Names[k], zeros, (hi-lo)*180/math.Pi)
		}
	}
}

func TestCalPoseJointsSayWhatIsPinned(t *testing.T) {
	fist, err := FindCalPose("fist")
	if err != nil {
		t.Fatal(err)
	}
	q, pinned := fist.Joints(18)
	if want := 2.0 / 3 * deg(100); math.Abs(q[IndexDIP]-want) > 1e-12 || !pinned[IndexDIP] {
		t.Errorf("18-sensor fist: index DIP %v (pinned %v), want 2/3 of PIP %v, pinned", q[IndexDIP], pinned[IndexDIP], want)
	}
	if pinned[ThumbMCP] || pinned[PalmArch] || !pinned[MiddleAbduction] || !pinned[WristPitch] {
		t.Errorf("fist pins thumb %v, arch %v, middle abduction %v, wrist %v: want false false true true",
			pinned[ThumbMCP], pinned[PalmArch], pinned[MiddleAbduction], pinned[WristPitch])
	}
	spread, _ := FindCalPose("spread")
	q, pinned = spread.Joints(22)
	if want := -deg(30); math.Abs(q[LittleAbduction]-want) > 1e-12 || !pinned[LittleAbduction] {
		t.Errorf("spread: little abduction %v, want %v (ring-middle plus little-ring, ulnar)", q[LittleAbduction], want)
	}
	if _, err := FindCalPose("wave"); err == nil || !strings.Contains(err.Error(), "flat, fist, spread") {
		t.Errorf("unknown pose: %v", err)
	}
}
