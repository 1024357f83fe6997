package mesh

import (
	"cmp"
	"math"
	"slices"

	"github.com/gloved/gloved/contact"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/narrow"
	"github.com/gloved/gloved/traversal"
)

// meshDepth fills ct with the depth of the deepest vertex of either body
// inside the other: a link vertex inside a solid (behind an open surface,
// away from its boundary) by its distance to the surface, and an object
// vertex inside the link by its distance to the link's nearest face. The
// point is on the object's surface: the nearest surface point of the
// link vertex, or the object vertex itself. It returns the nearest
// surface point of the link vertex closest to going in, for a contact of
// no depth (Dist +Inf if none).
func (o *Object) meshDepth(link *narrow.Shape, front []int32, ct *contact.Contact) env.Nearest {
	var near env.Nearest
	near.Dist = math.Inf(1)
	// The link's vertices first: their depth, from nearest-point
	// queries that start at last frame's triangles, prunes the search of
	// the object's vertices, which has no such start (a third faster on
	// the torus).
	o.linkVerticesIn(link, ct, &near, false)
	o.objectVerticesIn(link, front, ct)
	if ct.Depth == 0 && o.leftOut {
		o.linkVerticesIn(link, ct, &near, true) // the ones proven outside, for near
	}
	return near
}

// shallow fills a contact of no depth, where the link and the object
// cross edge against edge with no vertex of either inside the other: the
// point is the surface point nearest to the link vertex closest to going
// in, or failing one (every link vertex is beside an open surface's
// boundary) a corner of tri, a triangle of the object's tree it touches,
// and the normal its face's. A triangle of no area has none: the normal
// is then the one of its line's perpendiculars nearest the way from the
// point to the link's origin at x (unitNormal): always a unit vector.
func (o *Object) shallow(ct *contact.Contact, near *env.Nearest, tri int32, x geom.Transform) {
	t := o.surf.Tree.Mesh.Triangle(int(tri))
	if !math.IsInf(near.Dist, 1) {
		ct.Point, ct.Normal = near.Point, near.Out
		if ct.Normal.LenSqr() > 0 {
			return // the query's own unit normal, as it is
		}
	} else {
		ct.Point, ct.Normal = t[0], t.Normal()
	}
	ct.Normal = unitNormal(ct.Normal, x.T.Sub(ct.Point), t)
}

// unitNormal returns n made a unit vector, or, when n is zero (a
// triangle t of no area), the component of toward perpendicular to t's
// longest edge, or failing that any unit vector perpendicular to it (t a
// point: +y).
func unitNormal(n, toward geom.Vec3, t geom.Triangle) geom.Vec3 {
	if l := n.Len(); l > 0 && !math.IsInf(l, 0) {
		return n.Normalize()
	}
	e := t[1].Sub(t[0])
	for _, f := range []geom.Vec3{t[2].Sub(t[1]), t[0].Sub(t[2])} {
		if f.LenSqr() > e.LenSqr() {
			e = f
		}
	}
	if e.LenSqr() == 0 {
		if l := toward.Len(); l > 0 && !math.IsInf(l, 0) {
			return toward.Mul(1 / l)
		}
		return geom.Vec3{Y: 1}
	}
	e = e.Normalize()
	if d := toward.Sub(e.Mul(toward.Dot(e))); d.Len() > 1e-12*toward.Len() && !math.IsInf(d.Len(), 0) {
		return d.Normalize()
	}
	// Any perpendicular: e crossed with the axis it is least along.
	axis := geom.Vec3{X: 1}
	if math.Abs(e.Y) < math.Abs(e.X) && math.Abs(e.Y) <= math.Abs(e.Z) {
		axis = geom.Vec3{Y: 1}
	} else if math.Abs(e.Z) < math.Abs(e.X) {
		axis = geom.Vec3{Z: 1}
	}
	return e.Cross(axis).Normalize()
}

