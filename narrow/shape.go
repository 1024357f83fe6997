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
func (s *Shape) support(d geom.Vec3, hint int32) (geom.Vec3, int32) {
	local := geom.MulVecTrans(&s.X.R, d)
	i := s.P.Support(local, hint)
	return s.X.Apply(s.P.Verts[i]), i
}

// vertex is a point of the Minkowski difference A - B with the points of A
// and B that made it and their indices.
type vertex struct {
	w, a, b geom.Vec3
	ia, ib  int32
}

// pair is one query's view of two shapes from A's frame, after Box2D v3's
// b2ShapeDistance: A's polytope as stored, B's through rel = A⁻¹·B,
// composed once per query. Every point a query computes is then relative
// to A, so its rounding follows the shapes' own size and not their
// distance from the world origin; answers go back to the world once, at
// the end. The query's frame is A's.
type pair struct {
	a, b *Polytope
	xa   geom.Transform // A's pose: A's frame to the world
	rel  geom.Transform // B's frame to A's
	back mgl64.Mat3     // rel.R transposed: A's directions into B's frame
	// size is the sum of the shapes' radii, the scale of the tolerances.
	size float64
}

// newPair composes B's pose relative to A's. The translations are
// subtracted before rotating (as b2InvMulTransforms does) so that shapes
// near each other but far from the world origin lose no precision.
func newPair(a, b *Shape) pair {
	q := pair{a: a.P, b: b.P, xa: a.X, size: a.P.Size() + b.P.Size()}
	q.rel.R = geom.MulMatTrans(&a.X.R, &b.X.R)
	q.rel.T = geom.MulVecTrans(&a.X.R, b.X.T.Sub(a.X.T))
	q.back = q.rel.R.Transpose()
	return q
}

// support returns the vertex of A - B furthest along d: A's support along
// d less B's along -d, each climb starting at its hint.
func (q *pair) support(d geom.Vec3, ha, hb int32) vertex {
	ia := q.a.Support(d, ha)
	ib := q.b.Support(geom.MulVec(&q.back, d).Neg(), hb)
	return q.vertex(ia, ib)
}

// vertex returns the vertex of A - B made by A's vertex ia and B's ib.
func (q *pair) vertex(ia, ib int32) vertex {
	pa, pb := q.a.Verts[ia], q.rel.Apply(q.b.Verts[ib])
	return vertex{w: pa.Sub(pb), a: pa, b: pb, ia: ia, ib: ib}
}

// valid reports whether ia and ib index vertices of A and of B.
func (q *pair) valid(ia, ib int32) bool {
	return ia >= 0 && ib >= 0 && int(ia) < len(q.a.Verts) && int(ib) < len(q.b.Verts)
}

// centers returns the direction from A's origin to B's.
func (q *pair) centers() geom.Vec3 { return q.rel.T }

// world returns the world point of p, a point of the query.
func (q *pair) world(p geom.Vec3) geom.Vec3 { return q.xa.Apply(p) }

// worldDir returns the world direction of d, a direction of the query.
func (q *pair) worldDir(d geom.Vec3) geom.Vec3 { return q.xa.Rotate(d) }
