package narrow

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/traversal"
)

// bandSlack is how much farther than the proximity band (m) the nearest
// triangle is looked for. Finding nothing within band+slack lets the next
// frames skip the search until the link has moved slack: the frame
// coherence of a hand that mostly hovers.
const bandSlack = 0.01

// clearance is what a (link, non-convex object) pair knows between
// frames: at link pose x the link was outside the object (or in front of
// an open surface) and at least dist from it. dist 0 knows nothing.
type clearance struct {
	x    geom.Transform
	dist float64
}

// moved bounds how far any point of link l has gone from pose a to pose b:
// the origin's move plus the rotation's angle times the link's radius.
func (s *Solver) moved(l int, a, b geom.Transform) float64 {
	r := b.R.Mul3(a.R.Transpose())
	c := math.Max(-1, math.Min(1, (r[0]+r[4]+r[8]-1)/2))
	return b.T.Sub(a.T).Len() + math.Acos(c)*s.links[l].size()
}

// clearOf handles link l near non-convex object o, in a frame where it
// touches none of o's triangles: it is then wholly outside o, or wholly
// inside a closed o (a contact), and, outside, near when within the band.
// The previous frame's clearance skips both questions while the link
// cannot have reached the surface.
func (s *Solver) clearOf(link *Shape, l, o int) {
	k := l*len(s.scene.Objects) + o
	cl := &s.clear[k]
	if cl.dist > 0 && s.moved(l, cl.x, link.X) < cl.dist-s.Proximity {
		return
	}
	limit := s.Proximity + bandSlack
	near, inside, found := s.nearestTri(link, l, o, limit)
	if !found && s.surfs[o].Closed {
		// Nothing within the limit: one vertex tells in from out.
		n, ok := s.nearest.Nearest(s.surfs[o], link.X.Apply(link.P.Verts[0]), math.Inf(1), s.hints[s.hintBase(l, o)])
		inside = ok && n.Inside
	}
	if inside && s.surfs[o].Closed {
		*cl = clearance{}
		s.enclosed(link, l, o)
		return
	}
	*cl = clearance{x: link.X, dist: limit}
	if found {
		cl.dist = near.Distance
		if near.Distance <= s.Proximity {
			s.Near = append(s.Near, near)
		}
	}
}

// nearestTri finds the triangle of non-convex object o nearest to link l
// within limit: depth first, nearer box first, from last frame's nearest
// triangle, pruning boxes whose distance to the link's box is beyond the
// best so far. It reports whether the link's nearest point is inside a
// closed object (behind an open one), by the side of the triangle's
// feature at the nearest point.
func (s *Solver) nearestTri(link *Shape, l, o int, limit float64) (Near, bool, bool) {
	surf := s.surfs[o]
	t := surf.Tree
	k := l*len(s.scene.Objects) + o
	box := s.boxes[l].Transformed(link.X)
	g := &s.geoms[l]
	ca, cb := link.X.Apply(g.a), link.X.Apply(g.b)
	inv := link.X.Inverse()
	best := Near{Link: l, Object: o, Distance: limit}
	bestTri := int32(-1)
	try := func(i int32) {
		s.setTriangle(surf.Tris[i])
		sh := Shape{P: &s.tri, X: geom.Identity()}
		if d := Distance(link, &sh, &s.caches[k]); d.Distance < best.Distance || (bestTri < 0 && d.Distance <= best.Distance) {
			best.Distance, best.Point, best.LinkPoint, bestTri = d.Distance, d.PointB, d.PointA, i
		}
	}
	if h := s.nearHint[k]; h >= 0 && int(h) < len(surf.Tris) {
		try(h)
	}
	st := append(s.band[:0], traversal.Pending{Ref: t.Root})
	gap := func(b *geom.OBB) float64 {
		if g := boxGap(&box, b); g >= best.Distance {
			return g
		}
		return s.boxDistance(link, b)
	}
	for len(st) > 0 {
		r := st[len(st)-1]
		st = st[:len(st)-1]
		if r.LB > best.Distance {
			continue
		}
		if i, ok := env.Leaf(r.Ref); ok {
			if i == s.nearHint[k] {
				continue
			}
			tri := t.Mesh.Triangle(int(i))
			if triGap(tri, &box) < best.Distance && geom.SegmentTriangleDist(ca, cb, tri)-g.r < best.Distance &&
				g.faceGap(tri.Transformed(inv), best.Distance) < best.Distance {
				try(i)
			}
			continue
		}
		st = traversal.PushNearer(t, st, r, best.Distance, gap)
	}
	s.band = st
	if bestTri < 0 {
		return best, false, false
	}
	s.nearHint[k] = bestTri
	_, f := geom.ClosestOnTriangle(s.scene.Triangle(int(surf.Tris[bestTri])), best.LinkPoint)
	return best, surf.Behind(bestTri, f, best.LinkPoint, best.Point), true
}

