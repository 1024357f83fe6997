package narrow

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
)

// vertex is a point of the Minkowski difference A - B with the points of A
// and B (world) and their indices that made it.
type vertex struct {
	w, a, b mgl64.Vec3
	ia, ib  int32
}

// simplex holds up to four vertices and the barycentric weights of the
// closest point to the origin.
type simplex struct {
	v     [4]vertex
	bc    [4]float64
	count int
}

// Cache warm-starts a pair's query from its last simplex (Box2D style): the
// caller keeps one per pair across frames. A zero Cache is empty.
type Cache struct {
	count  uint8
	ia, ib [4]int32
	// Axis is the last separating direction (A to B), the Lander article's
	// cached separating plane; zero when unknown.
	Axis mgl64.Vec3
}

// Reset empties the cache (the pair disappeared).
func (c *Cache) Reset() { *c = Cache{} }

// Shape is a polytope placed in the world.
type Shape struct {
	P *Polytope
	X geom.Transform
}

// support returns the world vertex of s furthest along d (world) and its
// index.
func (s *Shape) support(d mgl64.Vec3, hint int32) (mgl64.Vec3, int32) {
	local := s.X.R.Transpose().Mul3x1(d)
	i := s.P.Support(local, hint)
	return s.X.Apply(s.P.Verts[i]), i
}

func (s *Shape) vertexAt(i int32) mgl64.Vec3 { return s.X.Apply(s.P.Verts[i]) }

// DistanceResult is what Distance found.
type DistanceResult struct {
	// Overlap: the shapes share a point (touching included); Distance is
	// then 0 and the points are not meaningful.
	Overlap bool
	// Distance between the shapes and the closest points on A and on B.
	Distance float64
	PointA   mgl64.Vec3
	PointB   mgl64.Vec3
	// Iterations of GJK; Converged is false if the iteration cap was hit,
	// in which case Distance is an upper bound (the answer is still a pair
	// of real points of A and B).
	Iterations int
	Converged  bool
	simplex    simplex
}

// Tolerances, relative to the shapes' size.
const (
	gjkRelTol   = 1e-12 // convergence: |v|² - v·w <= tol·|v|²
	overlapTol  = 1e-12 // |v| below tol·size counts as touching
	gjkMaxIters = 64
)

// Distance runs GJK between a and b, warm-started from and updating cache
// (which may be nil). It allocates nothing.
func Distance(a, b *Shape, cache *Cache) DistanceResult {
	var s simplex
	size := shapeSize(a) + shapeSize(b)
	if cache != nil && cache.count > 0 {
		for k := range int(cache.count) {
			ia, ib := cache.ia[k], cache.ib[k]
			if int(ia) >= len(a.P.Verts) || int(ib) >= len(b.P.Verts) || ia < 0 || ib < 0 {
				s.count = 0
				break
			}
			pa, pb := a.vertexAt(ia), b.vertexAt(ib)
			s.v[s.count] = vertex{w: pa.Sub(pb), a: pa, b: pb, ia: ia, ib: ib}
			s.count++
		}
	}
	if s.count == 0 {
		d := b.X.T.Sub(a.X.T)
		if d.LenSqr() == 0 {
			d = mgl64.Vec3{1, 0, 0}
		}
		pa, ia := a.support(d.Mul(-1), 0)
		pb, ib := b.support(d, 0)
		s.v[0] = vertex{w: pa.Sub(pb), a: pa, b: pb, ia: ia, ib: ib}
		s.count = 1
	}
	res := DistanceResult{Distance: math.Inf(1)}
	best := math.Inf(1)
	for res.Iterations = 0; res.Iterations < gjkMaxIters; res.Iterations++ {
		v, inside := s.solve()
		vv := v.LenSqr()
		if inside || vv <= sq(overlapTol*size) {
			res.Overlap, res.Converged = true, true
			res.Distance = 0
			break
		}
		if vv >= best {
			// No progress: rounding. The previous simplex was the answer.
			res.Converged = true
			break
		}
		best = vv
		res.simplex = s
		pa, ia := a.support(v.Mul(-1), s.v[s.count-1].ia)
		pb, ib := b.support(v, s.v[s.count-1].ib)
		w := pa.Sub(pb)
		if vv-v.Dot(w) <= gjkRelTol*vv || s.has(ia, ib) || s.count == 4 {
			res.Converged = true
			break
		}
		s.v[s.count] = vertex{w: w, a: pa, b: pb, ia: ia, ib: ib}
		s.count++
	}
	if !res.Overlap {
		if res.simplex.count == 0 {
			res.simplex = s
		}
		fin := &res.simplex
		fin.solve()
		res.PointA, res.PointB = fin.witnesses()
		res.Distance = res.PointA.Sub(res.PointB).Len()
		if cache != nil {
			cache.Axis = res.PointB.Sub(res.PointA)
		}
	} else {
		res.simplex = s
	}
	if cache != nil {
		cache.count = uint8(s.count)
		for k := range s.count {
			cache.ia[k], cache.ib[k] = s.v[k].ia, s.v[k].ib
		}
	}
	return res
}

