package handcontact_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/cab"
	"github.com/gloved/gloved/devices/sim"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handcontact"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/handmodel/handtest"
)

// The handshake placement of configs/handshake.toml: the right hand's
// fingers along +x, thumb up, palm toward -z; the left hand's fingers
// along -x, thumb down, palm toward +z, 5 cm below and 15 cm along.
var (
	rightWrist = wrist(mgl64.Quat{W: 0.70710678, V: mgl64.Vec3{0, 0, -0.70710678}}, geom.Vec3{Y: 1, Z: 0.025})
	leftWrist  = wrist(mgl64.Quat{V: mgl64.Vec3{0.70710678, -0.70710678, 0}}, geom.Vec3{X: 0.15, Y: 1, Z: -0.025})
)

func wrist(q mgl64.Quat, p geom.Vec3) geom.Transform {
	x, err := geom.FromQuat(q, p)
	if err != nil {
		panic(err)
	}
	return x
}

// side is one hand of a test: its model, its part in the test, a refitter
// of its hierarchy and its pose.
type side struct {
	model *handmodel.Hand
	hand  handcontact.Hand
	refit cab.Refitter
	pose  handcontact.Pose
	body  *cab.Body
}

func newSide(t testing.TB, right bool) *side {
	t.Helper()
	p := handmodel.DefaultParams
	p.Right = right
	m, err := handmodel.New(p)
	if err != nil {
		t.Fatal(err)
	}
	h, err := handcontact.NewHand(m)
	if err != nil {
		t.Fatal(err)
	}
	r, err := cab.NewRefitter(cab.CAB, h.Hier)
	if err != nil {
		t.Fatal(err)
	}
	return &side{model: m, hand: h, refit: r, body: h.Hier.Body}
}

// set poses the side at links.
func (s *side) set(links []geom.Transform) {
	s.refit.Refit(links)
	s.pose.Set(links, s.hand.Hier)
}

// handshake returns frames of the two hands shaking (100 Hz).
func handshake(t testing.TB, a, b *side, frames int) (pa, pb [][]geom.Transform) {
	t.Helper()
	pa, err := handtest.Poses(a.model, sim.Handshake, frames, rightWrist)
	if err != nil {
		t.Fatal(err)
	}
	if pb, err = handtest.Poses(b.model, sim.Handshake, frames, leftWrist); err != nil {
		t.Fatal(err)
	}
	return pa, pb
}

// randomPose poses s at random joint angles with its palm within reach of
// the origin, turned at random.
func randomPose(r *rand.Rand, s *side, out []geom.Transform) {
	var q handmodel.Angles
	for j := range q {
		lim := s.model.Limits[j]
		q[j] = lim.Min + r.Float64()*(lim.Max-lim.Min)
	}
	quat := mgl64.Quat{W: r.NormFloat64(), V: mgl64.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}}
	w, _ := geom.FromQuat(quat, geom.Vec3{X: 0.03 * r.NormFloat64(), Y: 0.03 * r.NormFloat64(), Z: 0.03 * r.NormFloat64()})
	s.model.Pose(&q, w, out)
}

type key struct{ a, b handmodel.Link }

// agree fails unless the detector's answer is brute force's: the same
// touching pairs with the same depth, the same pairs within the band,
// except pairs within tol of a boundary (touching, or the band's edge),
// which either may count.
func agree(t *testing.T, what string, d *handcontact.Detector, a, b *handcontact.Pose, band float64) (contacts int) {
	t.Helper()
	const tol = 1e-7
	wantC, wantN := d.Exact(a, b, nil, nil)
	exact := map[key]handcontact.Contact{}
	for _, c := range wantC {
		exact[key{c.Link, c.Other}] = c
	}
	got := map[key]bool{}
	for _, c := range d.Contacts {
		k := key{c.Link, c.Other}
		got[k] = true
		w, ok := exact[k]
		switch {
		case !ok && c.Depth > tol:
			t.Fatalf("%s: %v-%v reported %.3g m deep; brute force finds them apart", what, c.Link, c.Other, c.Depth)
		case ok && math.Abs(w.Depth-c.Depth) > 1e-6:
			t.Fatalf("%s: %v-%v depth %.9f, brute force %.9f", what, c.Link, c.Other, c.Depth, w.Depth)
		}
	}
	for k, w := range exact {
		if !got[k] && w.Depth > tol {
			t.Fatalf("%s: %v-%v overlap %.3g m by brute force; not reported", what, k.a, k.b, w.Depth)
		}
	}
	near := map[key]float64{}
	for _, n := range wantN {
		near[key{n.Link, n.Other}] = n.Distance
	}
	gotN := map[key]bool{}
	for _, n := range d.Near {
		k := key{n.Link, n.Other}
		gotN[k] = true
		w, ok := near[k]
		switch {
		case !ok && n.Distance > tol && n.Distance < band-tol:
			t.Fatalf("%s: %v-%v reported near at %.6f; brute force disagrees", what, k.a, k.b, n.Distance)
		case ok && math.Abs(w-n.Distance) > 1e-7:
			t.Fatalf("%s: %v-%v distance %.9f, brute force %.9f", what, k.a, k.b, n.Distance, w)
		}
	}
	for k, w := range near {
		if !gotN[k] && w > tol && w < band-tol {
			t.Fatalf("%s: %v-%v %.6f apart by brute force, within the band; not reported", what, k.a, k.b, w)
		}
	}
	return len(wantC)
}

