package narrow

import (
	"math"

	"github.com/gloved/gloved/geom"
)

// DistanceResult is what Distance found.
type DistanceResult struct {
	// Overlap: the shapes share a point (touching included); Distance is
	// then 0 and the points are not meaningful.
	Overlap bool
	// Distance between the shapes and the closest points on A and on B
	// (world).
	Distance float64
	PointA   geom.Vec3
	PointB   geom.Vec3
	// Iterations of GJK; Converged is false if the iteration cap was hit,
	// in which case Distance is an upper bound (the answer is still a pair
	// of real points of A and B).
	Iterations int
	Converged  bool
	simplex    simplex // in the query's frame, for Penetration
}

// gjkMaxIters caps GJK: on polytopes it ends in a few steps, often one
// when warm-started, and the cap only guards against cycling on rounding.
const gjkMaxIters = 64

// Distance runs GJK between a and b, warm-started from and updating cache
// (which may be nil). It works in a's frame, reads the shapes only and
// allocates nothing.
func Distance(a, b *Shape, cache *Cache) DistanceResult {
	q := newPair(a, b)
	s := q.startSimplex(cache)
	res := DistanceResult{Distance: math.Inf(1)}
	end := q.gjk(&s, &res.simplex, false)
	res.Overlap, res.Converged, res.Iterations = end.overlap, end.converged, end.iters
	if res.Overlap {
		res.Distance = 0
		res.simplex = s
		if cache != nil {
			cache.measure(&q, 0, 0)
		}
	} else {
		if res.simplex.count == 0 {
			res.simplex = s
		}
		fin := &res.simplex
		fin.solve()
		pa, pb := fin.witnesses()
		res.Distance = pa.Sub(pb).Len()
		res.PointA, res.PointB = q.world(pa), q.world(pb)
		if cache != nil {
			cache.Axis = res.PointB.Sub(res.PointA)
			// GJK stops within gjkRelTol of |v|², so the distance is
			// at least (1 - 1e-9) of the witnesses'; a run cut short
			// bounds it from above only.
			lo := 0.0
			if res.Converged {
				lo = res.Distance * (1 - 1e-9)
			}
			cache.measure(&q, lo, res.Distance)
		}
	}
	if cache != nil {
		cache.save(&s)
	}
	return res
}

// Intersects reports whether a and b share a point (touching included),
// stopping at the first separating direction: the boolean form of GJK,
// cheaper than Distance when the answer is no.
func Intersects(a, b *Shape) bool {
	q := newPair(a, b)
	s := q.startSimplex(nil)
	return q.gjk(&s, nil, true).overlap
}

// gjkEnd is how a GJK run ended.
type gjkEnd struct {
	overlap   bool // the origin is in A - B, up to overlapTol
	converged bool // false: the iteration cap was hit
	iters     int
	// sep is, when an early run stopped at a separating plane, the plane's
	// normal from A toward B (query frame, not unit); gap is the shapes'
	// gap along it and far the distance between the two points whose
	// difference showed it (bounds on the distance).
	sep      geom.Vec3
	gap, far float64
}

// gjk runs GJK from s, reducing it to the simplex nearest the origin.
// When prev is not nil it keeps there the last simplex that made
// progress: the answer when rounding stalls the descent. With early set
// it stops at the first separating plane, which answers Intersects.
func (q *pair) gjk(s, prev *simplex, early bool) gjkEnd {
	best := math.Inf(1)
	var end gjkEnd
	for end.iters = 0; end.iters < gjkMaxIters; end.iters++ {
		v, inside := s.solve()
		vv := v.LenSqr()
		if inside || vv <= sq(overlapTol*q.size) {
			end.overlap, end.converged = true, true
			return end
		}
		if vv >= best {
			// No progress: rounding. The previous simplex was the answer.
			end.converged = true
			return end
		}
		best = vv
		if prev != nil {
			*prev = *s
		}
		last := &s.v[s.count-1]
		w := q.support(v.Mul(-1), last.ia, last.ib)
		vw := v.Dot(w.w)
		if early && vw > 0 {
			// The plane normal to v separates: the shapes are apart.
			end.converged, end.sep = true, v.Mul(-1)
			end.gap, end.far = vw/math.Sqrt(vv), w.w.Len()
			return end
		}
		if vv-vw <= gjkRelTol*vv || s.has(w.ia, w.ib) || s.count == 4 {
			end.converged = true
			return end
		}
		s.v[s.count] = w
		s.count++
	}
	return end
}

// Separation bounds the distance between a and b from below, running GJK
// only until it knows on which side of limit the distance lies: the
// bound exceeds limit when the distance does by more than GJK's
// tolerance, and is otherwise the best bound found by then (0 for shapes
// that meet). A search that only needs to know whether a box can hold
// something nearer than its best answer stops a few steps early. Each
// step's support point w in direction -v bounds the distance by v·w/|v|
// (the separating plane of the Lander article's caching, found anew).
func Separation(a, b *Shape, limit float64, cache *Cache) float64 {
	q := newPair(a, b)
	s := q.startSimplex(cache)
	lb := q.gjkBound(&s, limit)
	if cache != nil {
		cache.save(&s)
	}
	return lb
}

// gjkBound runs GJK from s until its lower bound passes limit, its upper
// bound (the simplex's distance to the origin) falls to limit, or it
// converges, and returns the lower bound.
func (q *pair) gjkBound(s *simplex, limit float64) float64 {
	best, lb := math.Inf(1), 0.0
	for range gjkMaxIters {
		v, inside := s.solve()
		vv := v.LenSqr()
		if inside || vv <= sq(overlapTol*q.size) {
			return 0
		}
		if vv >= best || vv <= limit*limit {
			return lb // no progress (rounding), or within limit: the answer is no
		}
		best = vv
		last := &s.v[s.count-1]
		w := q.support(v.Mul(-1), last.ia, last.ib)
		vw := v.Dot(w.w)
		if vw > 0 {
			if lb = math.Max(lb, vw/math.Sqrt(vv)); lb > limit {
				return lb
			}
		}
		if vv-vw <= gjkRelTol*vv || s.has(w.ia, w.ib) || s.count == 4 {
			return lb
		}
		s.v[s.count] = w
		s.count++
	}
	return lb
}
