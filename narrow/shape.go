package narrow

import (
	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
)

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

// vertex is a point of the Minkowski difference A - B with the points of A
// and B that made it and their indices.
type vertex struct {
	w, a, b mgl64.Vec3
	ia, ib  int32
}

// pair is one query's view of two shapes: their polytopes and poses, and
// the size that scales the tolerances, computed once per query. The
// query's frame is the world's.
type pair struct {
	a, b   *Polytope
	xa, xb geom.Transform
	// size is the sum of the shapes' radii, padded by a little of their
	// distance from the world origin (rounding grows with coordinates).
	size float64
}

// newPair prepares a query between a and b.
func newPair(a, b *Shape) pair {
	return pair{
		a: a.P, b: b.P, xa: a.X, xb: b.X,
		size: a.P.size() + a.X.T.Len()*worldPad + (b.P.size() + b.X.T.Len()*worldPad),
	}
}

// support returns the vertex of A - B furthest along d: A's support along
// d less B's along -d, each climb starting at its hint.
func (q *pair) support(d mgl64.Vec3, ha, hb int32) vertex {
	ia := q.a.Support(q.xa.R.Transpose().Mul3x1(d), ha)
	ib := q.b.Support(q.xb.R.Transpose().Mul3x1(d.Mul(-1)), hb)
	return q.vertex(ia, ib)
}

// vertex returns the vertex of A - B made by A's vertex ia and B's ib.
func (q *pair) vertex(ia, ib int32) vertex {
	pa, pb := q.xa.Apply(q.a.Verts[ia]), q.xb.Apply(q.b.Verts[ib])
	return vertex{w: pa.Sub(pb), a: pa, b: pb, ia: ia, ib: ib}
}

// valid reports whether ia and ib index vertices of A and of B.
func (q *pair) valid(ia, ib int32) bool {
	return ia >= 0 && ib >= 0 && int(ia) < len(q.a.Verts) && int(ib) < len(q.b.Verts)
}

// centers returns the direction from A's origin to B's.
func (q *pair) centers() mgl64.Vec3 { return q.xb.T.Sub(q.xa.T) }

// world returns the world point of p, a point of the query.
func (q *pair) world(p mgl64.Vec3) mgl64.Vec3 { return p }

// worldDir returns the world direction of d, a direction of the query.
func (q *pair) worldDir(d mgl64.Vec3) mgl64.Vec3 { return d }