func TestFrameIsBruteForce(t *testing.T) {
	const band = 0.01
	a, b := newSide(t, true), newSide(t, false)
	d, err := handcontact.New(a.hand, b.hand, handcontact.Options{Proximity: band})
	if err != nil {
		t.Fatal(err)
	}
	t.Run("handshake", func(t *testing.T) {
		pa, pb := handshake(t, a, b, 300)
		touching := 0
		for f := range pa {
			a.set(pa[f])
			b.set(pb[f])
			if err := d.Frame(&a.pose, &b.pose, -1); err != nil {
				t.Fatal(err)
			}
			if d.Limited || d.Level != -1 {
				t.Fatalf("frame %d: a full query reports level %d, limited %v", f, d.Level, d.Limited)
			}
			if agree(t, "handshake", d, &a.pose, &b.pose, band) > 0 {
				touching++
			}
		}
		if touching < 100 {
			t.Fatalf("the hands touch in %d of 300 frames: the handshake does not bring them together", touching)
		}
	})
	t.Run("random", func(t *testing.T) {
		r := rand.New(rand.NewPCG(13, 1))
		la, lb := make([]geom.Transform, a.model.NumLinks()), make([]geom.Transform, b.model.NumLinks())
		touching := 0
		for i := range 400 {
			randomPose(r, a, la)
			randomPose(r, b, lb)
			a.set(la)
			b.set(lb)
			if err := d.Frame(&a.pose, &b.pose, -1); err != nil {
				t.Fatal(err)
			}
			if agree(t, "random pose", d, &a.pose, &b.pose, band) > 0 {
				touching++
			}
			_ = i
		}
		if touching < 100 {
			t.Fatalf("only %d of 400 random placements touch", touching)
		}
	})
}

