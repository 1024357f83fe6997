package narrow

import (
	"math"

	"github.com/gloved/gloved/geom"
)

// PenetrationResult is what Penetration found for overlapping shapes.
type PenetrationResult struct {
	// Depth is the length of the smallest translation of A that separates
	// the shapes (0 when they only touch), along Normal (unit): the
	// direction to push A out of B.
	Depth  float64
	Normal geom.Vec3
	// PointA is the deepest point of A inside B, PointB the matching point
	// on B's surface (PointB - PointA = Depth·Normal, up to rounding).
	PointA, PointB geom.Vec3
	// Exact is false when the expansion ran out of room or iterations; the
	// answer is then conservative: a real separating translation along
	// Normal whose length is at least the true depth.
	Exact bool
}

// The expanding polytope's fixed room. A polytope of n vertices around
// the origin has at most 2n - 4 faces; the iteration cap allows each
// vertex two tries.
const (
	epaMaxVerts = 64
	epaMaxFaces = 2 * epaMaxVerts
	epaMaxIters = 2 * epaMaxVerts
)

type epaFace struct {
	v    [3]int8
	n    geom.Vec3 // outward unit normal
	d    float64   // signed distance of the plane from the origin (> 0: behind it)
	live bool
}

// epa is the expanding polytope's fixed-size state.
type epa struct {
	tol   float64 // epaRelTol·size: the gap that ends the expansion
	see   float64 // epaSeeTol·size: how far in front of a face a vertex it sees is
	v     [epaMaxVerts]vertex
	nv    int
	f     [epaMaxFaces]epaFace
	nf    int
	edges [3 * epaMaxFaces][2]int8
}

// Penetration computes the penetration depth of two overlapping shapes by
// the expanding polytope algorithm, starting from the tetrahedron GJK ended
// with (or one grown around the origin when GJK stopped on a lower
// simplex, as touching shapes make it); d is Distance's answer for the
// same a and b. cache, which may be nil, keeps the face the answer came
// from for PenetrationCached. Like Distance it works in a's frame, reads
// the shapes only and allocates nothing: the polytope lives in fixed
// arrays, and running out of them yields a conservative, flagged answer
// rather than a wrong one.
func Penetration(a, b *Shape, d *DistanceResult, cache *Cache) PenetrationResult {
	q := newPair(a, b)
	var e epa
	e.scale(q.size)
	if !e.start(&q, &d.simplex) {
		// The difference is flat around the origin: the shapes only touch.
		if cache != nil {
			cache.deep.ok = false
		}
		n := q.centers()
		if n.LenSqr() == 0 {
			n = geom.Vec3{Z: 1}
		}
		p, _ := d.simplex.witnesses()
		r := PenetrationResult{Normal: n.Normalize().Mul(-1), PointA: p, PointB: p, Exact: true}
		return q.worldResult(r)
	}
	return q.worldResult(e.expandAll(&q, cache))
}

// PenetrationCached is Penetration for a pair queried frame after frame
// that overlapped in its last query: EPA starts near that answer, from the
// face it came from (which cache keeps) and the vertex of A - B furthest
// behind it, with no GJK. While the origin is outside the polytope (the
// answer has moved on to a neighbouring face), the expansion grows it
// toward the origin first, from the face the origin is furthest beyond.
// Every vertex is a point of A - B, so a polytope holding the origin
// proves the shapes overlap, and EPA ends on the same test as from any
// start: the answer is Penetration's, to the same tolerance. It answers
// only exact depths beyond warmMinDepth of the size: ok is false when the
// cache holds no face (the pair did not overlap), the growth met a face
// of A - B with the origin outside (the shapes are apart), the expansion
// ran out of room or iterations (its answer would be a bound, where the
// cold start may be exact), or the shapes barely touch (where touching
// and apart are the tolerances' to decide, as the cold queries do): then
// run the cold queries. It allocates nothing.
func PenetrationCached(a, b *Shape, cache *Cache) (p PenetrationResult, ok bool) {
	if !cache.deep.ok {
		return PenetrationResult{}, false
	}
	q := newPair(a, b)
	var e epa
	e.scale(q.size)
	if !e.startKept(&q, cache) && !e.startNear(&q, cache) {
		cache.deep.ok = false
		return PenetrationResult{}, false
	}
	p = e.expandAll(&q, cache)
	if !p.Exact || !(p.Depth > warmMinDepth*q.size) {
		cache.deep.ok = false
		return PenetrationResult{}, false
	}
	cache.measure(&q, 0, 0)
	cache.Axis = geom.Vec3{}
	return q.worldResult(p), true
}

