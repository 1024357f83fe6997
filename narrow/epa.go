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

const (
	epaMaxVerts = 64
	epaMaxFaces = 2 * epaMaxVerts
	epaRelTol   = 1e-10
)

type epaFace struct {
	v    [3]int8
	n    mgl64.Vec3 // outward unit normal
	d    float64    // distance of the plane from the origin
	live bool
}

// epa is the expanding polytope's fixed-size state.
type epa struct {
	v     [epaMaxVerts]vertex
	nv    int
	f     [epaMaxFaces]epaFace
	nf    int
	edges [3 * epaMaxFaces][2]int8
}

// Penetration computes the penetration depth of two overlapping shapes by
// the expanding polytope algorithm, starting from the tetrahedron GJK ended
// with (or one grown around the origin when GJK stopped on a lower
// simplex, as touching shapes make it). It allocates nothing: the polytope
// lives in fixed arrays, and running out of them yields a conservative,
// flagged answer rather than a wrong one.
func Penetration(a, b *Shape, d *DistanceResult) PenetrationResult {
	var e epa
	size := shapeSize(a) + shapeSize(b)
	if !e.start(a, b, &d.simplex, size) {
		// The difference is flat around the origin: the shapes only touch.
		n := b.X.T.Sub(a.X.T)
		if n.LenSqr() == 0 {
			n = mgl64.Vec3{0, 0, 1}
		}
		n = n.Normalize().Mul(-1)
		p, _ := d.simplex.witnesses()
		return PenetrationResult{Normal: n, PointA: p, PointB: p, Exact: true}
	}
	tol := epaRelTol * size
	for iter := 0; ; iter++ {
		fi := e.closest()
		f := &e.f[fi]
		pa, ia := a.support(f.n, e.v[f.v[0]].ia)
		pb, ib := b.support(f.n.Mul(-1), e.v[f.v[0]].ib)
		w := pa.Sub(pb)
		gap := w.Dot(f.n) - f.d
		if gap <= tol || e.nv == epaMaxVerts || iter >= 2*epaMaxVerts || e.hasVertex(ia, ib) {
			exact := gap <= tol || e.hasVertex(ia, ib)
			return e.result(fi, math.Max(w.Dot(f.n), f.d), exact)
		}
		if !e.expand(vertex{w: w, a: pa, b: pb, ia: ia, ib: ib}) {
			return e.result(fi, math.Max(w.Dot(f.n), f.d), false)
		}
	}
}

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
	// Barycentric weights of the origin's projection on the face.
	p := f.n.Mul(f.d)
	a, b, c := e.v[f.v[0]], e.v[f.v[1]], e.v[f.v[2]]
	l := barycentric(p, a.w, b.w, c.w)
	pa := a.a.Mul(l[0]).Add(b.a.Mul(l[1])).Add(c.a.Mul(l[2]))
	pb := a.b.Mul(l[0]).Add(b.b.Mul(l[1])).Add(c.b.Mul(l[2]))
	return PenetrationResult{Depth: depth, Normal: f.n.Mul(-1), PointA: pa, PointB: pb, Exact: exact}
}

// barycentric returns p's weights in triangle (a, b, c), clamped to the
// triangle and never NaN.
func barycentric(p, a, b, c mgl64.Vec3) [3]float64 {
	v0, v1, v2 := b.Sub(a), c.Sub(a), p.Sub(a)
	d00, d01, d11 := v0.Dot(v0), v0.Dot(v1), v1.Dot(v1)
	d20, d21 := v2.Dot(v0), v2.Dot(v1)
	den := d00*d11 - d01*d01
	if !(math.Abs(den) > 1e-300) {
		return [3]float64{1, 0, 0}
	}
	v := (d11*d20 - d01*d21) / den
	w := (d00*d21 - d01*d20) / den
	v, w = math.Max(0, v), math.Max(0, w)
	if s := v + w; s > 1 {
		v, w = v/s, w/s
	}
	return [3]float64{1 - v - w, v, w}
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

func (e *epa) centroid() mgl64.Vec3 {
	var c mgl64.Vec3
	for k := range e.nv {
		c = c.Add(e.v[k].w)
	}
	return c.Mul(1 / float64(e.nv))
}

// start builds the initial tetrahedron around the origin from GJK's
// simplex, growing a lower simplex with supports along directions normal
// to it. It reports false when no solid tetrahedron exists (the Minkowski
// difference is flat where the origin is).
func (e *epa) start(a, b *Shape, s *simplex, size float64) bool {
	e.nv = 0
	for k := range s.count {
		e.v[e.nv] = s.v[k]
		e.nv++
	}
	add := func(d mgl64.Vec3) bool {
		pa, ia := a.support(d, 0)
		pb, ib := b.support(d.Mul(-1), 0)
		w := pa.Sub(pb)
		for k := range e.nv {
			if e.v[k].w.Sub(w).LenSqr() <= sq(1e-12*size) {
				return false
			}
		}
		e.v[e.nv] = vertex{w: w, a: pa, b: pb, ia: ia, ib: ib}
		e.nv++
		return true
	}
	axes := [3]mgl64.Vec3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
	for e.nv < 4 {
		grown := false
		var dirs [6]mgl64.Vec3
		switch e.nv {
		case 1:
			for k, x := range axes {
				dirs[2*k], dirs[2*k+1] = x, x.Mul(-1)
			}
		case 2:
			ab := e.v[1].w.Sub(e.v[0].w)
			u := ab.Cross(axes[minAxis(ab)]).Normalize()
			v := ab.Cross(u).Normalize()
			dirs = [6]mgl64.Vec3{u, u.Mul(-1), v, v.Mul(-1), u.Add(v), u.Add(v).Mul(-1)}
		case 3:
			n := e.v[1].w.Sub(e.v[0].w).Cross(e.v[2].w.Sub(e.v[0].w))
			if n.LenSqr() == 0 {
				e.nv = 2
				continue
			}
			n = n.Normalize()
			dirs = [6]mgl64.Vec3{n, n.Mul(-1), n, n.Mul(-1), n, n.Mul(-1)}
		}
		for _, d := range dirs {
			if e.nv < 4 && d.LenSqr() > 0 && add(d) {
				grown = true
				if e.nv == 3 {
					break
				}
			}
		}
		if !grown {
			return false
		}
	}
	// A tetrahedron of non-zero volume.
	v0, v1, v2, v3 := e.v[0].w, e.v[1].w, e.v[2].w, e.v[3].w
	vol := v1.Sub(v0).Cross(v2.Sub(v0)).Dot(v3.Sub(v0))
	if math.Abs(vol) <= 1e-15*size*size*size {
		return false
	}
	// Faces turned away from the centroid, which is strictly inside; GJK
	// found the origin inside too (up to rounding, which the clamp of
	// the plane distances absorbs).
	e.nf = 0
	c := e.centroid()
	for _, f := range [4][3]int8{{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}} {
		if !e.addFace(f[0], f[1], f[2], &c) {
			return false
		}
	}
	return true
}

func minAxis(v mgl64.Vec3) int {
	k := 0
	for i := 1; i < 3; i++ {
		if math.Abs(v[i]) < math.Abs(v[k]) {
			k = i
		}
	}
	return k
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
