package narrow

import "github.com/go-gl/mathgl/mgl64"

// Cache warm-starts a pair's query from its last simplex (Box2D style): the
// caller keeps one per pair across frames. A zero Cache is empty. The
// cache holds vertex indices only, so it stays valid however the shapes
// move.
type Cache struct {
	count  uint8
	ia, ib [4]int32
	// Axis is the last separating direction (A to B, world), the Lander
	// article's cached separating plane; zero when unknown.
	Axis mgl64.Vec3
}

// Reset empties the cache (the pair disappeared).
func (c *Cache) Reset() { *c = Cache{} }

// save records the vertex indices of s for the next query.
func (c *Cache) save(s *simplex) {
	c.count = uint8(s.count)
	for k := range s.count {
		c.ia[k], c.ib[k] = s.v[k].ia, s.v[k].ib
	}
}

// startSimplex is the simplex every query starts from, after Box2D's
// b2MakeSimplexFromCache: the cached vertices, rebuilt at the shapes'
// current poses, when cache (which may be nil) holds valid ones; otherwise
// the one vertex of A - B furthest along the direction from B's origin to
// A's.
func (q *pair) startSimplex(cache *Cache) simplex {
	var s simplex
	if cache != nil {
		for k := range int(cache.count) {
			ia, ib := cache.ia[k], cache.ib[k]
			if !q.valid(ia, ib) {
				s.count = 0
				break
			}
			s.v[s.count] = q.vertex(ia, ib)
			s.count++
		}
	}
	if s.count == 0 {
		d := q.centers()
		if d.LenSqr() == 0 {
			d = mgl64.Vec3{1, 0, 0}
		}
		s.v[0] = q.support(d.Mul(-1), 0, 0)
		s.count = 1
	}
	return s
}
