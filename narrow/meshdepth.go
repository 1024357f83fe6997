package narrow

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/traversal"
)

// plane is a face of a link's hull in the link's frame: the points x with
// N·x <= D are on the inner side; N is unit and outward.
type plane struct {
	N mgl64.Vec3
	D float64
}

// linkGeom is what the depth against a non-convex object needs of a link:
// its hull's faces, its diameter (no two of its points are farther
// apart) and a capsule around it (segment a-b swept by radius r, in the
// link's frame), whose distance to a triangle is a tight lower bound on
// the link's for the finger links, which are capsules themselves.
type linkGeom struct {
	planes []plane
	diam   float64
	a, b   mgl64.Vec3
	r      float64
}

// newLinkGeom measures polytope p, whose box (in its frame) is box.
func newLinkGeom(p *Polytope, box geom.OBB) (linkGeom, error) {
	h, err := geom.ConvexHull(p.Verts)
	if err != nil {
		return linkGeom{}, err
	}
	var g linkGeom
	for _, t := range h.Tris {
		a, b, c := h.Verts[t[0]], h.Verts[t[1]], h.Verts[t[2]]
		n := b.Sub(a).Cross(c.Sub(a))
		if l := n.Len(); l > 0 {
			n = n.Mul(1 / l)
			g.planes = append(g.planes, plane{N: n, D: n.Dot(a)})
		}
	}
	for i, u := range p.Verts {
		for _, v := range p.Verts[i+1:] {
			g.diam = math.Max(g.diam, u.Sub(v).Len())
		}
	}
	axis, _ := box.MajorAxis()
	g.a, g.b = box.Center.Sub(axis.Mul(0.5)), box.Center.Add(axis.Mul(0.5))
	for _, v := range p.Verts {
		g.r = math.Max(g.r, geom.ClosestOnSegment(g.a, g.b, v).Sub(v).Len())
	}
	return g, nil
}

// depthIn returns how deep link-frame point x is inside the link (the
// distance to its nearest face) and that face's normal, or, as soon as it
// is known to be no deeper than floor, a depth <= floor.
func (g *linkGeom) depthIn(x mgl64.Vec3, floor float64) (float64, mgl64.Vec3) {
	depth, n := math.Inf(1), mgl64.Vec3{}
	for _, p := range g.planes {
		if d := p.D - p.N.Dot(x); d < depth {
			depth, n = d, p.N
			if d <= floor {
				return d, n
			}
		}
	}
	return depth, n
}

// meshDepth fills c (link l, non-convex object o) with the depth of the
// deepest vertex of either body inside the other: a link vertex inside a
// closed object (behind an open one, away from its boundary) by its
// distance to the surface, and an object vertex inside the link by its
// distance to the link's nearest face. The point is on the object's
// surface: the nearest surface point of the link vertex, or the object
// vertex itself. It returns the nearest surface point of the link vertex
// closest to going in, for a contact of no depth (Dist +Inf if none).
func (s *Solver) meshDepth(link *Shape, inv geom.Transform, c *Contact) env.Nearest {
	var near env.Nearest
	near.Dist = math.Inf(1)
	s.objectVerticesIn(link, inv, c.Object, c)
	s.linkVerticesIn(link, c.Link, c.Object, c, &near)
	return near
}

// shallow fills a contact of no depth, where the link and the object
// cross edge against edge with no vertex of either inside the other: the
// point is the surface point nearest to the link vertex closest to going
// in, or failing one (every link vertex is beside an open surface's
// boundary) a corner of tri, a triangle of the object's tree it touches.
func (s *Solver) shallow(c *Contact, near *env.Nearest, tri int32) {
	if !math.IsInf(near.Dist, 1) {
		c.Point, c.Normal = near.Point, near.Out
		return
	}
	t := s.ObjectTree(c.Object).Mesh.Triangle(int(tri))
	c.Point, c.Normal = t[0], t.Normal()
	if c.Normal.LenSqr() > 0 {
		c.Normal = c.Normal.Normalize()
	}
}

// linkVerticesIn raises c to the deepest link vertex inside object o and
// keeps in near the nearest surface point of the link vertex closest to
// going in. Every link vertex is within the link's diameter of the
// surface where the link touches it, which bounds each search.
func (s *Solver) linkVerticesIn(link *Shape, l, o int, c *Contact, near *env.Nearest) {
	surf, g := s.surfs[o], &s.geoms[l]
	hints := s.hints[s.hintBase(l, o):]
	var bounds geom.OBB
	if surf.Closed {
		bounds = surf.Tree.Bounds()
	}
	for i, v := range link.P.Verts {
		w := link.X.Apply(v)
		if surf.Closed && bounds.DistSqTo(w) > 0 {
			continue // outside a closed object's box: outside it
		}
		if c.Depth > 0 && s.hintReach(surf, hints[i], w) <= c.Depth {
			continue // no deeper than the deepest so far
		}
		n, ok := s.nearest.Nearest(surf, w, g.diam, hints[i])
		if !ok {
			continue
		}
		hints[i] = n.Tri
		switch {
		case n.Inside && n.Dist > c.Depth:
			c.Depth, c.Point, c.Normal = n.Dist, n.Point, n.Out
		case !n.Inside && !n.Boundary && n.Dist < near.Dist:
			*near = n
		}
	}
}