func TestContactsArePhysical(t *testing.T) {
	a, b := newSide(t, true), newSide(t, false)
	d, err := handcontact.New(a.hand, b.hand, handcontact.Options{Proximity: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	pa, pb := handshake(t, a, b, 150)
	n := 0
	for f := range pa {
		a.set(pa[f])
		b.set(pb[f])
		if err := d.Frame(&a.pose, &b.pose, -1); err != nil {
			t.Fatal(err)
		}
		for _, c := range d.Contacts {
			n++
			if !(c.Depth >= 0) || math.Abs(c.Normal.Len()-1) > 1e-9 || !c.Point.Finite() {
				t.Fatalf("frame %d: %+v: want a finite point, depth >= 0 and a unit normal", f, c)
			}
			// The point is on the other link's surface.
			if g := surfaceGap(b.body.Links[c.Other], pb[f][c.Other], c.Point); g > 1e-6 {
				t.Fatalf("frame %d: %v-%v: the point is %.3g m off the other link's surface", f, c.Link, c.Other, g)
			}
			// Pushed along the normal by the depth, this link clears the other.
			moved := a.pose.Links[c.Link]
			moved.T = moved.T.Add(c.Normal.Mul(c.Depth + 1e-6))
			if gap := linkGap(a, b, c.Link, c.Other, moved, pb[f][c.Other]); gap <= 0 {
				t.Fatalf("frame %d: %v-%v moved by depth·normal still overlaps", f, c.Link, c.Other)
			}
		}
		for _, x := range d.Near {
			if !(x.Distance > 0 && x.Distance <= 0.01) || math.Abs(x.Point.Sub(x.OtherPoint).Len()-x.Distance) > 1e-9 {
				t.Fatalf("frame %d: %+v: want 0 < distance <= band, the points that far apart", f, x)
			}
		}
	}
	if n == 0 {
		t.Fatal("no contact to check")
	}
}

// surfaceGap is p's distance from the nearest face of link l posed at x.
func surfaceGap(l cab.Link, x geom.Transform, p geom.Vec3) float64 {
	best := math.Inf(1)
	for _, tr := range l.Tris {
		t := geom.Triangle{x.Apply(l.Verts[tr[0]]), x.Apply(l.Verts[tr[1]]), x.Apply(l.Verts[tr[2]])}
		q, _ := geom.ClosestOnTriangle(t, p)
		best = min(best, q.Sub(p).Len())
	}
	return best
}

// linkGap is the distance between link la of a at xa and lb of b at xb
// (0 when they overlap), by a detector of the two alone.
func linkGap(a, b *side, la, lb handmodel.Link, xa, xb geom.Transform) float64 {
	d, _ := handcontact.New(a.hand, b.hand, handcontact.Options{Proximity: 1})
	pa, pb := a.pose, b.pose
	pa.Links, pb.Links = slices.Clone(pa.Links), slices.Clone(pb.Links)
	pa.Links[la], pb.Links[lb] = xa, xb
	c, n := d.Exact(&pa, &pb, nil, nil)
	for _, x := range c {
		if x.Link == la && x.Other == lb {
			return 0
		}
	}
	for _, x := range n {
		if x.Link == la && x.Other == lb {
			return x.Distance
		}
	}
	return math.Inf(1)
}

// covered reports whether a pair of links lies under one of the pairs of
// boxes a limited query stopped at.
func covered(d *handcontact.Detector, ha, hb *cab.Hierarchy, k key) bool {
	for _, p := range d.Collisions {
		if slices.Contains(ha.Links(p.A), int32(k.a)) && slices.Contains(hb.Links(p.B), int32(k.b)) {
			return true
		}
	}
	return false
}

func TestALimitedQueryDeniesNoContact(t *testing.T) {
	a, b := newSide(t, true), newSide(t, false)
	d, err := handcontact.New(a.hand, b.hand, handcontact.Options{Proximity: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	pa, pb := handshake(t, a, b, 150)
	limited := 0
	for f := 0; f < len(pa); f += 3 {
		a.set(pa[f])
		b.set(pb[f])
		exact, _ := d.Exact(&a.pose, &b.pose, nil, nil)
		for level := range d.Levels() + 1 {
			if err := d.Frame(&a.pose, &b.pose, level); err != nil {
				t.Fatal(err)
			}
			if d.Limited != (len(d.Collisions) > 0) {
				t.Fatalf("level %d: Limited %v with %d collisions", level, d.Limited, len(d.Collisions))
			}
			if level == d.Levels() && d.Limited {
				t.Fatalf("a limit of %d, the hierarchies' depth, stopped the query", level)
			}
			if d.Limited {
				limited++
			}
			// Each collision is a pair of boxes that overlap as they are
			// (not only within the band), one of them a node at exactly
			// the limit, the other no deeper.
			for _, p := range d.Collisions {
				la, lb := a.hand.Hier.Level(p.A), b.hand.Hier.Level(p.B)
				atLimit := (p.A >= 0 && la == level) || (p.B >= 0 && lb == level)
				if !atLimit || la > level || lb > level {
					t.Fatalf("level %d: a collision of boxes at levels %d and %d", level, la, lb)
				}
				if geom.BoxesDisjoint(refBox(&a.pose, p.A), refBox(&b.pose, p.B)) {
					t.Fatalf("level %d: a collision of boxes %d and %d that do not overlap", level, p.A, p.B)
				}
			}
			for _, c := range exact {
				k := key{c.Link, c.Other}
				found := slices.ContainsFunc(d.Contacts, func(x handcontact.Contact) bool { return x.Link == k.a && x.Other == k.b })
				if !found && !covered(d, a.hand.Hier, b.hand.Hier, k) {
					t.Fatalf("frame %d level %d: %v-%v touch, but neither a contact nor under a collision", f, level, k.a, k.b)
				}
			}
		}
	}
	if limited == 0 {
		t.Fatal("no limit ever stopped the query")
	}
}

// refBox is the box of hierarchy reference r in pose p.
func refBox(p *handcontact.Pose, r int32) *geom.OBB {
	if r >= 0 {
		return &p.Boxes[r]
	}
	return &p.Leaves[^r]
}

// TestNoCollisionWithinTheBandOnly: hands apart, but within the band of
// each other at their root boxes, collide at no level.
func TestNoCollisionWithinTheBandOnly(t *testing.T) {
	a, b := newSide(t, true), newSide(t, false)
	d, err := handcontact.New(a.hand, b.hand, handcontact.Options{Proximity: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	pa, pb := handshake(t, a, b, 1)
	a.set(pa[0])
	apart := slices.Clone(pb[0])
	seen := 0
	for step := range 60 {
		for l := range apart {
			apart[l].T = pb[0][l].T.Add(geom.Vec3{Z: -0.002 * float64(step)})
		}
		b.set(apart)
		if geom.BoxesDisjoint(refBox(&a.pose, a.hand.Hier.Root), refBox(&b.pose, b.hand.Hier.Root)) {
			seen++
			if err := d.Frame(&a.pose, &b.pose, 0); err != nil {
				t.Fatal(err)
			}
			if d.Limited {
				t.Fatalf("%.0f mm apart: root boxes apart, yet a collision at level 0", 2.0*float64(step))
			}
		}
	}
	if seen == 0 {
		t.Fatal("the root boxes never parted")
	}
}

func TestChooseFitsTheBudget(t *testing.T) {
	a, b := newSide(t, true), newSide(t, false)
	d, err := handcontact.New(a.hand, b.hand, handcontact.Options{Proximity: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	pa, pb := handshake(t, a, b, 1)
	a.set(pa[0])
	b.set(pb[0])
	if got := d.Choose(0); got != -1 {
		t.Fatalf("unmeasured, Choose(0) = %d: want -1 (nothing is known to cost anything)", got)
	}
	if err := d.Measure(&a.pose, &b.pose, 3); err != nil {
		t.Fatal(err)
	}
	for l := -1; l < d.Levels(); l++ {
		if d.Cost(l) <= 0 {
			t.Fatalf("level %d measured at %v", l, d.Cost(l))
		}
	}
	if got := d.Choose(time.Hour); got != -1 {
		t.Fatalf("Choose(1h) = %d: want -1, full depth", got)
	}
	if got := d.Choose(-time.Millisecond); got != 0 {
		t.Fatalf("Choose(over budget) = %d: want 0, the root boxes", got)
	}
	// Deeper with more time: never shallower, and what it picks fits.
	deepest := func(l int) int {
		if l < 0 {
			return d.Levels()
		}
		return l
	}
	last := 0
	for ns := time.Duration(0); ns < 2*d.Cost(-1); ns += d.Cost(-1) / 64 {
		l := d.Choose(ns)
		if deepest(l) < last {
			t.Fatalf("Choose(%v) = %d, shallower than with less time", ns, l)
		}
		if l != 0 && d.Cost(l) > ns {
			t.Fatalf("Choose(%v) = %d, which costs %v", ns, l, d.Cost(l))
		}
		last = deepest(l)
	}
}

func TestFrameAllocatesNothing(t *testing.T) {
	a, b := newSide(t, true), newSide(t, false)
	d, err := handcontact.New(a.hand, b.hand, handcontact.Options{Proximity: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	pa, pb := handshake(t, a, b, 300)
	for f := range pa { // grow every list
		a.set(pa[f])
		b.set(pb[f])
		d.Frame(&a.pose, &b.pose, -1)
		d.Frame(&a.pose, &b.pose, 2)
	}
	f := 0
	allocs := testing.AllocsPerRun(100, func() {
		a.set(pa[f%len(pa)])
		b.set(pb[f%len(pb)])
		d.Frame(&a.pose, &b.pose, -1)
		d.Frame(&a.pose, &b.pose, 2)
		f += 7
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per frame", allocs)
	}
}

func TestNewRejectsMismatchedParts(t *testing.T) {
	a := newSide(t, true)
	if _, err := handcontact.New(handcontact.Hand{}, a.hand, handcontact.Options{}); err == nil {
		t.Error("a hand without a hierarchy was accepted")
	}
	short := a.hand
	short.Links = short.Links[:3]
	if _, err := handcontact.New(a.hand, short, handcontact.Options{}); err == nil {
		t.Error("a hand with fewer hulls than links was accepted")
	}
	if _, err := handcontact.New(a.hand, a.hand, handcontact.Options{Proximity: math.NaN()}); err == nil {
		t.Error("a NaN proximity was accepted")
	}
	d, _ := handcontact.New(a.hand, a.hand, handcontact.Options{})
	var empty handcontact.Pose
	if err := d.Frame(&empty, &empty, -1); err == nil {
		t.Error("an empty pose was accepted")
	}
}

func BenchmarkHandshake(b *testing.B) {
	for _, level := range []int{0, 1, 2, 3, 4, 5, -1} {
		name := "full"
		if level >= 0 {
			name = "level" + string(rune('0'+level))
		}
		b.Run(name, func(bb *testing.B) {
			a, o := newSide(bb, true), newSide(bb, false)
			d, err := handcontact.New(a.hand, o.hand, handcontact.Options{Proximity: 0.01})
			if err != nil {
				bb.Fatal(err)
			}
			pa, pb := handshake(bb, a, o, 300)
			poses := make([][2]handcontact.Pose, len(pa))
			for f := range pa {
				a.set(pa[f])
				o.set(pb[f])
				poses[f][0].CopyFrom(&a.pose)
				poses[f][1].CopyFrom(&o.pose)
			}
			bb.ReportAllocs()
			bb.ResetTimer()
			for i := range bb.N {
				p := &poses[i%len(poses)]
				d.Frame(&p[0], &p[1], level)
			}
		})
	}
}
