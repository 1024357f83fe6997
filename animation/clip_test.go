package animation_test

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"

	"github.com/gloved/gloved/animation"
)

// channel is one channel of a hand-made animation of node 0.
type channel struct {
	path   gltf.TRSProperty
	interp gltf.Interpolation
	times  []float32
	values any // [][3]float32 or [][4]float32
}

// docOf encodes a document whose node 0 (rotated by rest) the channels
// animate, as another exporter might write it: binary, or JSON.
func docOf(t testing.TB, binary bool, rest [4]float64, chans ...channel) []byte {
	t.Helper()
	doc := gltf.NewDocument()
	doc.Nodes = []*gltf.Node{{Name: "n", Rotation: rest}}
	doc.Scenes[0].Nodes = []int{0}
	anim := &gltf.Animation{}
	for _, c := range chans {
		in := modeler.WriteAccessor(doc, gltf.TargetNone, c.times)
		doc.Accessors[in].Min, doc.Accessors[in].Max = []float64{float64(c.times[0])}, []float64{float64(c.times[len(c.times)-1])}
		out := modeler.WriteAccessor(doc, gltf.TargetNone, c.values)
		anim.Samplers = append(anim.Samplers, &gltf.AnimationSampler{Input: in, Output: out, Interpolation: c.interp})
		anim.Channels = append(anim.Channels, &gltf.AnimationChannel{Sampler: len(anim.Samplers) - 1, Target: gltf.AnimationChannelTarget{Node: gltf.Index(0), Path: c.path}})
	}
	doc.Animations = []*gltf.Animation{anim}
	var b bytes.Buffer
	enc := gltf.NewEncoder(&b)
	enc.AsBinary = binary
	if err := enc.Encode(doc); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// clipOf reads back the document docOf writes and returns its clip.
func clipOf(t *testing.T, rest [4]float64, chans ...channel) (*animation.Clip, error) {
	t.Helper()
	back := new(gltf.Document)
	if err := gltf.NewDecoder(bytes.NewReader(docOf(t, true, rest, chans...))).Decode(back); err != nil {
		t.Fatal(err)
	}
	return animation.ReadClip(back, 0)
}

// turnZ is the quaternion (x y z w) of a turn by deg degrees about Z.
func turnZ(deg float64) [4]float32 {
	h := deg * math.Pi / 360
	return [4]float32{0, 0, float32(math.Sin(h)), float32(math.Cos(h))}
}

// angle is the angle (radians) of the turn from rotation a to b.
func angle(a, b mgl64.Quat) float64 {
	return 2 * math.Acos(min(1, math.Abs(a.Normalize().Dot(b.Normalize()))))
}

// TestSampleFollowsAppendixC: LINEAR translation is interpolated
// linearly; a key's own time gives the key; outside the keys the nearest
// end holds (section 3.11); LINEAR rotation is slerp along the short arc
// even when the next key is stored in the other hemisphere; STEP holds a
// key until the next; a property no channel moves keeps the node's own.
func TestSampleFollowsAppendixC(t *testing.T) {
	back := turnZ(90)
	for i := range back {
		back[i] = -back[i] // the same rotation, the other hemisphere
	}
	clip, err := clipOf(t, [4]float64{0, 0, 0, 1},
		channel{gltf.TRSTranslation, gltf.InterpolationLinear, []float32{0, 1, 3}, [][3]float32{{0, 0, 0}, {2, 0, 0}, {2, 4, 0}}},
		channel{gltf.TRSRotation, gltf.InterpolationLinear, []float32{0, 1}, [][4]float32{turnZ(0), back}},
		channel{gltf.TRSScale, gltf.InterpolationStep, []float32{0, 1}, [][3]float32{{1, 1, 1}, {0, 0, 0}}},
	)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		at          float64
		translation mgl64.Vec3
		turn        float64 // degrees about Z
		scale       float64
	}{
		{-1, mgl64.Vec3{0, 0, 0}, 0, 1},
		{0, mgl64.Vec3{0, 0, 0}, 0, 1},
		{0.5, mgl64.Vec3{1, 0, 0}, 45, 1},
		{0.25, mgl64.Vec3{0.5, 0, 0}, 22.5, 1},
		{0.999, mgl64.Vec3{1.998, 0, 0}, 89.91, 1},
		{1, mgl64.Vec3{2, 0, 0}, 90, 0},
		{2, mgl64.Vec3{2, 2, 0}, 90, 0},
		{7, mgl64.Vec3{2, 4, 0}, 90, 0},
	}
	for _, tc := range tests {
		x := clip.Sample(0, tc.at)
		want := mgl64.QuatRotate(tc.turn*math.Pi/180, mgl64.Vec3{0, 0, 1})
		if x.Translation.Sub(tc.translation).Len() > 1e-6 || angle(x.Rotation, want) > 1e-6 || x.Scale != (mgl64.Vec3{tc.scale, tc.scale, tc.scale}) {
			t.Errorf("at %v s: got %v, want translation %v, %v° about Z, scale %v", tc.at, x, tc.translation, tc.turn, tc.scale)
		}
	}
}

// TestSampleKeepsTheNodesOwnTransform: a node that no channel moves, or a
// property no channel moves, is the node's own.
func TestSampleKeepsTheNodesOwnTransform(t *testing.T) {
	rest := turnZ(30)
	clip, err := clipOf(t, [4]float64{float64(rest[0]), float64(rest[1]), float64(rest[2]), float64(rest[3])},
		channel{gltf.TRSTranslation, gltf.InterpolationLinear, []float32{0, 1}, [][3]float32{{0, 0, 0}, {1, 0, 0}}})
	if err != nil {
		t.Fatal(err)
	}
	x := clip.Sample(0, 0.5)
	if want := mgl64.QuatRotate(math.Pi/6, mgl64.Vec3{0, 0, 1}); angle(x.Rotation, want) > 1e-6 || x.Scale != (mgl64.Vec3{1, 1, 1}) {
		t.Errorf("got %v: want the node's 30° about Z and scale 1", x)
	}
}

// TestReadClipRefusesWhatItCannotSample: a CUBICSPLINE sampler is an
// error, and so is a document that fails Validate.
func TestReadClipRefusesWhatItCannotSample(t *testing.T) {
	_, err := clipOf(t, [4]float64{0, 0, 0, 1}, channel{gltf.TRSTranslation, gltf.InterpolationCubicSpline, []float32{0, 1}, make([][3]float32, 6)})
	if err == nil || !strings.Contains(err.Error(), "CUBICSPLINE") {
		t.Errorf("CUBICSPLINE: error %v", err)
	}
	_, err = clipOf(t, [4]float64{0, 0, 0, 1}, channel{gltf.TRSTranslation, gltf.InterpolationLinear, []float32{0, 1, 1}, make([][3]float32, 3)})
	if err == nil || !strings.Contains(err.Error(), "strictly increasing") {
		t.Errorf("a repeated input time: error %v", err)
	}
}