// hintReach bounds the distance from w to surface surf by its distance to
// tree triangle hint (+Inf without one): a vertex no farther than the
// deepest so far from some surface point cannot be deeper.
func (s *Solver) hintReach(surf *env.Surface, hint int32, w mgl64.Vec3) float64 {
	if hint < 0 || int(hint) >= len(surf.Tris) {
		return math.Inf(1)
	}
	q, _ := geom.ClosestOnTriangle(surf.Tree.Mesh.Triangle(int(hint)), w)
	return q.Sub(w).Len()
}

// objectVerticesIn raises c to the deepest vertex of object o inside the
// link (inv is the link's pose inverted): the link must move against its
// nearest face's normal to clear it. It searches the object's tree deepest
// box first, and skips every box that cannot reach deeper into the link's
// box than the deepest vertex found so far.
func (s *Solver) objectVerticesIn(link *Shape, inv geom.Transform, o int, c *Contact) {
	g, t := &s.geoms[c.Link], s.surfs[o].Tree
	box := s.boxes[c.Link].Transformed(link.X)
	s.nextStamp()
	// Keys are minus the bound on depth, so that the nearer-first search
	// takes the deepest first and prunes what cannot beat c.Depth.
	key := func(b *geom.OBB) float64 { return -reachInto(&box, b) }
	st := append(s.band[:0], traversal.Pending{Ref: t.Root, LB: -math.Inf(1)})
	for len(st) > 0 {
		r := st[len(st)-1]
		st = st[:len(st)-1]
		if r.LB >= -c.Depth {
			continue
		}
		k, ok := env.Leaf(r.Ref)
		if !ok {
			st = traversal.PushNearer(t, st, r, -c.Depth, key)
			continue
		}
		for _, v := range t.Mesh.Tris[k] {
			if s.stamp[v] == s.stampGen {
				continue // a corner of a triangle already reached
			}
			s.stamp[v] = s.stampGen
			w := t.Mesh.Verts[v]
			if d, n := g.depthIn(inv.Apply(w), c.Depth); d > c.Depth {
				c.Depth, c.Point, c.Normal = d, w, link.X.Rotate(n).Mul(-1)
			}
		}
	}
	s.band = st
}

// reachInto bounds how deep any point of box b can be inside box a: the
// least, over a's six faces, of how far b reaches behind the face.
func reachInto(a, b *geom.OBB) float64 {
	d := b.Center.Sub(a.Center)
	reach := math.Inf(1)
	for i := range 3 {
		u := a.Axis(i)
		p, r := d.Dot(u), b.ProjectedRadius(u)
		reach = math.Min(reach, math.Min(a.Half[i]-(p-r), a.Half[i]+(p+r)))
	}
	return reach
}

// nextStamp starts a new generation of vertex stamps.
func (s *Solver) nextStamp() {
	s.stampGen++
	if s.stampGen == 0 {
		clear(s.stamp)
		s.stampGen = 1
	}
}

// hintBase is where pair (l, o)'s per-vertex search hints start.
func (s *Solver) hintBase(l, o int) int { return (l*len(s.scene.Objects) + o) * s.maxVerts }

// enclosed handles link l against closed object o when no triangle of o
// meets the link: the link is then wholly inside or wholly outside, and
// one vertex tells which. Inside, it is a contact of no triangles whose
// depth is its deepest vertex's. It reports whether the link is inside.
func (s *Solver) enclosed(link *Shape, l, o int) bool {
	surf := s.surfs[o]
	hints := s.hints[s.hintBase(l, o):]
	c := Contact{Link: l, Object: o, Exact: true}
	for i, v := range link.P.Verts {
		n, ok := s.nearest.Nearest(surf, link.X.Apply(v), math.Inf(1), hints[i])
		if !ok {
			return false
		}
		hints[i] = n.Tri
		if !n.Inside {
			return false
		}
		if n.Dist > c.Depth || i == 0 {
			c.Depth, c.Point, c.Normal = n.Dist, n.Point, n.Out
		}
	}
	s.Contacts = append(s.Contacts, c)
	return true
}
