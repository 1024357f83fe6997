package geom

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// TestHemisphere: q is kept when its dot product with the reference is
// positive or exactly 0 (180 degrees apart: neither sign is nearer), and
// negated when it is negative.
func TestHemisphere(t *testing.T) {
	x := mgl64.QuatRotate(math.Pi, mgl64.Vec3{1, 0, 0}) // (0, 1, 0, 0) up to rounding: W is 6e-17
	tests := []struct {
		name   string
		q, ref mgl64.Quat
		want   mgl64.Quat
	}{
		{"same", mgl64.QuatIdent(), mgl64.QuatIdent(), mgl64.QuatIdent()},
		{"opposite", mgl64.Quat{W: -1}, mgl64.QuatIdent(), mgl64.QuatIdent()},
		{"near, negative", mgl64.Quat{W: -0.6, V: mgl64.Vec3{0.8, 0, 0}}, mgl64.Quat{W: 0.5, V: mgl64.Vec3{-0.5, 0.5, 0.5}}, mgl64.Quat{W: 0.6, V: mgl64.Vec3{-0.8, 0, 0}}},
		{"180 degrees apart, dot 0", mgl64.Quat{V: mgl64.Vec3{1, 0, 0}}, mgl64.QuatIdent(), mgl64.Quat{V: mgl64.Vec3{1, 0, 0}}},
		{"180 degrees apart, negative x", mgl64.Quat{V: mgl64.Vec3{-1, 0, 0}}, mgl64.QuatIdent(), mgl64.Quat{V: mgl64.Vec3{-1, 0, 0}}},
		{"half turn about x from the identity", x, mgl64.QuatIdent(), x},
	}
	for _, tc := range tests {
		if got := Hemisphere(tc.q, tc.ref); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestQuatTrack: over a random walk of rotations whose quaternions come
// with random signs, the track's output never has a negative dot product
// between consecutive frames, is always ±the input (the same rotation),
// starts with W >= 0, and starts again so after Reset.
func TestQuatTrack(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 3))
	var track QuatTrack
	rot := mgl64.QuatIdent()
	var prev mgl64.Quat
	flips := 0
	for i := range 2000 {
		if i == 1000 {
			track.Reset()
		}
		step := mgl64.QuatRotate(0.3*r.Float64(), mgl64.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize())
		rot = step.Mul(rot).Normalize()
		in := rot
		if r.IntN(2) == 0 {
			in = in.Scale(-1)
		}
		got := track.Next(in)
		if got != in && got != in.Scale(-1) {
			t.Fatalf("frame %d: %v for %v: not the same rotation", i, got, in)
		}
		if (i == 0 || i == 1000) && got.W < 0 {
			t.Fatalf("frame %d begins a stream with W = %v", i, got.W)
		}
		if i > 0 && i != 1000 && got.Dot(prev) < 0 {
			t.Fatalf("frame %d: dot %v with the previous", i, got.Dot(prev))
		}
		if i > 0 && in.Dot(prev) < 0 {
			flips++
		}
		prev = got
	}
	if flips < 500 {
		t.Fatalf("only %d of the inputs were in the wrong hemisphere: the test proves little", flips)
	}
}

// TestQuatTrackFirstFrame: the zero value and a reset track take their
// first quaternion with W >= 0; at W == 0 it is kept as it is.
func TestQuatTrackFirstFrame(t *testing.T) {
	tests := []struct {
		in, want mgl64.Quat
	}{
		{mgl64.Quat{W: -0.6, V: mgl64.Vec3{0, 0.8, 0}}, mgl64.Quat{W: 0.6, V: mgl64.Vec3{0, -0.8, 0}}},
		{mgl64.Quat{W: 0.6, V: mgl64.Vec3{0, 0.8, 0}}, mgl64.Quat{W: 0.6, V: mgl64.Vec3{0, 0.8, 0}}},
		{mgl64.Quat{V: mgl64.Vec3{0, 0, -1}}, mgl64.Quat{V: mgl64.Vec3{0, 0, -1}}},
	}
	for _, tc := range tests {
		var fresh QuatTrack
		if got := fresh.Next(tc.in); got != tc.want {
			t.Errorf("first of a stream %v: got %v, want %v", tc.in, got, tc.want)
		}
		var reset QuatTrack
		reset.Next(mgl64.Quat{W: -1}) // the identity's other sign, kept as +1
		reset.Next(tc.in.Scale(-1))
		reset.Reset()
		if got := reset.Next(tc.in); got != tc.want {
			t.Errorf("first after a reset %v: got %v, want %v", tc.in, got, tc.want)
		}
	}
}

// TestQuatTrackPassesOverNonFinite: a quaternion holding a NaN or an
// infinity comes out as it went in, up to sign (the OSC writer drops it),
// and the next finite one follows the last finite one.
func TestQuatTrackPassesOverNonFinite(t *testing.T) {
	a := mgl64.Quat{W: 0.6, V: mgl64.Vec3{0.8, 0, 0}}
	for _, bad := range []mgl64.Quat{{W: math.NaN()}, {W: 0.6, V: mgl64.Vec3{math.Inf(1), 0, 0}}, {W: 0.6, V: mgl64.Vec3{0, math.Inf(-1), math.Inf(1)}}} {
		var track QuatTrack
		track.Next(a)
		if got := track.Next(bad); Finite(got.W) && Finite3(got.V) {
			t.Fatalf("%v came out as %v", bad, got)
		}
		if got := track.Next(a.Scale(-1)); got != a {
			t.Fatalf("after %v: got %v, want %v (the last finite one's hemisphere)", bad, got, a)
		}
	}
}

// Two orientations a few degrees apart whose quaternions came out with
// opposite signs (as a matrix-to-quaternion conversion may give them): the
// track keeps the second on the first one's side.
func ExampleQuatTrack() {
	var track QuatTrack
	a := mgl64.QuatRotate(mgl64.DegToRad(179), mgl64.Vec3{0, 1, 0})
	b := mgl64.QuatRotate(mgl64.DegToRad(183), mgl64.Vec3{0, 1, 0}).Scale(-1)
	fmt.Printf("dot before: %.3f\n", a.Dot(b))
	qa, qb := track.Next(a), track.Next(b)
	fmt.Printf("dot on the wire: %.3f\n", qa.Dot(qb))
	// Output:
	// dot before: -0.999
	// dot on the wire: 0.999
}

// BenchmarkQuatTrack: one link's quaternion a frame, half of them in the
// other hemisphere.
func BenchmarkQuatTrack(b *testing.B) {
	qs := [2]mgl64.Quat{mgl64.QuatRotate(0.3, mgl64.Vec3{0, 1, 0}), mgl64.QuatRotate(0.31, mgl64.Vec3{0, 1, 0}).Scale(-1)}
	var track QuatTrack
	var sink mgl64.Quat
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		sink = track.Next(qs[i&1])
		i++
	}
	_ = sink
}
