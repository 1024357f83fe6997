package mesh

import (
	"math"

	"github.com/gloved/gloved/contact"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/narrow"
)

// bandSlack is how much farther than the proximity band (m) the bound
// on a link's distance is raised when nothing is within the band.
const bandSlack = 0.01

// raiseBudget is how many references (entries of the last search's cut,
// and nodes taken from the stack, each of whose two children is
// measured) the search that raises that bound may take: enough, near a
// mesh of up to some hundred thousand triangles, to reach the nearest
// triangle within band+slack (the grasp over the 6k spot model passes
// 169 of 300 frames over with it, 135 with 48, as many unbounded), and a
// bound on the cost where a finger runs along a mesh of a million.
var raiseBudget = 200 // a variable for the tests, which try it small

// boxDistanceTol is the relative slack taken off GJK's distance from a
// link to a tree node's box so that it stays a lower bound: GJK stops
// within 1e-12 of |v|² (so about 1e-6 of the distance) above it.
const boxDistanceTol = 1e-6

// clearOf handles link l near object o (its index in the scene), in a
// frame where it touches none of its triangles: it is then wholly
// outside, or wholly inside a solid (a contact), and, outside, near when
// within the band. It records the clearance that lets the next frames
// pass the pair over (Clear).
func (o *Object) clearOf(link *narrow.Shape, l, obj int, out *contact.Results) {
	cl := &o.clear[l]
	if o.solid && o.grid != nil {
		if in, sure := o.grid.Side(link.X.Apply(link.P.Verts[0])); sure && in {
			*cl = contact.Clearance{} // wholly inside, as the grid knows: no near search
			o.enclosed(link, l, obj, out)
			return
		}
	}
	limit := o.opt.Proximity * (1 + 2*boxDistanceTol) // the search's: a hair beyond the band (below)
	if o.crosses && cl.Holds(&o.links[l], link.X, limit) {
		// Still beyond the search's limit, as an earlier frame measured, but a
		// surface that crosses itself can have the link change sides
		// away from it (Clear): only that is asked again.
		if o.insideSolid(link.X.Apply(link.P.Verts[0]), l*o.maxVerts) {
			o.enclosed(link, l, obj, out)
		}
		return
	}
	// The nearest triangle within the band: the answer. (A hair beyond
	// the band: GJK's distance, warm started, can exceed the true one by
	// its tolerance, and the answer is the distance measured cold, the
	// same whatever the search met first.) Finding none, the search
	// leaves a lower bound on the distance, from the boxes and triangles
	// it passed over, which lets the next frames pass the pair over until
	// the link has moved as far less the band: raised toward band+slack
	// from where the search stopped, within a budget, so that a hand that
	// mostly hovers keeps its clearances for many frames at little cost
	// on a large mesh.
	near, inside, found, floor := o.nearestTri(link, l, obj, limit, 0)
	if !found && floor < o.opt.Proximity+bandSlack && !o.opt.NoAccel {
		// Both floors are bounds on the distance; the raised one can come
		// out lower where the budget ran out on a box GJK measured only
		// roughly.
		_, _, _, raised := o.nearestTri(link, l, obj, o.opt.Proximity+bandSlack, raiseBudget)
		floor = math.Max(floor, raised)
	}
	if !found && o.solid {
		// Nothing within the band: one vertex tells in from out, the grid
		// where its cell is clear of the surface.
		inside = o.insideSolid(link.X.Apply(link.P.Verts[0]), l*o.maxVerts)
	}
	if inside && o.solid {
		*cl = contact.Clearance{}
		if o.enclosed(link, l, obj, out) {
			return
		}
		// Not every vertex is inside: only a solid that crosses itself
		// (or rounding at its surface) says so; the link is then near.
	}
	*cl = contact.Clearance{X: link.X, Dist: floor * (1 - boxDistanceTol)}
	if found {
		// GJK's distance can exceed the true one by its tolerance (1e-12
		// of |v|², so 1e-6 of it at most): a bound taken a part in a
		// million lower stays below it.
		cl.Dist = near.Distance * (1 - boxDistanceTol)
		if near.Distance <= o.opt.Proximity {
			out.Near = append(out.Near, near)
		}
	}
	if o.solid && !inside {
		o.clearVerts(link, l, cl.Dist) // each vertex is as far out as the link
	}
}

// insideSolid reports whether point p is inside the solid: from the grid
// where its cell is clear of the surface, else from the nearest surface
// point, the search starting from hint slot h.
func (o *Object) insideSolid(p geom.Vec3, h int) bool {
	if o.grid != nil {
		if in, sure := o.grid.Side(p); sure {
			return in
		}
	}
	n, ok := o.nearest.Nearest(o.surf, p, math.Inf(1), o.hints[h])
	return ok && n.Inside
}

// triGap is a lower bound on the distance between a triangle and a box:
// the widest gap between their projections on the box's axes and the
// triangle's normal.
func triGap(t geom.Triangle, b *geom.OBB) float64 {
	gap := 0.0
	for i, h := range [3]float64{b.Half.X, b.Half.Y, b.Half.Z} {
		u := b.Axis(i)
		c := u.Dot(b.Center)
		p0, p1, p2 := u.Dot(t[0]), u.Dot(t[1]), u.Dot(t[2])
		lo, hi := math.Min(p0, math.Min(p1, p2)), math.Max(p0, math.Max(p1, p2))
		gap = math.Max(gap, math.Max(lo-(c+h), (c-h)-hi))
	}
	if n := t.Normal(); n.LenSqr() > 0 {
		n = n.Normalize()
		gap = math.Max(gap, math.Abs(n.Dot(t[0].Sub(b.Center)))-b.ProjectedRadius(n))
	}
	return gap
}

// boxBound bounds the distance from the link to box b from below, for a
// node of an object's tree: as tight as GJK's distance, which the boxes'
// gap along their axes can underestimate by the size of the link's box's
// empty corners, but run only until it is known whether the box is
// beyond limit (narrow.Separation).
func (o *Object) boxBound(link *narrow.Shape, b *geom.OBB, limit float64) float64 {
	b.Corners(&o.corner)
	o.boxPoly.Verts = o.corner[:]
	o.boxPoly.Measure()
	sh := narrow.Shape{P: &o.boxPoly, X: geom.Identity()}
	return narrow.Separation(link, &sh, limit, &o.boxCache) * (1 - boxDistanceTol)
}
