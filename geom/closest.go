package geom

import (
	"math"
)

// Feature is the part of a triangle a closest point lies on: its face, one
// of its edges (EdgeAB from corner 0 to 1, EdgeBC, EdgeCA) or one of its
// corners. A signed distance needs it: the side of a surface is decided by
// the normal of the feature, not of the face (an angle-weighted
// pseudonormal at a corner, the mean of two faces on an edge).
type Feature uint8

// The features of a triangle.
const (
	Face Feature = iota
	EdgeAB
	EdgeBC
	EdgeCA
	CornerA
	CornerB
	CornerC
)

// Edge reports whether f is an edge, and which (0: AB, 1: BC, 2: CA).
func (f Feature) Edge() (int, bool) { return int(f - EdgeAB), f >= EdgeAB && f <= EdgeCA }

// Corner reports whether f is a corner, and which.
func (f Feature) Corner() (int, bool) { return int(f - CornerA), f >= CornerA }

// ClosestOnTriangle returns the point of t closest to p and the feature it
// lies on, by Voronoi regions (C. Ericson, Real-Time Collision Detection,
// 5.1.5). A degenerate triangle is handled as the segment or point it
// spans: the answer is then on an edge or a corner.
func ClosestOnTriangle(t Triangle, p Vec3) (Vec3, Feature) {
	a, b, c := t[0], t[1], t[2]
	ab, ac, ap := b.Sub(a), c.Sub(a), p.Sub(a)
	d1, d2 := ab.Dot(ap), ac.Dot(ap)
	if d1 <= 0 && d2 <= 0 {
		return a, CornerA
	}
	bp := p.Sub(b)
	d3, d4 := ab.Dot(bp), ac.Dot(bp)
	if d3 >= 0 && d4 <= d3 {
		return b, CornerB
	}
	vc := d1*d4 - d3*d2
	if vc <= 0 && d1 >= 0 && d3 <= 0 && d1-d3 > 0 {
		return a.Add(ab.Mul(d1 / (d1 - d3))), EdgeAB
	}
	cp := p.Sub(c)
	d5, d6 := ab.Dot(cp), ac.Dot(cp)
	if d6 >= 0 && d5 <= d6 {
		return c, CornerC
	}
	vb := d5*d2 - d1*d6
	if vb <= 0 && d2 >= 0 && d6 <= 0 && d2-d6 > 0 {
		return a.Add(ac.Mul(d2 / (d2 - d6))), EdgeCA
	}
	va := d3*d6 - d5*d4
	if va <= 0 && d4-d3 >= 0 && d5-d6 >= 0 && (d4-d3)+(d5-d6) > 0 {
		w := (d4 - d3) / ((d4 - d3) + (d5 - d6))
		return b.Add(c.Sub(b).Mul(w)), EdgeBC
	}
	if sum := va + vb + vc; sum > 0 {
		v, w := vb/sum, vc/sum
		return a.Add(ab.Mul(v)).Add(ac.Mul(w)), Face
	}
	return closestOnDegenerate(t, p)
}

// closestOnDegenerate is ClosestOnTriangle for a triangle of no area that
// the regions did not settle: the nearest of its three edges.
func closestOnDegenerate(t Triangle, p Vec3) (Vec3, Feature) {
	best, bestF, bestD := t[0], CornerA, math.Inf(1)
	for k := range 3 {
		a, b := t[k], t[(k+1)%3]
		q, f := ClosestOnSegment(a, b, p), Feature(EdgeAB)+Feature(k)
		if d := q.Sub(p).LenSqr(); d < bestD {
			best, bestF, bestD = q, f, d
		}
	}
	return best, bestF
}

// ClosestOnSegment returns the point of segment ab closest to p.
func ClosestOnSegment(a, b, p Vec3) Vec3 {
	ab := b.Sub(a)
	l := ab.LenSqr()
	if l == 0 {
		return a
	}
	s := p.Sub(a).Dot(ab) / l
	return a.Add(ab.Mul(math.Max(0, math.Min(1, s))))
}

// DistSqTo returns the squared distance from p to the box (0 inside).
func (b *OBB) DistSqTo(p Vec3) float64 {
	d := p.Sub(b.Center)
	var s float64
	for i, h := range [3]float64{b.Half.X, b.Half.Y, b.Half.Z} {
		if e := math.Abs(d.Dot(b.Axis(i))) - h; e > 0 {
			s += e * e
		}
	}
	return s
}

// SegmentSegmentDistSq returns the squared distance between segments pq
// and rs (C. Ericson, Real-Time Collision Detection, 5.1.9).
func SegmentSegmentDistSq(p, q, r, s Vec3) float64 {
	d1, d2, w := q.Sub(p), s.Sub(r), p.Sub(r)
	a, e, f := d1.Dot(d1), d2.Dot(d2), d2.Dot(w)
	var u, v float64
	switch {
	case a == 0 && e == 0:
		return w.LenSqr()
	case a == 0:
		v = clamp01(f / e)
	default:
		c := d1.Dot(w)
		if e == 0 {
			u = clamp01(-c / a)
		} else {
			b := d1.Dot(d2)
			if den := a*e - b*b; den > 0 {
				u = clamp01((b*f - c*e) / den)
			}
			v = (b*u + f) / e
			if v < 0 {
				v, u = 0, clamp01(-c/a)
			} else if v > 1 {
				v, u = 1, clamp01((b-c)/a)
			}
		}
	}
	return p.Add(d1.Mul(u)).Sub(r.Add(d2.Mul(v))).LenSqr()
}

func clamp01(x float64) float64 { return math.Max(0, math.Min(1, x)) }

// SegmentTriangleDist returns the distance between segment ab and
// triangle t: the least of the distances from the point where the
// segment crosses the triangle's plane (if it does), from its ends and
// from the triangle's edges. Each is a distance between a point of the
// segment and a point of the triangle, so rounding cannot make the answer
// fall below the true distance by more than the rounding of one of them.
func SegmentTriangleDist(a, b Vec3, t Triangle) float64 {
	qa, _ := ClosestOnTriangle(t, a)
	qb, _ := ClosestOnTriangle(t, b)
	best := math.Min(qa.Sub(a).LenSqr(), qb.Sub(b).LenSqr())
	if n := t.Normal(); n.LenSqr() > 0 {
		da, db := n.Dot(a.Sub(t[0])), n.Dot(b.Sub(t[0]))
		if (da < 0 && db > 0) || (da > 0 && db < 0) {
			p := a.Add(b.Sub(a).Mul(da / (da - db)))
			q, _ := ClosestOnTriangle(t, p)
			best = math.Min(best, q.Sub(p).LenSqr())
		}
	}
	for k := range 3 {
		best = math.Min(best, SegmentSegmentDistSq(t[k], t[(k+1)%3], a, b))
	}
	return math.Sqrt(best)
}
