package selfcontact

import (
	"fmt"
	"math/bits"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/chains"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/narrow"
)

// Options tune self-contact.
type Options struct {
	// Slack grows every sphere when proposing link pairs (m): the spheres
	// lie inside the hand, so a little slack catches links touching
	// where no spheres reach.
	Slack float64
	// A finger pinches when its two outer phalanges come within PinchOn of
	// the thumb's distal one and stops when they are PinchOff away again
	// (m).
	PinchOn, PinchOff float64
	// A fist begins when all four fingertips are within FistOn of the
	// palm and ends when one is FistOff away (m).
	FistOn, FistOff float64
	Spheres         chains.Params
}

// DefaultOptions are the measured defaults (README, `gloved bench self`).
var DefaultOptions = Options{Slack: 0.004, PinchOn: 0.002, PinchOff: 0.008, FistOn: 0.012, FistOff: 0.025, Spheres: chains.Params{Rays: 80, Step: 0.001, Overlap: 0.3, Use: chains.J1Adjusted}}

// Check reports options that cannot work.
func (o Options) Check() error {
	switch {
	case !(o.Slack >= 0 && o.Slack <= 0.05):
		return fmt.Errorf("slack_m = %v: want 0 to 0.05", o.Slack)
	case !(o.PinchOn >= 0 && o.PinchOff > o.PinchOn && o.PinchOff <= 0.1):
		return fmt.Errorf("pinch_on_m = %v, pinch_off_m = %v: want 0 <= on < off <= 0.1", o.PinchOn, o.PinchOff)
	case !(o.FistOn >= 0 && o.FistOff > o.FistOn && o.FistOff <= 0.1):
		return fmt.Errorf("fist_on_m = %v, fist_off_m = %v: want 0 <= on < off <= 0.1", o.FistOn, o.FistOff)
	}
	return nil
}

// Contact is two links of the hand that touch or overlap.
type Contact struct {
	A, B   handmodel.Link // A < B, never a link and its parent
	Depth  float64        // the links' penetration depth (0: touching)
	Point  mgl64.Vec3     // midway between the deepest points of each in the other (world)
	Normal mgl64.Vec3     // unit: the direction pushing A out of B
}

// Detector finds the hand's self-contacts and pinch and fist events each
// frame. It owns its buffers: a frame allocates nothing.
type Detector struct {
	Set *chains.Set
	// Contacts and Events are the last frame's; Pinch holds each finger's
	// (index to little) distance from the thumb (see Event), Fist its
	// tip's from the palm.
	Contacts []Contact
	Events   []Event
	Pinch    [4]float64
	Fist     [4]float64

	hand     *handmodel.Hand
	opts     Options
	body     *body
	polys    []*narrow.Polytope
	shapes   [handmodel.FingerLinks]narrow.Shape
	caches   [handmodel.FingerLinks][handmodel.FingerLinks]narrow.Cache
	adjacent [handmodel.FingerLinks]uint32
	cand     [handmodel.FingerLinks]uint32
	pairs    []chains.Pair
	pinching [4]bool
	fist     bool
}

// New builds the spheres and chains of hand h, whose links' convex shapes
// (the narrow phase's) are polys.
func New(h *handmodel.Hand, polys []*narrow.Polytope, o Options) (*Detector, error) {
	if err := o.Check(); err != nil {
		return nil, fmt.Errorf("selfcontact: %w", err)
	}
	if len(polys) < handmodel.FingerLinks {
		return nil, fmt.Errorf("selfcontact: %d link shapes for %d links", len(polys), handmodel.FingerLinks)
	}
	b, err := newBody(h)
	if err != nil {
		return nil, err
	}
	parent := make([]int32, handmodel.FingerLinks)
	for l := range parent {
		parent[l] = int32(h.Parent(handmodel.Link(l)))
	}
	set, err := chains.Build(&b.mesh, b.regions, parent, o.Spheres)
	if err != nil {
		return nil, fmt.Errorf("selfcontact: %w", err)
	}
	d := &Detector{Set: set, hand: h, opts: o, body: b, polys: polys}
	for l := range handmodel.Link(handmodel.FingerLinks) {
		d.shapes[l].P = polys[l]
		d.adjacent[l] |= 1 << l
		if p := h.Parent(l); p >= 0 {
			d.adjacent[l] |= 1 << p
			d.adjacent[p] |= 1 << l
		}
	}
	d.excludeAtRest()
	if err := set.SetChains(fingerPairChains(set, b.regions)); err != nil {
		return nil, err
	}
	return d, nil
}

