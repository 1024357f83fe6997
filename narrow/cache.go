package narrow

import (
	"math"

	"github.com/gloved/gloved/geom"
)

// Cache warm-starts a pair's query from its last simplex (Box2D style): the
// caller keeps one per pair of shapes across frames. A zero Cache is
// empty. What it holds stays valid however the shapes move.
type Cache struct {
	count  uint8
	ia, ib [4]int32
	// Axis is the last separating direction (A to B, world), the Lander
	// article's cached separating plane; zero when unknown.
	Axis geom.Vec3
	// The last measurement: B's pose in A's frame when it was taken, and
	// bounds then on the distance (lo, from a separating plane or the
	// distance; hi, from two points of the shapes). Since then the
	// distance has changed by no more than B's drift relative to A.
	measured bool
	rel      geom.Transform
	lo, hi   float64
	// deep is the face of A - B the last penetration answer came from, by
	// its vertices' indices in A and B, wound outward, then the vertex
	// across each of its edges (the neighbouring faces', where the answer
	// goes when it moves on; n of them): PenetrationCached starts from
	// these.
	deep struct {
		ia, ib [6]int32
		n      int8
		ok     bool
	}
	// kept is that answer's whole polytope when it was small enough to
	// keep (nf is 0 otherwise): its vertices by their indices in A and B,
	// its faces by vertex, wound outward.
	kept struct {
		v      [keptVerts][2]int32
		f      [keptFaces][3]int8
		nv, nf int8
	}
}

// The largest EPA polytope a Cache keeps: most answers between hand links
// end with 6 to 12 vertices.
const (
	keptVerts = 20
	keptFaces = 2*keptVerts - 4
)

// measure records bounds on the pair's distance at its pose now.
func (c *Cache) measure(q *pair, lo, hi float64) {
	c.measured, c.rel, c.lo, c.hi = true, q.rel, lo, hi
}

// drift bounds how far any point of B has moved relative to A since the
// measurement: a point v of B is at R·v + T in A's frame, so it moved by
// at most |ΔT| + ‖ΔR‖·|v|, the Frobenius norm bounding ΔR's; a part in a
// billion of the pair's size covers the rounding.
func (c *Cache) drift(q *pair) float64 {
	f := 0.0
	for k := range q.rel.R {
		d := q.rel.R[k] - c.rel.R[k]
		f += d * d
	}
	return q.rel.T.Sub(c.rel.T).Len() + math.Sqrt(f)*q.b.Size() + 1e-9*(q.size+q.rel.T.Len())
}

// keepFace records f, a face of e, as the pair's deepest, with the
// vertices across its edges.
func (c *Cache) keepFace(e *epa, f *epaFace) {
	for k, v := range f.v {
		c.deep.ia[k], c.deep.ib[k] = e.v[v].ia, e.v[v].ib
	}
	c.deep.n = 3
	for k := range 3 {
		if v, ok := e.across(f.v[k], f.v[(k+1)%3]); ok {
			c.deep.ia[c.deep.n], c.deep.ib[c.deep.n] = e.v[v].ia, e.v[v].ib
			c.deep.n++
		}
	}
	c.deep.ok = true
	c.kept.nf = 0
	if e.nv > keptVerts {
		return
	}
	for k := range e.nv {
		c.kept.v[k] = [2]int32{e.v[k].ia, e.v[k].ib}
	}
	c.kept.nv = int8(e.nv)
	n := 0
	for i := range e.nf {
		if !e.f[i].live {
			continue
		}
		if n == keptFaces {
			return
		}
		c.kept.f[n] = e.f[i].v
		n++
	}
	c.kept.nf = int8(n)
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
			d = geom.Vec3{X: 1}
		}
		s.v[0] = q.support(d.Mul(-1), 0, 0)
		s.count = 1
	}
	return s
}