// triGap is a lower bound on the distance between a triangle and a box:
// the widest gap between their projections on the box's axes and the
// triangle's normal.
func triGap(t geom.Triangle, b *geom.OBB) float64 {
	gap := 0.0
	for i := range 3 {
		u := mgl64.Vec3{b.Axes[3*i], b.Axes[3*i+1], b.Axes[3*i+2]}
		c := u.Dot(b.Center)
		p0, p1, p2 := u.Dot(t[0]), u.Dot(t[1]), u.Dot(t[2])
		lo, hi := math.Min(p0, math.Min(p1, p2)), math.Max(p0, math.Max(p1, p2))
		gap = math.Max(gap, math.Max(lo-(c+b.Half[i]), (c-b.Half[i])-hi))
	}
	if n := t.Normal(); n.LenSqr() > 0 {
		n = n.Normalize()
		gap = math.Max(gap, math.Abs(n.Dot(t[0].Sub(b.Center)))-b.ProjectedRadius(n))
	}
	return gap
}

// boxDistance returns the distance from the link to box b: the exact
// bound for a node of an object's tree, which the boxes' gap along their
// axes can underestimate by the size of the link's box's empty corners.
func (s *Solver) boxDistance(link *Shape, b *geom.OBB) float64 {
	for i := range 8 {
		c := b.Center
		for k := range 3 {
			h := b.Half[k]
			if i&(1<<k) != 0 {
				h = -h
			}
			c = c.Add(b.Axis(k).Mul(h))
		}
		s.corner[i] = c
	}
	s.boxPoly.Verts = s.corner[:]
	s.boxPoly.measure()
	sh := Shape{P: &s.boxPoly, X: geom.Identity()}
	d := Distance(link, &sh, &s.boxCache)
	if d.Overlap {
		return 0
	}
	return d.Distance * (1 - boxDistanceTol)
}

// faceGap bounds the distance from the link to triangle t (in the link's
// frame) from below by the widest gap between t and one of the link's face
// planes, stopping once the gap reaches stop: exact where the link's
// nearest feature is a face, as it is for a finger lying along a surface.
func (g *linkGeom) faceGap(t geom.Triangle, stop float64) float64 {
	gap := 0.0
	for _, p := range g.planes {
		d := math.Min(p.N.Dot(t[0]), math.Min(p.N.Dot(t[1]), p.N.Dot(t[2]))) - p.D
		if d > gap {
			if gap = d; gap >= stop {
				return gap
			}
		}
	}
	return gap
}

// boxGap is a lower bound on the distance between two boxes: the widest
// gap between their projections on the six face axes (0 if none).
func boxGap(a, b *geom.OBB) float64 {
	d := b.Center.Sub(a.Center)
	gap := 0.0
	for _, pair := range [2][2]*geom.OBB{{a, b}, {b, a}} {
		p, q := pair[0], pair[1]
		for i := range 3 {
			u := mgl64.Vec3{p.Axes[3*i], p.Axes[3*i+1], p.Axes[3*i+2]}
			g := math.Abs(d.Dot(u)) - p.Half[i] - q.ProjectedRadius(u)
			gap = math.Max(gap, g)
		}
	}
	return gap
}
