package geom

import (
	"slices"
)

// hullEpsFactor scales the coordinate magnitude into the distance under
// which a point counts as on a hull face (qhull's and Gregorius's choice:
// a few units of rounding of the plane equation).
const hullEpsFactor = 3 * 0x1p-52

// hullFace is a triangle of the hull under construction. Its corners are
// counter-clockwise seen from outside; adj[i] is the face across edge
// (v[i], v[i+1]).
type hullFace struct {
	v       [3]int32
	adj     [3]int32
	n       Vec3    // outward unit normal
	d       float64 // plane offset: n·x = d on the face
	area    float64
	outside int32 // first point of the outside list, -1 if none
	far     int32 // farthest outside point
	farDist float64
	mark    int32 // == hull.visit: visible from the current eye
	dead    bool
}

// horizonEdge is an edge (a, b) of the visible region's boundary, seen
// from the visible side, with the face across it and that face's edge.
type horizonEdge struct {
	a, b   int32
	across int32
	edge   int8
	near   bool // the eye is within nearPlane of across's plane
}

// hullBuilder is an incremental 3-D hull (Barber, Dobkin and Huhdanpaa's
// quickhull) kept allocation-free across calls: faces, outside lists and
// the horizon live in its slices. The OBB fit needs only the hull's
// surface, so faces stay triangles and coplanar ones are not merged; a
// point within eps of a face is taken to be on it. Build reports flat
// input (hullFlat), and gives up (hullFailed) where rounding leaves a
// horizon that is not one loop: the caller then asks quickhull-go.
type hullBuilder struct {
	pts     []Vec3 // the points hulled, moved (build), in moved's storage
	moved   []Vec3
	faces   []hullFace
	free    []int32
	next    []int32 // outside lists, threaded through the points
	pending []int32 // faces that may have outside points
	visible []int32
	horizon []horizonEdge
	added   []int32
	forced  []int32 // faces made visible from the current eye (see findHorizon)
	visit   int32   // the current visibility walk
	// outsideN counts the points on outside lists: each can add at most
	// two faces to the hull (a closed triangulated surface has 2v-4).
	outsideN int
	eps      float64
	near     float64 // nearPlane times the coordinates' magnitude
}

// hullResult says how a hull build ended.
type hullResult uint8

const (
	hullMade   hullResult = iota
	hullFlat              // fewer than four points, or thinner than flatThickness of their size
	hullFailed            // rounding broke the hull's topology
)

// nearPlane is the distance, relative to the coordinates' magnitude, from
// an eye to a face it does not see within which the face's neighbour in
// the fan is checked for bending the wrong way. Farther, the orientation
// of the face's corners with the eye is far beyond rounding.
const nearPlane = 1e-6

// flatThickness is the thickness, relative to their extent, under which
// points count as flat: a hull needs three dimensions.
const flatThickness = 1e-8

// Build hulls pts. The result is read with Moments.
func (h *hullBuilder) Build(pts []Vec3) hullResult {
	h.pts = pts
	return h.run()
}

// build hulls the points src[i]-o (the fit's points moved to its first).
// The builder's buffers grow to what its largest build needed and are
// kept: the moved points and their outside lists to the most points, the
// faces to the most a hull had (growFaces).
func (h *hullBuilder) build(src []Vec3, o Vec3) hullResult {
	if cap(h.moved) < len(src) {
		h.moved = make([]Vec3, len(src))
	}
	h.moved = h.moved[:len(src)]
	for i, p := range src {
		h.moved[i] = p.Sub(o)
	}
	h.pts = h.moved
	return h.run()
}

// run hulls h.pts.
func (h *hullBuilder) run() hullResult {
	h.faces, h.free, h.pending = h.faces[:0], h.free[:0], h.pending[:0]
	h.visit, h.outsideN = 0, 0
	if len(h.pts) < 4 || !h.simplex() {
		return hullFlat
	}
	for len(h.pending) > 0 {
		f := h.pending[len(h.pending)-1]
		h.pending = h.pending[:len(h.pending)-1]
		if h.faces[f].dead || h.faces[f].outside < 0 {
			continue
		}
		if !h.add(f) {
			return hullFailed
		}
	}
	return hullMade
}

// Moments adds the hull's surface to m.
func (h *hullBuilder) Moments(m *SurfaceMoments) {
	for i := range h.faces {
		f := &h.faces[i]
		if !f.dead {
			m.addArea(h.pts[f.v[0]], h.pts[f.v[1]], h.pts[f.v[2]], f.area)
		}
	}
}

// mesh returns the hull as a mesh of its own vertices.
func (h *hullBuilder) mesh() Hull {
	index := make(map[int32]int32)
	var out Hull
	for i := range h.faces {
		f := &h.faces[i]
		if f.dead {
			continue
		}
		var t [3]int32
		for k, v := range f.v {
			j, ok := index[v]
			if !ok {
				j = int32(len(out.Verts))
				index[v] = j
				out.Verts = append(out.Verts, h.pts[v])
			}
			t[k] = j
		}
		out.Tris = append(out.Tris, t)
	}
	return out
}

// face adds face (a, b, c) with its plane and returns its index.
func (h *hullBuilder) face(a, b, c int32) int32 {
	var i int32
	if k := len(h.free); k > 0 {
		i = h.free[k-1]
		h.free = h.free[:k-1]
	} else {
		if len(h.faces) == cap(h.faces) {
			h.growFaces()
		}
		h.faces = append(h.faces, hullFace{})
		i = int32(len(h.faces) - 1)
	}
	p, q, r := h.pts[a], h.pts[b], h.pts[c]
	n := q.Sub(p).Cross(r.Sub(p))
	l := n.Len()
	n = n.Mul(1 / l)
	f := &h.faces[i]
	f.v, f.n, f.d, f.area = [3]int32{a, b, c}, n, n.Dot(p), l/2
	f.outside, f.far, f.farDist, f.mark, f.dead = -1, -1, 0, 0, false
	return i
}

