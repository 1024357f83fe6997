package contact

import (
	"fmt"
	"math"

	"github.com/gloved/gloved/cab"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/narrow"
)

// Plane is a face plane of a link's hull in the link's frame: the points
// x with N·x <= D are on the inner side; N is unit and outward.
type Plane struct {
	N geom.Vec3
	D float64
}

// Link is a body's link as the contact methods see it: the convex
// polytope GJK and EPA query, its box, and what the mesh methods measure
// of it, all in the link's frame.
type Link struct {
	Poly *narrow.Polytope
	// Box bounds the polytope (a covariance fit of its vertices).
	Box geom.OBB
	// Faces are its hull's face planes, one per hull triangle; Planes are
	// the distinct ones (a facet cut into several triangles gives one).
	Faces, Planes []Plane
	// Diam is its diameter: no two of its points are farther apart.
	Diam float64
	// A capsule around it, segment A-B swept by radius R, whose distance
	// to a triangle is a tight lower bound on the link's for the finger
	// links, which are capsules themselves.
	A, B geom.Vec3
	R    float64
}

// NewLinks measures a body's links, given as convex polytopes in their
// own frames, one per link of body. Each link's box is the body's (its
// hierarchy's leaf box, which the traversal tests): one box bounds the
// link for the traversal and for the methods alike.
func NewLinks(body *cab.Body, polys []*narrow.Polytope) ([]Link, error) {
	if len(polys) != len(body.Links) {
		return nil, fmt.Errorf("contact: %d polytopes for the %d links of body %s", len(polys), len(body.Links), body.Name)
	}
	links := make([]Link, len(polys))
	for i, p := range polys {
		l, err := newLink(p, body.Links[i].Box)
		if err != nil {
			return nil, fmt.Errorf("contact: link %d: %w", i, err)
		}
		links[i] = l
	}
	return links, nil
}

// newLink measures polytope p, whose box (in its frame) is box.
func newLink(p *narrow.Polytope, box geom.OBB) (Link, error) {
	h, err := geom.ConvexHull(p.Verts)
	if err != nil {
		return Link{}, err
	}
	l := Link{Poly: p, Box: box}
	for _, t := range h.Tris {
		a, b, c := h.Verts[t[0]], h.Verts[t[1]], h.Verts[t[2]]
		n := b.Sub(a).Cross(c.Sub(a))
		if ln := n.Len(); ln > 0 {
			n = n.Mul(1 / ln)
			l.Faces = append(l.Faces, Plane{N: n, D: n.Dot(a)})
		}
	}
	l.Planes = distinctPlanes(l.Faces)
	for i, u := range p.Verts {
		for _, v := range p.Verts[i+1:] {
			l.Diam = math.Max(l.Diam, u.Sub(v).Len())
		}
	}
	axis, _ := box.MajorAxis()
	l.A, l.B = box.Center.Sub(axis.Mul(0.5)), box.Center.Add(axis.Mul(0.5))
	for _, v := range p.Verts {
		l.R = math.Max(l.R, geom.ClosestOnSegment(l.A, l.B, v).Sub(v).Len())
	}
	return l, nil
}

// coplanarTol is how far apart two unit normals, and two offsets (m), of
// a hull's face planes may be for the planes to be one: the triangles of
// one facet differ only by rounding, distinct facets by far more.
const coplanarTol = 1e-9

// distinctPlanes drops the repeats of a hull's face planes.
func distinctPlanes(all []Plane) []Plane {
	var out []Plane
	for _, p := range all {
		dup := false
		for _, q := range out {
			if p.N.Sub(q.N).Len() < coplanarTol && math.Abs(p.D-q.D) < coplanarTol {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, p)
		}
	}
	return out
}

// DepthIn returns how deep link-frame point x is inside the link (the
// distance to its nearest face) and that face's normal, or, as soon as it
// is known to be no deeper than floor, a depth <= floor.
func (l *Link) DepthIn(x geom.Vec3, floor float64) (float64, geom.Vec3) {
	depth, n := math.Inf(1), geom.Vec3{}
	for _, p := range l.Faces {
		if d := p.D - p.N.Dot(x); d < depth {
			depth, n = d, p.N
			if d <= floor {
				return d, n
			}
		}
	}
	return depth, n
}

// DepthBound bounds from above how deep inside the link any point of box
// b (in the link's frame) can be, as DepthIn measures it: the least, over
// the link's faces, of how far b reaches behind the face's plane, raised
// by its rounding (BoundTol). It returns as soon as the bound is at most
// floor.
func (l *Link) DepthBound(b *geom.OBB, floor float64) float64 {
	bound := math.Inf(1)
	for _, p := range l.Faces {
		c, r := p.N.Dot(b.Center), b.ProjectedRadius(p.N)
		if d := p.D - c + r + BoundTol*(1+math.Abs(p.D)+math.Abs(c)+r); d < bound {
			if bound = d; bound <= floor {
				return bound
			}
		}
	}
	return bound
}

// BoundTol is the margin (relative to the magnitudes summed, and at
// least as many metres) that keeps a bound computed from a box above
// what is computed, in other roundings, of the points it holds: a box
// moved into a link's frame and a vertex moved there on its own differ
// by the last bits of their world coordinates.
const BoundTol = 1e-12

// FaceGap bounds the distance from the link to triangle t (in the link's
// frame) from below by the widest gap between t and one of the link's face
// planes, stopping once the gap reaches stop: exact where the link's
// nearest feature is a face, as it is for a finger lying along a surface.
// It goes over the distinct planes, each one of the faces' own.
func (l *Link) FaceGap(t geom.Triangle, stop float64) float64 {
	gap := 0.0
	for _, p := range l.Planes {
		d := math.Min(p.N.Dot(t[0]), math.Min(p.N.Dot(t[1]), p.N.Dot(t[2]))) - p.D
		if d > gap {
			if gap = d; gap >= stop {
				return gap
			}
		}
	}
	return gap
}