// linkVerticesIn raises ct to the deepest link vertex inside the object
// and keeps in near the nearest surface point of the link vertex closest
// to going in (the lowest numbered of equals, whatever the order they
// come in). Every link vertex is within the link's diameter of the
// surface where the link touches it, which bounds each search. The first
// pass leaves out the vertices the grid puts outside a solid, which
// cannot be in it; the second (outside, only for a contact of no depth)
// takes just those, which near needs.
func (o *Object) linkVerticesIn(link *narrow.Shape, ct *contact.Contact, near *env.Nearest, outside bool) {
	lk := &o.links[ct.Link]
	hints := o.hints[ct.Link*o.maxVerts:]
	var bounds geom.OBB
	if o.solid {
		bounds = o.surf.Tree.Bounds()
	}
	if !outside {
		o.nearVert, o.depthVert, o.leftOut = -1, -1, false
	}
	vc := o.vertClears(ct.Link)
	order := o.order[:0]
	for i, v := range link.P.Verts {
		w := link.X.Apply(v)
		if o.solid && bounds.DistSqTo(w) > 0 {
			continue // outside a solid's box: outside it
		}
		if !outside {
			// Outside as the grid knows, or as the vertex's clearance
			// proves: decided once, for both passes.
			out := false
			if o.solid && o.grid != nil {
				in, sure := o.grid.Side(w)
				out = sure && !in
			}
			o.provenOut[i] = out || vc != nil && vc[i].holds(w)
			o.leftOut = o.leftOut || o.provenOut[i]
		}
		if outside != o.provenOut[i] {
			continue // the other pass's
		}
		order = append(order, vertReach{i: i, w: w, reach: o.hintReach(hints[i], w)})
	}
	// The farthest from their last triangles first: the deepest are among
	// them, and the depth they set rules the rest out sooner.
	slices.SortFunc(order, func(a, b vertReach) int {
		if c := cmp.Compare(b.reach, a.reach); c != 0 {
			return c
		}
		return cmp.Compare(a.i, b.i)
	})
	o.order = order
	for _, e := range order {
		i := e.i
		if ct.Depth > 0 && (e.reach < ct.Depth || e.reach == ct.Depth && i > o.depthVert) {
			continue // no deeper than the deepest so far (equals go to the lower vertex)
		}
		// A vertex with a surface point nearer than the deepest so far
		// cannot be deeper, and the point near is for a contact of no
		// depth: the search may stop there.
		n, ok, nearer := o.nearest.NearestBeyond(o.surf, e.w, lk.Diam, hints[i], ct.Depth)
		if nearer {
			hints[i] = n.Tri
			continue
		}
		if !ok {
			continue
		}
		hints[i] = n.Tri
		if vc != nil && !n.Inside && !n.Boundary { // outside, not just without a side
			vc[i] = vertClear{At: e.w, Dist: n.Dist}
		}
		switch {
		case n.Inside && (n.Dist > ct.Depth || n.Dist == ct.Depth && i < o.depthVert):
			ct.Depth, ct.Point, ct.Normal, o.depthVert = n.Dist, n.Point, n.Out, i
		case !n.Inside && !n.Boundary && (n.Dist < near.Dist || n.Dist == near.Dist && i < o.nearVert):
			*near, o.nearVert = n, i
		}
	}
}

// vertReach is a link vertex to query: its index, where it is, and how
// far it is from its last nearest triangle (+Inf without one).
type vertReach struct {
	i     int
	w     geom.Vec3
	reach float64
}

// hintReach bounds the distance from w to the surface by its distance to
// tree triangle hint (+Inf without one): a vertex no farther than the
// deepest so far from some surface point cannot be deeper.
func (o *Object) hintReach(hint int32, w geom.Vec3) float64 {
	t := o.surf.Tree
	if hint < 0 || int(hint) >= len(t.Mesh.Tris) {
		return math.Inf(1)
	}
	q, _ := geom.ClosestOnTriangle(t.Mesh.Triangle(int(hint)), w)
	return q.Sub(w).Len()
}