func sq(x float64) float64 { return x * x }

// shapeSize is the shape's radius about its origin, plus a little of its
// distance from the world origin (rounding grows with coordinates).
func shapeSize(s *Shape) float64 {
	if s.P.radius == 0 && len(s.P.Verts) > 0 {
		s.P.measure() // a Polytope built without NewPolytope
	}
	return s.P.radius + s.X.T.Len()*1e-3
}

func (s *simplex) has(ia, ib int32) bool {
	for k := range s.count {
		if s.v[k].ia == ia && s.v[k].ib == ib {
			return true
		}
	}
	return false
}

// witnesses returns the closest points on A and B from the weights.
func (s *simplex) witnesses() (mgl64.Vec3, mgl64.Vec3) {
	var pa, pb mgl64.Vec3
	for k := range s.count {
		pa = pa.Add(s.v[k].a.Mul(s.bc[k]))
		pb = pb.Add(s.v[k].b.Mul(s.bc[k]))
	}
	return pa, pb
}

// solve reduces the simplex to the smallest face holding the point closest
// to the origin, sets the weights, and returns that point; inside reports
// a tetrahedron that contains the origin.
func (s *simplex) solve() (mgl64.Vec3, bool) {
	switch s.count {
	case 1:
		s.bc[0] = 1
		return s.v[0].w, false
	case 2:
		return s.segment(0, 1), false
	case 3:
		return s.triangle(0, 1, 2), false
	}
	return s.tetra()
}

// keep rewrites the simplex as the listed vertices with weights.
func (s *simplex) keep(idx []int, w []float64) {
	var v [4]vertex
	for k, i := range idx {
		v[k] = s.v[i]
	}
	s.v = v
	s.count = len(idx)
	for k := range w {
		s.bc[k] = w[k]
	}
}

func (s *simplex) segment(i, j int) mgl64.Vec3 {
	a, b := s.v[i].w, s.v[j].w
	ab := b.Sub(a)
	den := ab.LenSqr()
	t := 0.0
	if den > 0 {
		t = -a.Dot(ab) / den
	}
	switch {
	case t <= 0:
		s.keep([]int{i}, []float64{1})
		return a
	case t >= 1:
		s.keep([]int{j}, []float64{1})
		return b
	}
	s.keep([]int{i, j}, []float64{1 - t, t})
	return a.Add(ab.Mul(t))
}

// triangle is Ericson's closest point on triangle (Real-Time Collision
// Detection, 5.1.5) to the origin, reducing to the feature that holds it.
// A degenerate triangle reduces to its best edge.
func (s *simplex) triangle(i, j, k int) mgl64.Vec3 {
	a, b, c := s.v[i].w, s.v[j].w, s.v[k].w
	ab, ac := b.Sub(a), c.Sub(a)
	n := ab.Cross(ac)
	if n.LenSqr() <= 1e-24*ab.LenSqr()*ac.LenSqr() {
		return s.bestEdge(i, j, k)
	}
	ap := a.Mul(-1)
	d1, d2 := ab.Dot(ap), ac.Dot(ap)
	if d1 <= 0 && d2 <= 0 {
		s.keep([]int{i}, []float64{1})
		return a
	}
	bp := b.Mul(-1)
	d3, d4 := ab.Dot(bp), ac.Dot(bp)
	if d3 >= 0 && d4 <= d3 {
		s.keep([]int{j}, []float64{1})
		return b
	}
	vc := d1*d4 - d3*d2
	if vc <= 0 && d1 >= 0 && d3 <= 0 {
		t := d1 / (d1 - d3)
		s.keep([]int{i, j}, []float64{1 - t, t})
		return a.Add(ab.Mul(t))
	}
	cp := c.Mul(-1)
	d5, d6 := ab.Dot(cp), ac.Dot(cp)
	if d6 >= 0 && d5 <= d6 {
		s.keep([]int{k}, []float64{1})
		return c
	}
	vb := d5*d2 - d1*d6
	if vb <= 0 && d2 >= 0 && d6 <= 0 {
		t := d2 / (d2 - d6)
		s.keep([]int{i, k}, []float64{1 - t, t})
		return a.Add(ac.Mul(t))
	}
	va := d3*d6 - d5*d4
	if va <= 0 && d4-d3 >= 0 && d5-d6 >= 0 {
		t := (d4 - d3) / ((d4 - d3) + (d5 - d6))
		s.keep([]int{j, k}, []float64{1 - t, t})
		return b.Add(c.Sub(b).Mul(t))
	}
	den := 1 / (va + vb + vc)
	v, w := vb*den, vc*den
	s.keep([]int{i, j, k}, []float64{1 - v - w, v, w})
	return a.Add(ab.Mul(v)).Add(ac.Mul(w))
}