// expandAll runs the expansion from the start polytope to the face
// nearest the origin, and keeps that face in cache (when not nil). Faces
// carry signed plane distances, so a start that does not hold the origin
// first grows toward it, from the face it lies furthest beyond; if the
// origin is outside A - B the answer is that face, at depth 0.
func (e *epa) expandAll(q *pair, cache *Cache) PenetrationResult {
	for iter := 0; ; iter++ {
		fi := e.closest()
		f := e.f[fi]
		w := q.support(f.n, e.v[f.v[0]].ia, e.v[f.v[0]].ib)
		upper := math.Max(w.w.Dot(f.n), f.d)
		converged := w.w.Dot(f.n)-f.d <= e.tol
		// A support point the polytope already holds, yet in front of its
		// nearest face, means rounding folded the polytope: the answer
		// is then the bound upper, flagged inexact, never a wrong depth.
		if converged || e.hasVertex(w.ia, w.ib) || e.nv == epaMaxVerts || iter >= epaMaxIters {
			if cache != nil {
				cache.keepFace(e, &f)
			}
			return e.result(&f, &e.f[e.witnessFace(fi)], upper, converged)
		}
		if !e.expand(w) {
			// Out of room part way: the faces are spent, f is not.
			if cache != nil {
				cache.deep.ok = false
			}
			return e.result(&f, &f, upper, false)
		}
	}
}

// scale sets the tolerances for shapes of the given size.
func (e *epa) scale(size float64) { e.tol, e.see = epaRelTol*size, epaSeeTol*size }

// worldResult returns r, found in the query's frame, in the world.
func (q *pair) worldResult(r PenetrationResult) PenetrationResult {
	r.Normal = q.worldDir(r.Normal)
	r.PointA, r.PointB = q.world(r.PointA), q.world(r.PointB)
	return r
}

// hasVertex reports whether the polytope holds the vertex made by A's
// vertex ia and B's ib: EPA meeting it again has converged.
func (e *epa) hasVertex(ia, ib int32) bool {
	for k := range e.nv {
		if e.v[k].ia == ia && e.v[k].ib == ib {
			return true
		}
	}
	return false
}

// result reports face f as the answer, with contact points from the
// origin's projection on face g (f itself, or one in f's plane that holds
// the projection: witnessFace). When exact, the depth is f's distance;
// otherwise it is upper, the support distance along f's normal: an upper
// bound that still separates.
func (e *epa) result(f, g *epaFace, upper float64, exact bool) PenetrationResult {
	depth := f.d
	if !exact {
		depth = upper
	}
	depth = math.Max(depth, 0)
	// Barycentric weights of the origin's projection on the face that
	// holds it.
	p := g.n.Mul(g.d)
	a, b, c := e.v[g.v[0]], e.v[g.v[1]], e.v[g.v[2]]
	l := barycentric(p, a.w, b.w, c.w)
	pa := a.a.Mul(l[0]).Add(b.a.Mul(l[1])).Add(c.a.Mul(l[2]))
	pb := a.b.Mul(l[0]).Add(b.b.Mul(l[1])).Add(c.b.Mul(l[2]))
	return PenetrationResult{Depth: depth, Normal: f.n.Mul(-1), PointA: pa, PointB: pb, Exact: exact}
}

// barycentric returns p's weights in triangle (a, b, c), clamped to the
// triangle and never NaN.
func barycentric(p, a, b, c geom.Vec3) [3]float64 {
	v, w, ok := weights(p, a, b, c)
	if !ok {
		return [3]float64{1, 0, 0}
	}
	v, w = math.Max(0, v), math.Max(0, w)
	if s := v + w; s > 1 {
		v, w = v/s, w/s
	}
	return [3]float64{1 - v - w, v, w}
}

// weights returns the weights of b and c for p in the plane of triangle
// (a, b, c), unclamped; ok is false for a triangle with no area.
func weights(p, a, b, c geom.Vec3) (v, w float64, ok bool) {
	v0, v1, v2 := b.Sub(a), c.Sub(a), p.Sub(a)
	d00, d01, d11 := v0.Dot(v0), v0.Dot(v1), v1.Dot(v1)
	d20, d21 := v2.Dot(v0), v2.Dot(v1)
	den := d00*d11 - d01*d01
	if !(math.Abs(den) > minDen) {
		return 0, 0, false
	}
	return (d11*d20 - d01*d21) / den, (d00*d21 - d01*d20) / den, true
}

// closest returns the live face nearest the origin.
func (e *epa) closest() int {
	best, bi := math.Inf(1), 0
	for i := range e.nf {
		if e.f[i].live && e.f[i].d < best {
			best, bi = e.f[i].d, i
		}
	}
	return bi
}

