package narrow

import (
	"math"

	"github.com/gloved/gloved/geom"
)

// start builds the initial tetrahedron around the origin from GJK's
// simplex, growing a lower simplex with supports along directions normal
// to it. It reports false when no solid tetrahedron exists (the Minkowski
// difference is flat where the origin is).
func (e *epa) start(q *pair, s *simplex) bool {
	e.nv = 0
	for k := range s.count {
		e.v[e.nv] = s.v[k]
		e.nv++
	}
	for e.nv < 4 {
		dirs, ok := e.growDirs()
		if !ok {
			// Three collinear vertices: drop the last and grow anew.
			e.nv = 2
			continue
		}
		if !e.grow(q, &dirs) {
			return false
		}
	}
	return e.seal(q.size)
}

// startKept rebuilds the last answer's whole polytope, which cache keeps
// when it was small, as the shapes are now. It reports whether that
// polytope is still one EPA may go on from: convex (every vertex behind
// every face, to keptFlatTol of the size: faces split from one facet of
// A - B stay coplanar under any motion, so rounding alone decides their
// fold) and holding the origin inside each face by more than overlapTol.
func (e *epa) startKept(q *pair, c *Cache) bool {
	k := &c.kept
	if k.nf == 0 {
		return false
	}
	for i := range int(k.nv) {
		if !q.valid(k.v[i][0], k.v[i][1]) {
			return false
		}
		e.v[i] = q.vertex(k.v[i][0], k.v[i][1])
	}
	e.nv, e.nf = int(k.nv), 0
	for _, f := range k.f[:k.nf] {
		if !e.addFace(f[0], f[1], f[2], nil) {
			return false
		}
	}
	tol, flat := overlapTol*q.size, keptFlatTol*q.size
	for i := range e.nf {
		f := &e.f[i]
		if f.d <= tol {
			return false
		}
		lim := f.d + flat
		for j := range e.nv {
			if f.n.Dot(e.v[j].w) > lim {
				return false
			}
		}
	}
	return true
}

// startNear builds the start polytope near the pair's last answer: the
// deepest face cache keeps, as the shapes are now, the vertex of A - B
// furthest behind it, and the vertices across the face's edges. The
// origin may lie outside it (expandAll grows toward it). It reports false
// when the cache's vertices are not these shapes' or the start is flat.
func (e *epa) startNear(q *pair, c *Cache) bool {
	var near [6]vertex
	for k := range int(c.deep.n) {
		if !q.valid(c.deep.ia[k], c.deep.ib[k]) {
			return false
		}
		near[k] = q.vertex(c.deep.ia[k], c.deep.ib[k])
	}
	copy(e.v[:3], near[:3])
	n := e.v[1].w.Sub(e.v[0].w).Cross(e.v[2].w.Sub(e.v[0].w))
	if !(n.LenSqr() > 0) {
		return false
	}
	e.v[3] = q.support(n.Mul(-1), e.v[0].ia, e.v[0].ib)
	e.nv = 4
	if !e.seal(q.size) {
		return false
	}
	for _, w := range near[3:c.deep.n] {
		if !e.hasVertex(w.ia, w.ib) && e.sees(w) && !e.expand(w) {
			return false
		}
	}
	return true
}

// sees reports whether some face has w in front of it: whether w is
// outside the polytope.
func (e *epa) sees(w vertex) bool {
	for i := range e.nf {
		f := &e.f[i]
		if f.live && f.n.Dot(w.w) > f.d+e.see {
			return true
		}
	}
	return false
}

// growDirs returns the directions (in the query's frame) in which to look
// for a new vertex: the axes around one vertex, normals of the segment
// around two, the triangle's two normals around three. It reports false
// for three collinear vertices, which have no normal.
func (e *epa) growDirs() ([6]geom.Vec3, bool) {
	axes := [3]geom.Vec3{{X: 1}, {Y: 1}, {Z: 1}}
	var dirs [6]geom.Vec3
	switch e.nv {
	case 1:
		for k, x := range axes {
			dirs[2*k], dirs[2*k+1] = x, x.Mul(-1)
		}
	case 2:
		ab := e.v[1].w.Sub(e.v[0].w)
		u := ab.Cross(axes[minAxis(ab)]).Normalize()
		v := ab.Cross(u).Normalize()
		dirs = [6]geom.Vec3{u, u.Mul(-1), v, v.Mul(-1), u.Add(v), u.Add(v).Mul(-1)}
	case 3:
		n := e.v[1].w.Sub(e.v[0].w).Cross(e.v[2].w.Sub(e.v[0].w))
		if n.LenSqr() == 0 {
			return dirs, false
		}
		n = n.Normalize()
		dirs[0], dirs[1] = n, n.Mul(-1)
	}
	return dirs, true
}

// grow adds the supports along dirs that are new vertices, stopping at
// three (so that the fourth comes from the triangle's normals) or four.
// It reports whether any was added.
func (e *epa) grow(q *pair, dirs *[6]geom.Vec3) bool {
	grown := false
	for _, d := range dirs {
		if e.nv < 4 && d.LenSqr() > 0 && e.add(q, d) {
			grown = true
			if e.nv == 3 {
				break
			}
		}
	}
	return grown
}

// add appends the support of A - B along d unless it is within
// distinctTol of a vertex already held.
func (e *epa) add(q *pair, d geom.Vec3) bool {
	w := q.support(d, 0, 0)
	for k := range e.nv {
		if e.v[k].w.Sub(w.w).LenSqr() <= sq(distinctTol*q.size) {
			return false
		}
	}
	e.v[e.nv] = w
	e.nv++
	return true
}

// seal checks that the four vertices span a volume and makes them the
// start polytope's faces.
func (e *epa) seal(size float64) bool {
	v0, v1, v2, v3 := e.v[0].w, e.v[1].w, e.v[2].w, e.v[3].w
	vol := v1.Sub(v0).Cross(v2.Sub(v0)).Dot(v3.Sub(v0))
	if math.Abs(vol) <= flatTol*size*size*size {
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

// centroid returns the mean of the polytope's vertices.
func (e *epa) centroid() geom.Vec3 {
	var c geom.Vec3
	for k := range e.nv {
		c = c.Add(e.v[k].w)
	}
	return c.Mul(1 / float64(e.nv))
}

// minAxis returns the index of v's smallest coordinate: the axis furthest
// from v's direction.
func minAxis(v geom.Vec3) int {
	k := 0
	for i := 1; i < 3; i++ {
		if math.Abs(v.At(i)) < math.Abs(v.At(k)) {
			k = i
		}
	}
	return k
}
