package narrow

import (
	"math"

	"github.com/gloved/gloved/geom"
)

// simplex holds up to four vertices of A - B (in the query's frame) and
// the barycentric weights of its point closest to the origin.
type simplex struct {
	v     [4]vertex
	bc    [4]float64
	count int
}

// has reports whether the simplex holds the vertex made by A's vertex ia
// and B's ib: GJK meeting it again has converged.
func (s *simplex) has(ia, ib int32) bool {
	for k := range s.count {
		if s.v[k].ia == ia && s.v[k].ib == ib {
			return true
		}
	}
	return false
}

// witnesses returns the closest points on A and B (in the query's frame)
// from the weights.
func (s *simplex) witnesses() (geom.Vec3, geom.Vec3) {
	var pa, pb geom.Vec3
	for k := range s.count {
		pa = pa.Add(s.v[k].a.Mul(s.bc[k]))
		pb = pb.Add(s.v[k].b.Mul(s.bc[k]))
	}
	return pa, pb
}

// solve reduces the simplex to the smallest face holding the point closest
// to the origin, sets the weights, and returns that point; inside reports
// a tetrahedron that contains the origin.
func (s *simplex) solve() (geom.Vec3, bool) {
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

func (s *simplex) segment(i, j int) geom.Vec3 {
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
func (s *simplex) triangle(i, j, k int) geom.Vec3 {
	a, b, c := s.v[i].w, s.v[j].w, s.v[k].w
	ab, ac := b.Sub(a), c.Sub(a)
	n := ab.Cross(ac)
	if n.LenSqr() <= collinearTol*collinearTol*ab.LenSqr()*ac.LenSqr() {
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
func (s *simplex) bestEdge(i, j, k int) geom.Vec3 {
	best := math.Inf(1)
	var bs simplex
	var bp geom.Vec3
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
func (s *simplex) tetra() (geom.Vec3, bool) {
	faces := [4][4]int{{0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 3, 1}, {1, 2, 3, 0}}
	vol := s.v[1].w.Sub(s.v[0].w).Cross(s.v[2].w.Sub(s.v[0].w)).Dot(s.v[3].w.Sub(s.v[0].w))
	scale := 0.0
	for k := range 4 {
		scale = math.Max(scale, s.v[k].w.LenSqr())
	}
	flat := math.Abs(vol) <= flatTol*scale*math.Sqrt(scale)
	best := math.Inf(1)
	var bs simplex
	var bp geom.Vec3
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
		return geom.Vec3{}, true
	}
	*s = bs
	return bp, false
}
