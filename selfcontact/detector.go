package selfcontact

import (
	"fmt"

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

// DefaultOptions are the measured defaults (docs/papers.md, `gloved bench
// self`).
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
	Point  geom.Vec3      // midway between the deepest points of each in the other (world)
	Normal geom.Vec3      // unit: the direction pushing A out of B
}

// Detector finds the hand's self-contacts and pinch and fist events each
// frame. It owns its buffers: a frame allocates nothing.
type Detector struct {
	Set *chains.Set
	// Contacts and Events are the last frame's.
	Contacts []Contact
	Events   []Event

	hand     *handmodel.Hand
	opts     Options
	body     *body
	polys    []*narrow.Polytope
	shapes   [handmodel.FingerLinks]narrow.Shape
	caches   [handmodel.FingerLinks][handmodel.FingerLinks]narrow.Cache
	adjacent [handmodel.FingerLinks]uint32
	cand     [handmodel.FingerLinks]uint32
	proposed []int32 // the groups (Set.LinkPairs) the spheres proposed
	pinching [4]bool
	fist     bool
	coherence
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
	b.poser.ready(set.PivotTris())
	d := &Detector{Set: set, hand: h, opts: o, body: b, polys: polys}
	d.coherence.init(polys)
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
	d.certs = make([]cert, len(set.LinkPairs()))
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
	lateral := func(p geom.Vec3) float64 { return p.Sub(o).Dot(across) }
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
// its links at poses (the hand model's Pose for q). For each pair of
// links the chains join it asks, in order of cost, whether the pair is
// known to be apart (a certificate from an earlier frame still good for
// how far the links have moved since), whether the balls bounding their
// hulls are apart, and then the spheres (updating only the links it
// needs); a pair the spheres propose is decided exactly on the hulls.
// The contacts are those of testing every proposed pair exactly: the
// first two steps only pass over pairs the exact test would deny.
func (d *Detector) Frame(q *handmodel.Angles, poses []geom.Transform) error {
	if err := d.body.poser.set(q, poses); err != nil {
		return err
	}
	for l := range d.shapes {
		d.shapes[l].X = poses[l]
	}
	d.track(poses)
	d.cand = [handmodel.FingerLinks]uint32{}
	d.proposed = d.proposed[:0]
	var fresh uint32 // links whose spheres are placed this frame
	for g, lp := range d.Set.LinkPairs() {
		a, b := handmodel.Link(lp.A), handmodel.Link(lp.B)
		if d.apart(g, a, b) {
			continue
		}
		for _, l := range [2]handmodel.Link{a, b} {
			if fresh&(1<<l) == 0 {
				fresh |= 1 << l
				d.Set.UpdateLink(d.body.poser, int32(l))
			}
		}
		if d.Set.GroupOverlaps(g, d.opts.Slack) {
			d.cand[a] |= 1 << b
			d.proposed = append(d.proposed, int32(g))
		}
	}
	d.Contacts = d.Contacts[:0]
	for _, g := range d.proposed {
		d.confirm(int(g))
	}
	d.events()
	return nil
}

// confirm decides group g's links exactly and records their contact: a
// pair that touched in the last frame starts its depth from that frame's
// deepest face, which also proves the overlap; any other, the cached
// boolean query first (most proposed pairs are near, not touching),
// which certifies a pair apart, then the distance and depth for a pair
// that touches.
func (d *Detector) confirm(g int) {
	lp := d.Set.LinkPairs()[g]
	a, b := handmodel.Link(lp.A), handmodel.Link(lp.B)
	sa, sb, c := &d.shapes[a], &d.shapes[b], &d.caches[a][b]
	pen, ok := narrow.PenetrationCached(sa, sb, c)
	if !ok {
		overlap, gap := narrow.IntersectsCached(sa, sb, c)
		if !overlap {
			d.certify(g, a, b, gap)
			return
		}
		res := narrow.Distance(sa, sb, c)
		if !res.Overlap {
			return
		}
		pen = narrow.Penetration(sa, sb, &res, c)
	}
	d.Contacts = append(d.Contacts, Contact{A: a, B: b, Depth: pen.Depth, Point: pen.PointA.Add(pen.PointB).Mul(0.5), Normal: pen.Normal})
}

// distance is links a and b's exact distance (0 when they touch).
func (d *Detector) distance(a, b handmodel.Link) float64 {
	return narrow.Distance(&d.shapes[a], &d.shapes[b], &d.caches[min(a, b)][max(a, b)]).Distance
}

// bounds bounds links a and b's distance from their last query, without
// one (narrow.DistanceBounds).
func (d *Detector) bounds(a, b handmodel.Link) (lo, hi float64) {
	return narrow.DistanceBounds(&d.shapes[a], &d.shapes[b], &d.caches[min(a, b)][max(a, b)])
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

// UpdateSpheres moves every sphere to the last frame, by its pivots, as
// the paper's update does for every frame (Frame moves only those it
// needs): for measuring the spheres themselves.
func (d *Detector) UpdateSpheres() { d.Set.Update(d.body.poser) }

// Proposed reports whether the spheres proposed links a and b in the
// last frame.
func (d *Detector) Proposed(a, b handmodel.Link) bool {
	return d.cand[min(a, b)]&(1<<max(a, b)) != 0
}
