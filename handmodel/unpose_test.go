package handmodel

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
)

// TestUnposeRecoversTheAnglesThatPosedTheLinks: for random poses over
// the limits, of the procedural hand of either side and the skinned
// WebXR hand, the links' rotations (each in its parent's frame) unposed
// from the flat hand give back every joint angle within 1e-6 rad, the
// links missed by under 1e-8 rad; and warm-started from the previous
// pose, as a stream is, the same.
func TestUnposeRecoversTheAnglesThatPosedTheLinks(t *testing.T) {
	hands := map[string]Params{
		"procedural right": DefaultParams,
		"procedural left":  {Length: 0.17, Breadth: 0.08},
		"skinned right":    {Right: true, Mesh: filepath.Join("testdata", "webxr-generic-hand", "right.glb")},
	}
	for name, p := range hands {
		t.Run(name, func(t *testing.T) {
			h, err := New(p)
			if err != nil {
				t.Fatal(err)
			}
			u := NewUnposer(h)
			rng := rand.New(rand.NewPCG(1, 2))
			links := make([]geom.Transform, h.NumLinks())
			var rel [MaxLinks]mgl64.Mat3
			var have [MaxLinks]bool
			for l := range FingerLinks {
				have[l] = true
			}
			var warm Angles
			for i := range 200 {
				want := randomAngles(rng, h)
				h.Pose(&want, geom.Identity(), links)
				h.Relative(links, &rel)
				got := Angles{}
				if i%2 == 1 {
					got = warm
				}
				miss := u.Unpose(&rel, &have, &got)
				for j := range got {
					if math.Abs(got[j]-want[j]) > 1e-6 {
						t.Fatalf("pose %d: %s = %v, posed at %v", i, Joint(j), got[j], want[j])
					}
				}
				if miss > 1e-8 {
					t.Fatalf("pose %d: the links missed by %v rad", i, miss)
				}
				warm = want
			}
		})
	}
}

// TestUnposeLeavesUnmeasuredJointsAndAllocatesNothing: with only the
// fingers' links measured (no palm: a tracker that leaves the wrist to
// the wrist pose), the wrist's joints keep the value they came in with,
// and Unpose allocates nothing.
func TestUnposeLeavesUnmeasuredJointsAndAllocatesNothing(t *testing.T) {
	h, err := New(DefaultParams)
	if err != nil {
		t.Fatal(err)
	}
	u := NewUnposer(h)
	want := Angles{IndexMCP: 0.8, ThumbRoll: 0.4, PalmArch: 0.2, WristPitch: 0.5}
	links := make([]geom.Transform, h.NumLinks())
	h.Pose(&want, geom.Identity(), links)
	var rel [MaxLinks]mgl64.Mat3
	var have [MaxLinks]bool
	h.Relative(links, &rel)
	for l := ThumbMetacarpal; l < FingerLinks; l++ {
		have[l] = true
	}
	q := Angles{WristPitch: -0.3}
	u.Unpose(&rel, &have, &q)
	if q[WristPitch] != -0.3 || math.Abs(q[IndexMCP]-0.8) > 1e-6 || math.Abs(q[PalmArch]-0.2) > 1e-6 {
		t.Fatalf("unposed %v", q)
	}
	if n := testing.AllocsPerRun(20, func() { u.Unpose(&rel, &have, &q) }); n != 0 {
		t.Fatalf("Unpose allocates %v times", n)
	}
}

// BenchmarkUnposeStream is a tracker's per-frame cost of the inverse
// fit: every finger link measured, each frame a step of a smooth motion
// (under 0.01 rad a joint) warm-started from the previous frame's angles,
// as devices/tracker feeds it.
func BenchmarkUnposeStream(b *testing.B) {
	h := mustHand(b, DefaultParams)
	u := NewUnposer(h)
	rng := rand.New(rand.NewPCG(9, 10))
	const frames = 256
	var rel [frames][MaxLinks]mgl64.Mat3
	var have [MaxLinks]bool
	for l := range FingerLinks {
		have[l] = true
	}
	links := make([]geom.Transform, h.NumLinks())
	from, to := randomAngles(rng, h), randomAngles(rng, h)
	for i := range frames {
		var q Angles
		for j := range q {
			q[j] = from[j] + (to[j]-from[j])*float64(i)/frames
		}
		h.Pose(&q, geom.Identity(), links)
		h.Relative(links, &rel[i])
	}
	var q Angles
	u.Unpose(&rel[0], &have, &q)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		// Back and forth along the motion: no frame jumps.
		i++
		k := i % (2*frames - 2)
		if k >= frames {
			k = 2*frames - 2 - k
		}
		u.Unpose(&rel[k], &have, &q)
	}
}

