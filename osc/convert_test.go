package osc

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
)

// TestConvertFrameCarriesEverySpatialValue: in each preset, a frame with
// one of every entry has its points, normals, link poses and lengths
// carried (and carried back by the inverse), its angles, names, numbers
// and events untouched, and encodes to the same messages with the same
// type tags; once grown it allocates nothing.
func TestConvertFrameCarriesEverySpatialValue(t *testing.T) {
	f := fullFrame()
	for i := range f.Links {
		f.Links[i].Q = mgl64.QuatRotate(0.3*float64(i), mgl64.Vec3{1, 2, 3}.Normalize())
	}
	f.Near = append(f.Near, Near{Link: "index1", Object: "ball", Distance: 0.004, Point: mgl64.Vec3{0.1, 0.2, 0.3}})
	f.Touches = []Touch{{Link: "index3", Object: "ball", Begin: true}}
	for i := range f.Joints {
		f.Joints[i] = 0.01 * float64(i)
	}
	near := func(a, b mgl64.Vec3) bool { return a.Sub(b).Len() < 1e-12 }
	for _, c := range geom.Conventions {
		var got, back Frame
		ConvertFrame(&got, f, c)
		ConvertFrame(&back, &got, c.Inverse())
		s := c.Scale()
		for i, p := range f.Links {
			if !near(got.Links[i].P, c.Point(p.P)) || got.Links[i].Q != c.Quat(p.Q) || !near(back.Links[i].P, p.P) || !back.Links[i].Q.ApproxEqualThreshold(p.Q, 1e-12) {
				t.Fatalf("%s: link %d: %v became %v and came back as %v", c.Name(), i, p, got.Links[i], back.Links[i])
			}
		}
		if x, y := f.Contacts[0], got.Contacts[0]; !near(y.Point, c.Point(x.Point)) || !near(y.Normal, c.Direction(x.Normal)) || y.Depth != s*x.Depth || y.Link != x.Link || y.Object != x.Object {
			t.Errorf("%s: contact %v became %v", c.Name(), x, y)
		}
		if x, y := f.Near[0], got.Near[0]; !near(y.Point, c.Point(x.Point)) || y.Distance != s*x.Distance {
			t.Errorf("%s: near %v became %v", c.Name(), x, y)
		}
		if x, y := f.Self[0], got.Self[0]; !near(y.Point, c.Point(x.Point)) || y.Depth != s*x.Depth || y.A != x.A || y.B != x.B {
			t.Errorf("%s: self %v became %v", c.Name(), x, y)
		}
		if x, y := f.Hands[0], got.Hands[0]; !near(y.Point, c.Point(x.Point)) || !near(y.Normal, c.Direction(x.Normal)) || y.Depth != s*x.Depth {
			t.Errorf("%s: hand contact %v became %v", c.Name(), x, y)
		}
		if got.HandNear[0].Distance != s*f.HandNear[0].Distance || got.Pinches[0].Distance != s*f.Pinches[0].Distance || got.Fists[0].Distance != s*f.Fists[0].Distance {
			t.Errorf("%s: distances %v %v %v", c.Name(), got.HandNear, got.Pinches, got.Fists)
		}
		if got.Pinches[0].Begin != f.Pinches[0].Begin || got.Fists[0].Begin != f.Fists[0].Begin || got.Touches[0] != f.Touches[0] || got.LOD[0] != f.LOD[0] ||
			got.Seq != f.Seq || got.Sample != f.Sample || got.Status != f.Status || got.Rate != f.Rate || got.Controls != f.Controls || math.Abs(got.Joints[5]-f.Joints[5]) != 0 {
			t.Errorf("%s: events, numbers or angles changed", c.Name())
		}
		var w0, w1 Writer
		w0.Begin(1)
		AppendFrame(&w0, HandAddresses("/gloved", "right"), f)
		w1.Begin(1)
		AppendFrame(&w1, HandAddresses("/gloved", "right"), &got)
		a, b := decodeAll(t, w0.Packets()), decodeAll(t, w1.Packets())
		if len(a) != len(b) {
			t.Fatalf("%s: %d messages, %d converted", c.Name(), len(a), len(b))
		}
		for i := range a {
			ta, _ := a[i].TypeTags()
			tb, _ := b[i].TypeTags()
			if a[i].Address != b[i].Address || ta != tb {
				t.Errorf("%s: message %d is %s %s converted, %s %s before", c.Name(), i, b[i].Address, tb, a[i].Address, ta)
			}
		}
		if n := testing.AllocsPerRun(50, func() { ConvertFrame(&got, f, c) }); n != 0 {
			t.Errorf("%s: %v allocations per frame", c.Name(), n)
		}
	}
}

// TestTracksKeepRotationsContinuousPerStream: a rotation's quaternions
// keep one hemisphere while the sample numbers go forward (gaps
// included), and start again with W >= 0 when they go back.
func TestTracksKeepRotationsContinuousPerStream(t *testing.T) {
	var tr Tracks
	tr.Reset(1)
	q := mgl64.QuatRotate(0, mgl64.Vec3{0, 1, 0})
	last := q
	for i, sample := range []uint64{0, 1, 2, 5, 6, 7, 8, 9, 10} {
		tr.Begin(&Frame{Sample: sample})
		turned := mgl64.QuatRotate(0.8*float64(i), mgl64.Vec3{0, 1, 0})
		if i%2 == 1 {
			turned = turned.Scale(-1)
		}
		got := tr.Next(0, turned)
		if got.Dot(last) < 0 {
			t.Fatalf("sample %d: %v after %v: the hemisphere changed", sample, got, last)
		}
		last = got
	}
	if last.W >= 0 {
		t.Fatal("the turn never took W below 0: the test proves nothing")
	}
	tr.Begin(&Frame{Sample: 0})
	if got := tr.Next(0, last); got.W < 0 {
		t.Errorf("a new stream began with W = %v", got.W)
	}
}
