package handcontact

import (
	"fmt"

	"github.com/gloved/gloved/cab"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/narrow"
)

// Hand is what a hand brings to the test, fixed for its life: its
// hierarchy (whose node structure is read, never its boxes: those come
// with each Pose) and its links' convex hulls in their link frames, in
// link order. A Hand is only read, so any number of detectors on any
// goroutines may share one.
type Hand struct {
	Hier  *cab.Hierarchy
	Links []*narrow.Polytope
}

// check reports a hand whose parts do not fit together.
func (h Hand) check() error {
	if h.Hier == nil {
		return fmt.Errorf("handcontact: a hand without a hierarchy")
	}
	if n := len(h.Hier.Leaves); n != len(h.Links) {
		return fmt.Errorf("handcontact: a hierarchy of %d links for %d hulls", n, len(h.Links))
	}
	for l, p := range h.Links {
		if p == nil {
			return fmt.Errorf("handcontact: link %d has no hull", l)
		}
	}
	return nil
}

// Pose is one frame of a hand: its links' transforms (link frame to
// world) and its hierarchy's boxes refitted to them. A hand's frame loop
// copies its pose into one (Set) for other goroutines to read.
type Pose struct {
	Links         []geom.Transform
	Boxes, Leaves []geom.OBB
}

// Set copies links and the boxes of h (refitted to them) into p, reusing
// p's storage: once it has grown, Set allocates nothing.
func (p *Pose) Set(links []geom.Transform, h *cab.Hierarchy) {
	p.CopyFrom(&Pose{Links: links, Boxes: h.Boxes, Leaves: h.Leaves})
}

// CopyFrom makes p a copy of q, reusing p's storage.
func (p *Pose) CopyFrom(q *Pose) {
	p.Links = append(p.Links[:0], q.Links...)
	p.Boxes = append(p.Boxes[:0], q.Boxes...)
	p.Leaves = append(p.Leaves[:0], q.Leaves...)
}

// fits reports whether p is a pose of hand h.
func (p *Pose) fits(h *Hand) bool {
	return len(p.Links) == len(h.Links) && len(p.Leaves) == len(h.Hier.Leaves) && len(p.Boxes) == len(h.Hier.Boxes)
}

// rootBox returns the box of a pose's hierarchy root (a node, or the one
// link of a one-link body).
func rootBox(p *Pose, root int32) *geom.OBB {
	if root >= 0 {
		return &p.Boxes[root]
	}
	return &p.Leaves[^root]
}

// NewHand builds a hand model's part in the test: its CAB hierarchy over
// its links (cab.HandBody) and its links' hulls. The frame pipeline
// builds its hand with it too, so the boxes it refits are the ones the
// test reads.
func NewHand(h *handmodel.Hand) (Hand, error) {
	body, err := cab.HandBody(h)
	if err != nil {
		return Hand{}, err
	}
	hier, err := cab.Build(body)
	if err != nil {
		return Hand{}, err
	}
	links := make([]*narrow.Polytope, len(body.Links))
	for i, l := range body.Links {
		if links[i], err = narrow.NewPolytope(l.Verts, l.Tris); err != nil {
			return Hand{}, fmt.Errorf("link %s: %w", l.Name, err)
		}
	}
	return Hand{Hier: hier, Links: links}, nil
}
