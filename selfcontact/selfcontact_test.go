package selfcontact

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/gloved/gloved/chains"
	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/sim"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/narrow"
)

var webxrRight = filepath.Join("..", "handmodel", "testdata", "webxr-generic-hand", "right.glb")

// hands are the procedural hand and the hand built on the WebXR skin.
func hands(t testing.TB) map[string]*handmodel.Hand {
	t.Helper()
	out := map[string]*handmodel.Hand{}
	for name, p := range map[string]handmodel.Params{"procedural": handmodel.DefaultParams, "skinned": {Right: true, Mesh: webxrRight}} {
		h, err := handmodel.New(p)
		if err != nil {
			t.Fatal(err)
		}
		out[name] = h
	}
	return out
}

// detector builds the self-contact detector of h with o.
func detector(t testing.TB, h *handmodel.Hand, o Options) *Detector {
	t.Helper()
	var polys []*narrow.Polytope
	for l := range handmodel.Link(handmodel.FingerLinks) {
		g := h.Geometry(l)
		p, err := narrow.NewPolytope(g.Verts, g.Tris)
		if err != nil {
			t.Fatal(err)
		}
		polys = append(polys, p)
	}
	d, err := New(h, polys, o)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// motion plays a simulated glove's motion for frames samples through the
// shipped calibration, calling fn with each frame's angles and poses.
func motion(t testing.TB, h *handmodel.Hand, m sim.Motion, frames int, fn func(i int, q *handmodel.Angles, poses []geom.Transform)) {
	t.Helper()
	g, err := sim.New(m, 22, 10*time.Millisecond, true)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	cal, err := handmodel.DefaultCalibration(22)
	if err != nil {
		t.Fatal(err)
	}
	poses := make([]geom.Transform, h.NumLinks())
	var s devices.Sample
	var q handmodel.Angles
	for i := range frames {
		if err := g.Read(&s); err != nil {
			t.Fatal(err)
		}
		if err := cal.Angles(&s, &h.Limits, &q); err != nil {
			t.Fatal(err)
		}
		h.Pose(&q, geom.Identity(), poses)
		fn(i, &q, poses)
	}
}

// TestPinchEventsFollowTheExactDistance: through a simulated pinch, each
// finger's pinch begins on the first frame its exact distance from the
// thumb is within PinchOn and ends on the first frame after that it is
// PinchOff away, on both hands; the index finger pinches.
func TestPinchEventsFollowTheExactDistance(t *testing.T) {
	for name, h := range hands(t) {
		d := detector(t, h, DefaultOptions)
		var on [4]bool
		begins := 0
		motion(t, h, sim.Pinch, 400, func(i int, q *handmodel.Angles, poses []geom.Transform) {
			if err := d.Frame(q, poses); err != nil {
				t.Fatal(err)
			}
			for f, tip := range FingerTips {
				a := narrow.Shape{P: d.polys[handmodel.ThumbDistal], X: poses[handmodel.ThumbDistal]}
				dist := 1.0
				for _, l := range []handmodel.Link{tip, tip - 1} {
					b := narrow.Shape{P: d.polys[l], X: poses[l]}
					dist = min(dist, narrow.Distance(&a, &b, nil).Distance)
				}
				want := 0
				switch {
				case !on[f] && dist <= DefaultOptions.PinchOn:
					on[f], want = true, 1
					begins++
				case on[f] && dist >= DefaultOptions.PinchOff:
					on[f], want = false, -1
				}
				got := 0
				for _, e := range d.Events {
					if e.Kind == PinchEvent && e.Finger == tip {
						got = map[bool]int{true: 1, false: -1}[e.Begin]
					}
				}
				if got != want || d.Pinching(f) != on[f] {
					t.Fatalf("%s frame %d, %v at %.4f m: event %d, want %d", name, i, tip, dist, got, want)
				}
			}
		})
		if begins == 0 {
			t.Errorf("%s: the simulated pinch never pinched", name)
		}
	}
}

// TestSelfContactsAreExactlyConfirmed: over every simulated motion, each
// reported self-contact is a pair of links whose hulls the exact test
// (every pair, brute force) finds touching, never a link and its parent;
// crossing fingers and a fist are reported; the spheres miss at most 2% of
// the touching pairs over the motions.
func TestSelfContactsAreExactlyConfirmed(t *testing.T) {
	for name, h := range hands(t) {
		d := detector(t, h, DefaultOptions)
		seen, exact := 0, 0
		for _, m := range sim.Motions {
			var touch [][2]handmodel.Link
			motion(t, h, m, 300, func(i int, q *handmodel.Angles, poses []geom.Transform) {
				if err := d.Frame(q, poses); err != nil {
					t.Fatal(err)
				}
				touch = d.Touching(touch[:0])
				for _, c := range d.Contacts {
					found := false
					for _, p := range touch {
						found = found || (p[0] == c.A && p[1] == c.B)
					}
					if !found || h.Parent(c.B) == c.A || !(c.Depth >= 0) {
						t.Fatalf("%s %s frame %d: %v-%v reported (depth %v), the exact test says %v", name, m, i, c.A, c.B, c.Depth, touch)
					}
				}
				seen += len(d.Contacts)
				exact += len(touch)
			})
			if (m == sim.Cross || m == sim.Fist) && seen == 0 {
				t.Errorf("%s %s: no self-contact", name, m)
			}
		}
		if miss := float64(exact-seen) / float64(exact); miss > 0.02 {
			t.Errorf("%s: the spheres missed %d of %d touching pairs, want at most 2%%", name, exact-seen, exact)
		}
		t.Logf("%s: %d of %d touching pairs reported", name, seen, exact)
	}
}

// TestPassingOverChangesNoContact: what a frame passes over (pairs
// certified apart in earlier frames, hulls' balls apart, spheres of links
// it does not need) changes no answer: the contacts are exactly the
// touching pairs among those every sphere, all moved and all tested,
// proposes.
func TestPassingOverChangesNoContact(t *testing.T) {
	for name, h := range hands(t) {
		d := detector(t, h, DefaultOptions)
		var touch [][2]handmodel.Link
		var pairs []chains.Pair
		for _, m := range sim.Motions {
			motion(t, h, m, 300, func(i int, q *handmodel.Angles, poses []geom.Transform) {
				if err := d.Frame(q, poses); err != nil {
					t.Fatal(err)
				}
				var got, want [][2]handmodel.Link
				for _, c := range d.Contacts {
					got = append(got, [2]handmodel.Link{c.A, c.B})
				}
				d.Set.Update(d.body.poser)
				pairs = d.Set.OverlapsChained(d.opts.Slack, pairs[:0])
				for _, p := range d.Touching(touch[:0]) {
					for _, sp := range pairs {
						a, b := d.Set.Fits[sp.A].Link, d.Set.Fits[sp.B].Link
						if handmodel.Link(min(a, b)) == p[0] && handmodel.Link(max(a, b)) == p[1] {
							want = append(want, p)
							break
						}
					}
				}
				byLinks := func(x, y [2]handmodel.Link) int { return int(x[0]-y[0])*64 + int(x[1]-y[1]) }
				slices.SortFunc(got, byLinks)
				slices.SortFunc(want, byLinks)
				if !slices.Equal(got, want) {
					t.Fatalf("%s %s frame %d: contacts on %v, the spheres all tested and the exact test give %v", name, m, i, got, want)
				}
			})
		}
	}
}

// TestFistBeginsAndEnds: the simulated fist closes and opens the hand:
// a fist begins and then ends.
func TestFistBeginsAndEnds(t *testing.T) {
	for name, h := range hands(t) {
		d := detector(t, h, DefaultOptions)
		var events []bool
		motion(t, h, sim.Fist, 300, func(i int, q *handmodel.Angles, poses []geom.Transform) {
			if err := d.Frame(q, poses); err != nil {
				t.Fatal(err)
			}
			for _, e := range d.Events {
				if e.Kind == FistEvent {
					events = append(events, e.Begin)
				}
			}
		})
		if len(events) < 2 || !events[0] || events[1] {
			t.Errorf("%s: fist events %v, want a begin then an end", name, events)
		}
	}
}

// TestFrameAllocatesNothing: self-contact runs in the frame loop.
func TestFrameAllocatesNothing(t *testing.T) {
	for name, h := range hands(t) {
		d := detector(t, h, DefaultOptions)
		var qs []handmodel.Angles
		var ps [][]geom.Transform
		motion(t, h, sim.Fist, 150, func(i int, q *handmodel.Angles, poses []geom.Transform) {
			qs, ps = append(qs, *q), append(ps, append([]geom.Transform(nil), poses...))
		})
		for i := range qs {
			d.Frame(&qs[i], ps[i])
		}
		i := 0
		if n := testing.AllocsPerRun(100, func() { d.Frame(&qs[i%len(qs)], ps[i%len(qs)]); i++ }); n != 0 {
			t.Errorf("%s: Frame allocated %v times", name, n)
		}
	}
}

// TestOptionsAreChecked: distances that cannot work are refused.
func TestOptionsAreChecked(t *testing.T) {
	for _, o := range []Options{
		{Slack: -1, PinchOn: 0.002, PinchOff: 0.008, FistOn: 0.005, FistOff: 0.015},
		{Slack: 0.004, PinchOn: 0.01, PinchOff: 0.008, FistOn: 0.005, FistOff: 0.015},
		{Slack: 0.004, PinchOn: 0.002, PinchOff: 0.008, FistOn: 0.02, FistOff: 0.015},
	} {
		o.Spheres = DefaultOptions.Spheres
		if err := o.Check(); err == nil {
			t.Errorf("%+v was taken", o)
		}
	}
	if err := DefaultOptions.Check(); err != nil {
		t.Errorf("the defaults: %v", err)
	}
}

// BenchmarkFrame is self-contact's cost per frame through each simulated
// motion, for each hand.
func BenchmarkFrame(b *testing.B) {
	for name, h := range hands(b) {
		for _, m := range []sim.Motion{sim.Grasp, sim.Pinch, sim.Fist, sim.Cross} {
			b.Run(name+"/"+string(m), func(b *testing.B) {
				d := detector(b, h, DefaultOptions)
				var qs []handmodel.Angles
				var ps [][]geom.Transform
				motion(b, h, m, 400, func(i int, q *handmodel.Angles, poses []geom.Transform) {
					qs, ps = append(qs, *q), append(ps, append([]geom.Transform(nil), poses...))
				})
				b.ReportAllocs()
				b.ResetTimer()
				for i := range b.N {
					d.Frame(&qs[i%len(qs)], ps[i%len(qs)])
				}
			})
		}
	}
}
