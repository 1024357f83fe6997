package narrow

import (
	"math"

	"github.com/gloved/gloved/geom"
)

// IntersectsCached answers Intersects for a pair queried frame after
// frame, warm-started by cache, and when the shapes are apart gives a
// lower bound on their distance now (0 when they overlap): first the
// bound from the last measurement (a pair that was apart by more than it
// has moved since is still apart: no support query at all); then the
// separating plane cached from the last query (the Lander article's
// cached separating plane: two support queries); then, if it no longer
// separates, the boolean GJK from the cached simplex, which caches the new
// plane. It allocates nothing.
func IntersectsCached(a, b *Shape, cache *Cache) (overlap bool, gap float64) {
	q := newPair(a, b)
	tol := overlapTol * q.size
	if cache.measured {
		if lo := cache.lo - cache.drift(&q); lo > tol {
			return false, lo
		}
	}
	if cache.Axis != (geom.Vec3{}) {
		n := geom.MulVecTrans(&a.X.R, cache.Axis) // the query's frame: A's
		if gap, far, ok := q.gap(n, cache); ok && gap > tol {
			cache.measure(&q, gap, far)
			return false, gap
		}
	}
	s := q.startSimplex(cache)
	end := q.gjk(&s, nil, true)
	cache.save(&s)
	cache.Axis = geom.Vec3{}
	switch {
	case end.overlap:
		cache.measure(&q, 0, 0)
		return true, 0
	case end.sep != (geom.Vec3{}):
		cache.Axis = q.worldDir(end.sep)
		cache.measure(&q, end.gap, end.far)
		return false, max(end.gap, 0)
	}
	return false, 0 // the iteration cap: apart, by an unknown margin
}

// DistanceBounds bounds a and b's distance from the last measurement cache
// holds (Distance, IntersectsCached), without a query: the bounds then,
// widened by how far B has moved relative to A since. lo is 0 and hi
// +Inf when nothing was measured. A caller that only needs to know which
// side of a threshold the distance is runs Distance only when the
// threshold lies between the bounds.
func DistanceBounds(a, b *Shape, cache *Cache) (lo, hi float64) {
	if !cache.measured {
		return 0, math.Inf(1)
	}
	q := newPair(a, b)
	d := cache.drift(&q)
	return max(cache.lo-d, 0), cache.hi + d
}

// gap is how far apart A and B are along n (query frame, any length): B's
// least extent along it less A's greatest; far is the distance between
// the two points that give it. ok is false for a zero or non-finite n.
func (q *pair) gap(n geom.Vec3, cache *Cache) (gap, far float64, ok bool) {
	l := n.Len()
	if !(l > 0) || math.IsInf(l, 0) {
		return 0, 0, false
	}
	n = n.Mul(1 / l)
	ha, hb := int32(0), int32(0)
	if cache.count > 0 && q.valid(cache.ia[0], cache.ib[0]) {
		ha, hb = cache.ia[0], cache.ib[0]
	}
	w := q.support(n, ha, hb) // A's furthest along n less B's furthest back
	return -n.Dot(w.w), w.w.Len(), true
}