// objectVerticesIn raises ct to the deepest vertex of the object inside
// the link: the link must move against its nearest face's normal to
// clear it. Such a vertex is a corner of a triangle that meets the link's
// box, so under the front; the search takes the deepest box first, and
// skips every box that cannot reach deeper into the link's box than the
// deepest vertex found so far.
func (o *Object) objectVerticesIn(link *narrow.Shape, front []int32, ct *contact.Contact) {
	lk, t := &o.links[ct.Link], o.surf.Tree
	box := lk.Box.Transformed(link.X)
	inv := link.X.Inverse()
	o.nextStamp()
	// Keys are minus the bound on depth, so that the nearer-first search
	// takes the deepest first and prunes what cannot beat ct.Depth: first
	// how far b reaches into the link's box, then, where that is not
	// enough, behind each of its faces.
	key := func(b *geom.OBB) float64 {
		reach := reachInto(&box, b)
		if reach <= ct.Depth {
			return -reach
		}
		local := b.Transformed(inv)
		return -math.Min(reach, lk.DepthBound(&local, ct.Depth))
	}
	st := o.pending[:0]
	for i := len(front) - 1; i >= 0; i-- { // the leftmost is popped first
		lb := -math.Inf(1)
		if front[i] >= 0 {
			lb = key(t.BoxIn(front[i], &o.boxes))
		}
		st = append(st, traversal.Pending{Ref: front[i], LB: lb})
	}
	for len(st) > 0 {
		r := st[len(st)-1]
		st = st[:len(st)-1]
		if r.LB >= -ct.Depth {
			continue
		}
		k, ok := env.Leaf(r.Ref)
		if !ok {
			st = traversal.PushNearer(t, st, r, -ct.Depth, &o.boxes, key)
			continue
		}
		for _, v := range t.Mesh.Tris[k] {
			if o.stamp[v-o.vertBase] == o.stampGen {
				continue // a corner of a triangle already reached
			}
			o.stamp[v-o.vertBase] = o.stampGen
			w := t.Mesh.Verts[v]
			if d, n := lk.DepthIn(inv.Apply(w), ct.Depth); d > ct.Depth {
				ct.Depth, ct.Point, ct.Normal = d, w, link.X.Rotate(n).Mul(-1)
			}
		}
	}
	o.pending = st
}

// reachInto bounds how deep any point of box b can be inside box a: the
// least, over a's six faces, of how far b reaches behind the face, raised
// by its rounding (contact.BoundTol).
func reachInto(a, b *geom.OBB) float64 {
	d := b.Center.Sub(a.Center)
	reach := math.Inf(1)
	// The world coordinates' magnitude (their sum bounds it) sets the
	// rounding of the difference.
	scale := 1 + math.Abs(a.Center.X) + math.Abs(a.Center.Y) + math.Abs(a.Center.Z)
	for i, h := range [3]float64{a.Half.X, a.Half.Y, a.Half.Z} {
		u := a.Axis(i)
		p, r := d.Dot(u), b.ProjectedRadius(u)
		tol := contact.BoundTol * (scale + h + math.Abs(p) + r)
		reach = math.Min(reach, math.Min(h-(p-r), h+(p+r))+tol)
	}
	return reach
}

// nextStamp starts a new generation of vertex stamps.
func (o *Object) nextStamp() {
	o.stampGen++
	if o.stampGen == 0 {
		clear(o.stamp)
		o.stampGen = 1
	}
}

// enclosed handles link l against a solid none of whose triangles meets
// the link: the link is then wholly inside or wholly outside, and one
// vertex tells which, unless the surface crosses itself: then every
// vertex is asked. Inside, it is a contact of no triangles whose depth is
// its deepest vertex's. It reports whether the link is inside.
func (o *Object) enclosed(link *narrow.Shape, l, obj int, out *contact.Results) bool {
	hints := o.hints[l*o.maxVerts:]
	ct := contact.Contact{Link: l, Object: obj, Exact: true}
	for i, v := range link.P.Verts {
		w := link.X.Apply(v)
		if i > 0 && !o.crosses && o.hintReach(hints[i], w) <= ct.Depth {
			continue // no deeper than the deepest so far (and, like it, inside)
		}
		n, ok := o.nearest.Nearest(o.surf, w, math.Inf(1), hints[i])
		if !ok {
			return false
		}
		hints[i] = n.Tri
		if !n.Inside {
			return false
		}
		if n.Dist > ct.Depth || i == 0 {
			ct.Depth, ct.Point, ct.Normal = n.Dist, n.Point, n.Out
		}
	}
	out.Contacts = append(out.Contacts, ct)
	return true
}
