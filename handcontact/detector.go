package handcontact

import (
	"fmt"
	"time"

	"github.com/gloved/gloved/cab"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/narrow"
	"github.com/gloved/gloved/traversal"
)

// Contact is a link of this hand touching a link of the other hand.
type Contact struct {
	Link, Other handmodel.Link
	// Depth is how far the links overlap: the length of the shortest
	// translation of this hand's link that parts them, along Normal
	// (unit), which points from the other link toward this one. Point is
	// on the other link's surface.
	Depth         float64
	Normal, Point geom.Vec3
	// Exact is false when Depth is a conservative bound (see
	// narrow.PenetrationResult).
	Exact bool
}

// Near is a link of this hand within the proximity band of a link of the
// other hand that it does not touch.
type Near struct {
	Link, Other handmodel.Link
	Distance    float64
	// Point is the closest point on this hand's link, OtherPoint on the
	// other's.
	Point, OtherPoint geom.Vec3
}

// Options tune a detector.
type Options struct {
	// Proximity is the band (m) within which pairs of links that do not
	// touch are reported as near; 0 reports none.
	Proximity float64
}

// Detector tests one hand (this) against another (other), frame after
// frame, keeping a warm-start cache per pair of links. It belongs to one
// goroutine; the Hands it reads may be shared.
type Detector struct {
	// The last frame's answer: the touching pairs, ordered as the
	// hierarchies' descent found them, and the pairs within the band.
	Contacts []Contact
	Near     []Near
	// Level is the depth limit the last frame ran with (-1: none).
	// Limited says the limit stopped the descent: Collisions holds the
	// pairs of boxes overlapping at the limit (each a collision at that
	// level of detail), and Contacts and Near hold only the pairs of
	// links found above it.
	Level      int
	Limited    bool
	Collisions []traversal.RefPair

	this, other Hand
	// ha and hb are the hands' hierarchies with the frame's boxes.
	ha, hb cab.Hierarchy
	sa, sb []narrow.Shape
	caches []narrow.Cache // by this link · len(other links) + other link
	q      traversal.BodyQuery
	band   float64
	levels int // Levels()
	// costs are what each level has cost (ns, a moving average), full
	// depth last.
	costs   []float64
	measure Pose
}

// New prepares a detector of hand this against hand other.
func New(this, other Hand, o Options) (*Detector, error) {
	if err := this.check(); err != nil {
		return nil, err
	}
	if err := other.check(); err != nil {
		return nil, err
	}
	if !(o.Proximity >= 0) || o.Proximity > 1 {
		return nil, fmt.Errorf("handcontact: proximity %v: want 0 to 1 m", o.Proximity)
	}
	d := &Detector{this: this, other: other, ha: *this.Hier, hb: *other.Hier, band: o.Proximity,
		sa: make([]narrow.Shape, len(this.Links)), sb: make([]narrow.Shape, len(other.Links)),
		caches: make([]narrow.Cache, len(this.Links)*len(other.Links)), Level: -1}
	for l, p := range this.Links {
		d.sa[l].P = p
	}
	for l, p := range other.Links {
		d.sb[l].P = p
	}
	d.q.Margin = o.Proximity
	d.levels = max(this.Hier.Depth(), other.Hier.Depth())
	d.costs = make([]float64, d.levels+1)
	return d, nil
}

// Levels returns the number of levels of detail: a depth limit from 0
// (the hands' root boxes) to Levels()-1 can stop the descent; a limit of
// Levels() or more, or below 0, never does.
func (d *Detector) Levels() int { return d.levels }

// Frame finds the contacts and near pairs between the hands at poses a
// (this hand's) and b (the other's), descending the hierarchies no
// deeper than maxDepth (below 0: no limit).
func (d *Detector) Frame(a, b *Pose, maxDepth int) error {
	t0 := time.Now()
	if err := d.run(a, b, maxDepth); err != nil {
		return err
	}
	d.observe(maxDepth, time.Since(t0))
	return nil
}

// run is Frame without the timing.
func (d *Detector) run(a, b *Pose, maxDepth int) error {
	d.Contacts, d.Near, d.Collisions, d.Limited = d.Contacts[:0], d.Near[:0], d.Collisions[:0], false
	d.Level = maxDepth
	if maxDepth < 0 || maxDepth >= d.Levels() {
		d.Level = -1
	}
	if !a.fits(&d.this) || !b.fits(&d.other) {
		return fmt.Errorf("handcontact: a pose of %d and %d links for hands of %d and %d", len(a.Links), len(b.Links), len(d.this.Links), len(d.other.Links))
	}
	d.ha.Boxes, d.ha.Leaves = a.Boxes, a.Leaves
	d.hb.Boxes, d.hb.Leaves = b.Boxes, b.Leaves
	if d.q.RunLimited(&d.ha, &d.hb, d.Level) {
		d.Limited = true
		d.Collisions = append(d.Collisions, d.q.Limited...)
	}
	for l := range d.sa {
		d.sa[l].X = a.Links[l]
	}
	for l := range d.sb {
		d.sb[l].X = b.Links[l]
	}
	for _, p := range d.q.Pairs {
		d.confirm(p.A, p.B)
	}
	return nil
}

// confirm measures links la of this hand and lb of the other, a
// candidate pair: their depth if they touch, their distance if they are
// within the band. A pair that touched in its last query starts from that
// answer's polytope; one apart by more than the band since its last
// measurement is passed over without a query.
func (d *Detector) confirm(la, lb int32) {
	sa, sb := &d.sa[la], &d.sb[lb]
	c := &d.caches[int(la)*len(d.sb)+int(lb)]
	pen, ok := narrow.PenetrationCached(sa, sb, c)
	if !ok {
		overlap, gap := narrow.IntersectsCached(sa, sb, c)
		if !overlap && gap > d.band {
			return
		}
		res := narrow.Distance(sa, sb, c)
		if !res.Overlap {
			if res.Distance <= d.band {
				d.Near = append(d.Near, Near{Link: handmodel.Link(la), Other: handmodel.Link(lb), Distance: res.Distance, Point: res.PointA, OtherPoint: res.PointB})
			}
			return
		}
		pen = narrow.Penetration(sa, sb, &res, c)
	}
	d.Contacts = append(d.Contacts, Contact{Link: handmodel.Link(la), Other: handmodel.Link(lb), Depth: pen.Depth, Normal: pen.Normal, Point: pen.PointB, Exact: pen.Exact})
}