// BenchmarkUnposeCold is the fit from the flat hand to a random pose: a
// stream's first frame, or one after a jump.
func BenchmarkUnposeCold(b *testing.B) {
	h := mustHand(b, DefaultParams)
	u := NewUnposer(h)
	rng := rand.New(rand.NewPCG(11, 12))
	var rel [MaxLinks]mgl64.Mat3
	var have [MaxLinks]bool
	for l := range FingerLinks {
		have[l] = true
	}
	links := make([]geom.Transform, h.NumLinks())
	want := randomAngles(rng, h)
	h.Pose(&want, geom.Identity(), links)
	h.Relative(links, &rel)
	b.ReportAllocs()
	for b.Loop() {
		var q Angles
		u.Unpose(&rel, &have, &q)
	}
}

// allMeasured is every finger link measured, as a tracker sends them.
func allMeasured() *[MaxLinks]bool {
	var have [MaxLinks]bool
	for l := range FingerLinks {
		have[l] = true
	}
	return &have
}

// TestUnposeComesBackFromAGuessOffByTurns: warm-started from a guess a
// whole turn and 0.3 rad off at every joint, or 10 rad off, or not
// finite (a stream's previous frame gone bad), Unpose gives back the
// posed angles within 1e-6 rad: the steps are bounded and the angles
// wrapped and kept within the limits.
func TestUnposeComesBackFromAGuessOffByTurns(t *testing.T) {
	h := mustHand(t, DefaultParams)
	u := NewUnposer(h)
	rng := rand.New(rand.NewPCG(13, 14))
	links := make([]geom.Transform, h.NumLinks())
	var rel [MaxLinks]mgl64.Mat3
	for i := range 50 {
		want := randomAngles(rng, h)
		h.Pose(&want, geom.Identity(), links)
		h.Relative(links, &rel)
		for _, off := range []float64{2*math.Pi + 0.3, -2*math.Pi - 0.3, 10, -10, math.NaN(), math.Inf(1)} {
			q := want
			for j := range q {
				q[j] += off
			}
			miss := u.Unpose(&rel, allMeasured(), &q)
			for j := range q {
				if !(math.Abs(q[j]-want[j]) <= 1e-6) {
					t.Fatalf("pose %d, guess off by %v: %s = %v, posed at %v", i, off, Joint(j), q[j], want[j])
				}
			}
			if !(miss <= 1e-8) {
				t.Fatalf("pose %d, guess off by %v: the links missed by %v rad", i, off, miss)
			}
		}
	}
}

// TestABadFrameNearTheBranchCutDoesNotSpoilTheNext: links turned almost
// half a turn (π - 0.01, where the rotation error's vector flips) about
// any axis, beyond the hand's reach, unpose to finite angles within the
// limits and a finite miss; the next frame, a pose of the hand,
// warm-started from them, gives back its angles within 1e-6 rad.
func TestABadFrameNearTheBranchCutDoesNotSpoilTheNext(t *testing.T) {
	h := mustHand(t, DefaultParams)
	u := NewUnposer(h)
	rng := rand.New(rand.NewPCG(15, 16))
	links := make([]geom.Transform, h.NumLinks())
	var bad, good [MaxLinks]mgl64.Mat3
	for i := range 50 {
		for l := range FingerLinks {
			axis := mgl64.Vec3{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}.Normalize()
			bad[l] = mgl64.QuatRotate(math.Pi-0.01, axis).Mat4().Mat3()
		}
		var q Angles
		miss := u.Unpose(&bad, allMeasured(), &q)
		for j := range q {
			if l := h.Limits[j]; !(q[j] >= l.Min && q[j] <= l.Max) {
				t.Fatalf("frame %d: %s = %v, beyond its limits %v", i, Joint(j), q[j], l)
			}
		}
		if !(miss >= 0 && miss <= math.Pi) {
			t.Fatalf("frame %d: a miss of %v", i, miss)
		}
		want := randomAngles(rng, h)
		h.Pose(&want, geom.Identity(), links)
		h.Relative(links, &good)
		u.Unpose(&good, allMeasured(), &q)
		for j := range q {
			if !(math.Abs(q[j]-want[j]) <= 1e-6) {
				t.Fatalf("frame %d, after the bad one: %s = %v, posed at %v", i, Joint(j), q[j], want[j])
			}
		}
	}
}

// TestUnposeOfBonesThatAreNotFiniteLeavesTheAnglesAsTheyWere: links
// whose rotations hold a NaN or an infinity leave the guess (within the
// limits) as it came, and the miss is π, not NaN.
func TestUnposeOfBonesThatAreNotFiniteLeavesTheAnglesAsTheyWere(t *testing.T) {
	h := mustHand(t, DefaultParams)
	u := NewUnposer(h)
	want := randomAngles(rand.New(rand.NewPCG(17, 18)), h)
	links := make([]geom.Transform, h.NumLinks())
	h.Pose(&want, geom.Identity(), links)
	for _, v := range []float64{math.NaN(), math.Inf(-1)} {
		var rel [MaxLinks]mgl64.Mat3
		h.Relative(links, &rel)
		rel[IndexMiddle][4] = v
		q := want
		miss := u.Unpose(&rel, allMeasured(), &q)
		if q != want {
			t.Fatalf("a bone of %v moved the angles to %v", v, q)
		}
		if miss != math.Pi {
			t.Fatalf("a bone of %v missed by %v, want π", v, miss)
		}
	}
}