// excludeAtRest treats as adjacent the links whose hulls already overlap
// with the hand flat (neighbouring knuckles, built overlapping): they would
// report a contact in every frame. Fingers that cross still meet on
// their other links.
func (d *Detector) excludeAtRest() {
	var zero handmodel.Angles
	poses := make([]geom.Transform, d.hand.NumLinks())
	d.hand.Pose(&zero, geom.Identity(), poses)
	for l := range d.shapes {
		d.shapes[l].X = poses[l]
	}
	for _, p := range d.Touching(nil) {
		d.adjacent[p[0]] |= 1 << p[1]
		d.adjacent[p[1]] |= 1 << p[0]
		d.Set.Exclude(int32(p[0]), int32(p[1]))
	}
}

// fingerPairChains makes a chain for each pair of fingers: both fingers'
// spheres and the palm spheres across the hand between their bases (to a
// sphere's radius beyond), as the paper chains each pair of limbs with the
// torso between them.
func fingerPairChains(s *chains.Set, regions []chains.Region) [][]int32 {
	pr := regions[palmRegion]
	across := pr.Across
	o := pr.Axis[0]
	lateral := func(p mgl64.Vec3) float64 { return p.Sub(o).Dot(across) }
	var out [][]int32
	for a := range 5 {
		for b := a + 1; b < 5; b++ {
			la, lb := lateral(regions[a].Axis[0]), lateral(regions[b].Axis[0])
			lo, hi := min(la, lb), max(la, lb)
			var ch []int32
			for i, f := range s.Fits {
				sp := s.Spheres[i]
				if f.Region == a || f.Region == b ||
					(f.Region == palmRegion && lateral(sp.C) >= lo-sp.R && lateral(sp.C) <= hi+sp.R) {
					ch = append(ch, int32(i))
				}
			}
			out = append(out, ch)
		}
	}
	return out
}

// Frame finds the self-contacts and events of the hand at angles q with
// its links at poses (the hand model's Pose for q).
func (d *Detector) Frame(q *handmodel.Angles, poses []geom.Transform) error {
	if err := d.body.poser.set(q, poses); err != nil {
		return err
	}
	d.Set.Update(d.body.poser)
	for l := range d.shapes {
		d.shapes[l].X = poses[l]
	}
	d.pairs = d.Set.OverlapsChained(d.opts.Slack, d.pairs[:0])
	d.cand = [handmodel.FingerLinks]uint32{}
	for _, p := range d.pairs {
		a, b := d.Set.Fits[p.A].Link, d.Set.Fits[p.B].Link
		d.cand[min(a, b)] |= 1 << max(a, b)
	}
	d.Contacts = d.Contacts[:0]
	for a := range d.cand {
		for m := d.cand[a]; m != 0; m &= m - 1 {
			d.confirm(handmodel.Link(a), handmodel.Link(bits.TrailingZeros32(m)))
		}
	}
	d.events()
	return nil
}

// confirm decides links a < b exactly and records their contact.
func (d *Detector) confirm(a, b handmodel.Link) {
	sa, sb := &d.shapes[a], &d.shapes[b]
	res := narrow.Distance(sa, sb, &d.caches[a][b])
	if !res.Overlap {
		return
	}
	pen := narrow.Penetration(sa, sb, &res)
	d.Contacts = append(d.Contacts, Contact{A: a, B: b, Depth: pen.Depth, Point: pen.PointA.Add(pen.PointB).Mul(0.5), Normal: pen.Normal})
}

// distance is links a and b's exact distance (0 when they touch).
func (d *Detector) distance(a, b handmodel.Link) float64 {
	return narrow.Distance(&d.shapes[a], &d.shapes[b], &d.caches[min(a, b)][max(a, b)]).Distance
}

// Touching appends, by brute force over every pair of links that are not
// one link and its parent, the pairs whose hulls share a point: the exact
// self test the spheres are measured against. Call it after Frame.
func (d *Detector) Touching(out [][2]handmodel.Link) [][2]handmodel.Link {
	for a := range handmodel.Link(handmodel.FingerLinks) {
		for b := a + 1; b < handmodel.FingerLinks; b++ {
			if d.adjacent[a]&(1<<b) == 0 && narrow.Intersects(&d.shapes[a], &d.shapes[b]) {
				out = append(out, [2]handmodel.Link{a, b})
			}
		}
	}
	return out
}

// Proposed reports whether the spheres proposed links a and b in the
// last frame.
func (d *Detector) Proposed(a, b handmodel.Link) bool {
	return d.cand[min(a, b)]&(1<<max(a, b)) != 0
}
