package narrow

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// PenetrationResult is what Penetration found for overlapping shapes.
type PenetrationResult struct {
	// Depth is the length of the smallest translation of A that separates
	// the shapes (0 when they only touch), along Normal (unit): the
	// direction to push A out of B.
	Depth  float64
	Normal mgl64.Vec3
	// PointA is the deepest point of A inside B, PointB the matching point
	// on B's surface (PointB - PointA = Depth·Normal, up to rounding).
	PointA, PointB mgl64.Vec3
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
	n    mgl64.Vec3 // outward unit normal
	d    float64    // distance of the plane from the origin
	live bool
}

// epa is the expanding polytope's fixed-size state.
type epa struct {
	tol   float64 // epaRelTol·size: the gap that ends the expansion
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
// same a and b. Like Distance it works in a's frame, reads the shapes
// only and allocates nothing: the polytope lives in fixed arrays, and
// running out of them yields a conservative, flagged answer rather than a
// wrong one.
func Penetration(a, b *Shape, d *DistanceResult) PenetrationResult {
	q := newPair(a, b)
	var e epa
	if !e.start(&q, &d.simplex) {
		// The difference is flat around the origin: the shapes only touch.
		n := q.centers()
		if n.LenSqr() == 0 {
			n = mgl64.Vec3{0, 0, 1}
		}
		p, _ := d.simplex.witnesses()
		r := PenetrationResult{Normal: n.Normalize().Mul(-1), PointA: p, PointB: p, Exact: true}
		return q.worldResult(r)
	}
	e.tol = epaRelTol * q.size
	for iter := 0; ; iter++ {
		fi := e.closest()
		f := &e.f[fi]
		w := q.support(f.n, e.v[f.v[0]].ia, e.v[f.v[0]].ib)
		gap := w.w.Dot(f.n) - f.d
		known := e.hasVertex(w.ia, w.ib)
		if gap <= e.tol || known || e.nv == epaMaxVerts || iter >= epaMaxIters {
			return q.worldResult(e.result(fi, math.Max(w.w.Dot(f.n), f.d), gap <= e.tol || known))
		}
		if !e.expand(w) {
			return q.worldResult(e.result(fi, math.Max(w.w.Dot(f.n), f.d), false))
		}
	}
}

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

// result reports face fi as the answer. When exact, the depth is the
// face's distance; otherwise depth is the support distance along its
// normal, an upper bound that still separates.
func (e *epa) result(fi int, upper float64, exact bool) PenetrationResult {
	f := &e.f[fi]
	depth := f.d
	if !exact {
		depth = upper
	}
	depth = math.Max(depth, 0)
	// Barycentric weights of the origin's projection on the face that
	// holds it.
	g := &e.f[e.witnessFace(fi)]
	p := g.n.Mul(g.d)
	a, b, c := e.v[g.v[0]], e.v[g.v[1]], e.v[g.v[2]]
	l := barycentric(p, a.w, b.w, c.w)
	pa := a.a.Mul(l[0]).Add(b.a.Mul(l[1])).Add(c.a.Mul(l[2]))
	pb := a.b.Mul(l[0]).Add(b.b.Mul(l[1])).Add(c.b.Mul(l[2]))
	return PenetrationResult{Depth: depth, Normal: f.n.Mul(-1), PointA: pa, PointB: pb, Exact: exact}
}

// barycentric returns p's weights in triangle (a, b, c), clamped to the
// triangle and never NaN.
func barycentric(p, a, b, c mgl64.Vec3) [3]float64 {
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
func weights(p, a, b, c mgl64.Vec3) (v, w float64, ok bool) {
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
// distance is clamped at 0: the origin is inside, up to rounding.
func (e *epa) addFace(i, j, k int8, inner *mgl64.Vec3) bool {
	if e.nf == epaMaxFaces {
		return false
	}
	a, b, c := e.v[i].w, e.v[j].w, e.v[k].w
	n := b.Sub(a).Cross(c.Sub(a))
	l := n.Len()
	if !(l > 0) {
		return false
	}
	n = n.Mul(1 / l)
	if inner != nil && n.Dot(inner.Sub(a)) > 0 {
		n = n.Mul(-1)
		j, k = k, j
	}
	e.f[e.nf] = epaFace{v: [3]int8{i, j, k}, n: n, d: math.Max(n.Dot(a), 0), live: true}
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
		if !f.live || f.n.Dot(w.w.Sub(e.v[f.v[0]].w)) <= 0 {
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
	if ne == 0 {
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