// addFace appends face (i, j, k). With inner set the face is turned to
// face away from that interior point; otherwise its winding (i, j, k)
// counter-clockwise seen from outside gives the normal. The plane
// distance is signed: negative while the origin is outside, or on the
// face up to rounding (result clamps the depth at 0).
func (e *epa) addFace(i, j, k int8, inner *geom.Vec3) bool {
	if e.nf == epaMaxFaces {
		return false
	}
	a := e.v[i].w
	n := e.v[j].w.Sub(a).Cross(e.v[k].w.Sub(a))
	l := n.Len()
	if !(l > 0) {
		return false
	}
	n = n.Mul(1 / l)
	if inner != nil && n.Dot(inner.Sub(a)) > 0 {
		n = n.Neg()
		j, k = k, j
	}
	f := &e.f[e.nf]
	f.v = [3]int8{i, j, k}
	f.n = n
	f.d = n.Dot(a)
	f.live = true
	e.nf++
	return true
}

// expand adds w: faces that see it are removed and the hole's rim (the
// horizon) is joined to w.
func (e *epa) expand(w vertex) bool {
	if e.nv == epaMaxVerts {
		return false
	}
	wi := int8(e.nv)
	e.v[e.nv] = w
	e.nv++
	ne := 0
	for i := range e.nf {
		f := &e.f[i]
		if !f.live || f.n.Dot(w.w) <= f.d+e.see {
			continue
		}
		f.live = false
		for k := range 3 {
			a, b := f.v[k], f.v[(k+1)%3]
			// An edge shared with another removed face cancels out.
			found := -1
			for m := range ne {
				if e.edges[m] == [2]int8{b, a} {
					found = m
					break
				}
			}
			if found >= 0 {
				e.edges[found] = e.edges[ne-1]
				ne--
			} else {
				if ne == len(e.edges) {
					return false
				}
				e.edges[ne] = [2]int8{a, b}
				ne++
			}
		}
	}
	if ne == 0 || !e.rim(ne) {
		return false
	}
	// Compact dead faces away before adding new ones.
	k := 0
	for i := range e.nf {
		if e.f[i].live {
			e.f[k] = e.f[i]
			k++
		}
	}
	e.nf = k
	for m := range ne {
		if !e.addFace(e.edges[m][0], e.edges[m][1], wi, nil) {
			return false
		}
	}
	return true
}

// rim reports whether the first ne edges form one closed loop, the rim
// of one region of faces: every vertex on it starts one edge and ends
// one, and following the edges from the first comes back after ne. Faces
// joined to any other rim would fold the polytope.
func (e *epa) rim(ne int) bool {
	var starts, ends [epaMaxVerts]int8
	for m := range ne {
		a, b := e.edges[m][0], e.edges[m][1]
		starts[a]++
		ends[b]++
		if starts[a] > 1 || ends[b] > 1 {
			return false
		}
	}
	at, steps := e.edges[0][1], 1
	for at != e.edges[0][0] {
		next := -1
		for m := range ne {
			if e.edges[m][0] == at {
				next = m
				break
			}
		}
		if next < 0 || steps == ne {
			return false
		}
		at, steps = e.edges[next][1], steps+1
	}
	return steps == ne
}

// across returns the third vertex of the live face holding edge b -> a,
// the neighbour across a face's edge a -> b.
func (e *epa) across(a, b int8) (int8, bool) {
	for i := range e.nf {
		g := &e.f[i]
		if !g.live {
			continue
		}
		for k := range 3 {
			if g.v[k] == b && g.v[(k+1)%3] == a {
				return g.v[(k+2)%3], true
			}
		}
	}
	return 0, false
}

// witnessFace returns the face whose weights give the contact points: fi,
// unless the origin's projection falls outside it and a coplanar face
// holds it. Where an edge of A crosses an edge of B, A - B has a
// parallelogram facet that the polytope splits into triangles at the same
// distance; rounding alone picks which is nearest, and weights clamped
// into the wrong one give points on the right edges that do not face
// each other.
func (e *epa) witnessFace(fi int) int {
	f := &e.f[fi]
	best, bi := e.inside(fi), fi
	if best >= -insideTol {
		return fi
	}
	for i := range e.nf {
		g := &e.f[i]
		if !g.live || i == fi || math.Abs(g.d-f.d) > e.tol || g.n.Sub(f.n).LenSqr() > sq(coplanarTol) {
			continue
		}
		if m := e.inside(i); m > best {
			best, bi = m, i
		}
	}
	return bi
}

// inside returns the smallest weight of the origin's projection on face
// i in that triangle: negative when it falls outside.
func (e *epa) inside(i int) float64 {
	f := &e.f[i]
	v, w, ok := weights(f.n.Mul(f.d), e.v[f.v[0]].w, e.v[f.v[1]].w, e.v[f.v[2]].w)
	if !ok {
		return math.Inf(-1)
	}
	return min(1-v-w, v, w)
}