// growFaces makes room for more faces, keeping the hull's: twice as
// many, but never more than the hull can come to (the faces there are,
// two for each point still outside, and the fan being made). Sizing the
// faces for the worst hull of the points (2n-4) from the start asked
// 792 MB for the 4.5M points of 1.5M random triangles, whose hull has
// some thousand faces; doubling, a hull of all its points (a sphere's
// vertices) allocates at most twice what it uses.
func (h *hullBuilder) growFaces() {
	n := len(h.faces)
	c := min(max(2*n, 256), n+2*h.outsideN+len(h.horizon)+64)
	grown := make([]hullFace, n, c)
	copy(grown, h.faces)
	h.faces = grown
}

// link makes edge i of face f and edge j of face g neighbours.
func (h *hullBuilder) link(f int32, i int, g int32, j int) {
	h.faces[f].adj[i] = g
	h.faces[g].adj[j] = f
}

// assign puts point p on the outside list of the face among fs it is
// farthest outside of, or drops it when it is inside them all.
func (h *hullBuilder) assign(p int32, fs []int32) {
	best, bestD := int32(-1), h.eps
	x := h.pts[p]
	faces := h.faces
	for _, f := range fs {
		fc := &faces[f]
		if d := fc.n.Dot(x) - fc.d; d > bestD {
			best, bestD = f, d
			break
		}
	}
	if best < 0 {
		return
	}
	fc := &faces[best]
	h.next[p] = fc.outside
	fc.outside = p
	h.outsideN++
	if bestD > fc.farDist || fc.far < 0 {
		fc.far, fc.farDist = p, bestD
	}
}

// add takes face f's farthest outside point into the hull: the faces it
// sees are replaced by a fan from it to their boundary, and their outside
// points move to the new faces.
func (h *hullBuilder) add(f int32) bool {
	eye := h.faces[f].far
	h.forced = h.forced[:0]
	for !h.findHorizon(eye, f) { // each walk again has one more face visible
	}
	if !h.closedHorizon() {
		return false
	}
	h.added = h.added[:0]
	for _, e := range h.horizon {
		g := h.face(e.a, e.b, eye)
		h.link(g, 0, e.across, int(e.edge))
		h.added = append(h.added, g)
	}
	for k, g := range h.added {
		h.link(g, 1, h.added[(k+1)%len(h.added)], 2)
	}
	for _, v := range h.visible {
		vf := &h.faces[v]
		for p := vf.outside; p >= 0; {
			nx := h.next[p]
			h.outsideN--
			if p != eye {
				h.assign(p, h.added)
			}
			p = nx
		}
		vf.dead, vf.outside = true, -1
		h.free = append(h.free, v)
	}
	h.pending = append(h.pending, h.added...)
	return true
}

// findHorizon walks the faces eye sees from f and collects the horizon.
// Rounding can leave a face the eye is nearly coplanar with outside the
// region while the fan's face over its edge would be a sliver bending the
// wrong way; such faces are marked visible and it returns false, to walk
// again.
func (h *hullBuilder) findHorizon(eye, f int32) bool {
	h.visit++
	h.visible, h.horizon = h.visible[:0], h.horizon[:0]
	h.faces[f].mark = h.visit
	h.visible = append(h.visible, f)
	for i := range 3 {
		h.crossEdge(eye, f, i)
	}
	ok := true
	x := h.pts[eye]
	for _, e := range h.horizon {
		if !e.near {
			continue
		}
		a := h.pts[e.a]
		n := h.pts[e.b].Sub(a).Cross(x.Sub(a))
		l := n.Len()
		c := h.pts[h.faces[e.across].v[(int(e.edge)+2)%3]]
		if !(l > 0) || n.Dot(c.Sub(a)) > h.eps*l {
			h.forced = append(h.forced, e.across)
			ok = false
		}
	}
	return ok
}

// crossEdge looks across edge i of visible face f: a neighbour eye sees
// joins the visible region and is walked on from the edge after the shared
// one, else the edge is on the horizon. The walk emits the horizon in
// order around the region.
func (h *hullBuilder) crossEdge(eye, f int32, i int) {
	g := h.faces[f].adj[i]
	gf := &h.faces[g]
	if gf.mark == h.visit {
		return
	}
	a, b := h.faces[f].v[i], h.faces[f].v[(i+1)%3]
	j := 0
	for gf.v[j] != b {
		j++
	}
	if d := gf.n.Dot(h.pts[eye]) - gf.d; d <= h.eps && !slices.Contains(h.forced, g) {
		h.horizon = append(h.horizon, horizonEdge{a: a, b: b, across: g, edge: int8(j), near: d > -h.near})
		return
	}
	gf.mark = h.visit
	h.visible = append(h.visible, g)
	for k := 1; k <= 2; k++ {
		h.crossEdge(eye, g, (j+k)%3)
	}
}

// closedHorizon reports whether the horizon is one loop, each edge ending
// where the next begins.
func (h *hullBuilder) closedHorizon() bool {
	n := len(h.horizon)
	if n < 3 {
		return false
	}
	for k, e := range h.horizon {
		if e.b != h.horizon[(k+1)%n].a {
			return false
		}
	}
	return true
}

// growInt32 returns s resized to n, reusing its storage when it can.
func growInt32(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	return s[:n]
}