// bestEdge reduces a degenerate triangle to the closest of its edges.
func (s *simplex) bestEdge(i, j, k int) mgl64.Vec3 {
	best := math.Inf(1)
	var bs simplex
	var bp mgl64.Vec3
	for _, e := range [3][2]int{{i, j}, {j, k}, {i, k}} {
		t := *s
		p := t.segment(e[0], e[1])
		if d := p.LenSqr(); d < best {
			best, bs, bp = d, t, p
		}
	}
	*s = bs
	return bp
}

// tetra handles four vertices: the origin inside (on the inner side of
// every face) is an overlap; otherwise the closest point over the faces
// that see the origin.
func (s *simplex) tetra() (mgl64.Vec3, bool) {
	faces := [4][4]int{{0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 3, 1}, {1, 2, 3, 0}}
	vol := s.v[1].w.Sub(s.v[0].w).Cross(s.v[2].w.Sub(s.v[0].w)).Dot(s.v[3].w.Sub(s.v[0].w))
	scale := 0.0
	for k := range 4 {
		scale = math.Max(scale, s.v[k].w.LenSqr())
	}
	flat := math.Abs(vol) <= 1e-15*scale*math.Sqrt(scale)
	best := math.Inf(1)
	var bs simplex
	var bp mgl64.Vec3
	outside := false
	for _, f := range faces {
		a, b, c, d := s.v[f[0]].w, s.v[f[1]].w, s.v[f[2]].w, s.v[f[3]].w
		n := b.Sub(a).Cross(c.Sub(a))
		// The origin is outside this face if it lies on the other side
		// from the opposite vertex.
		so, sd := n.Dot(a.Mul(-1)), n.Dot(d.Sub(a))
		if !flat && so*sd > 0 {
			continue
		}
		outside = true
		t := *s
		p := t.triangle(f[0], f[1], f[2])
		if dd := p.LenSqr(); dd < best {
			best, bs, bp = dd, t, p
		}
	}
	if !outside {
		for k := range 4 {
			s.bc[k] = 0.25
		}
		return mgl64.Vec3{}, true
	}
	*s = bs
	return bp, false
}

// Intersects reports whether a and b share a point (touching included),
// stopping at the first separating direction: the boolean form of GJK,
// cheaper than Distance when the answer is no.
func Intersects(a, b *Shape) bool {
	var s simplex
	size := shapeSize(a) + shapeSize(b)
	d := b.X.T.Sub(a.X.T)
	if d.LenSqr() == 0 {
		d = mgl64.Vec3{1, 0, 0}
	}
	pa, ia := a.support(d.Mul(-1), 0)
	pb, ib := b.support(d, 0)
	s.v[0] = vertex{w: pa.Sub(pb), a: pa, b: pb, ia: ia, ib: ib}
	s.count = 1
	best := math.Inf(1)
	for range gjkMaxIters {
		v, inside := s.solve()
		vv := v.LenSqr()
		if inside || vv <= sq(overlapTol*size) {
			return true
		}
		if vv >= best {
			return false // no progress: v is (within rounding) the distance, > 0
		}
		best = vv
		pa, ia := a.support(v.Mul(-1), s.v[s.count-1].ia)
		pb, ib := b.support(v, s.v[s.count-1].ib)
		w := pa.Sub(pb)
		if v.Dot(w) > 0 {
			return false // w·v > 0: the plane normal to v separates
		}
		if vv-v.Dot(w) <= gjkRelTol*vv || s.has(ia, ib) {
			return false
		}
		s.v[s.count] = vertex{w: w, a: pa, b: pb, ia: ia, ib: ib}
		s.count++
	}
	return false
}
