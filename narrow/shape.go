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
	// Aᵀ·B and Aᵀ·(tB - tA), written out (the compiler keeps arrays such
	// as mgl64's in memory); the sums run in mgl64's order.
	ra, rb := &a.X.R, &b.X.R
	d := [3]float64{b.X.T[0] - a.X.T[0], b.X.T[1] - a.X.T[1], b.X.T[2] - a.X.T[2]}
	q := pair{a: a.P, b: b.P, xa: a.X, size: a.P.Size() + b.P.Size()}
	for r := range 3 {
		for c := range 3 {
			v := ra[r*3]*rb[c*3] + ra[r*3+1]*rb[c*3+1] + ra[r*3+2]*rb[c*3+2]
			q.rel.R[c*3+r], q.back[r*3+c] = v, v
		}
		q.rel.T[r] = ra[r*3]*d[0] + ra[r*3+1]*d[1] + ra[r*3+2]*d[2]
	}
	return q
}

// support returns the vertex of A - B furthest along d: A's support along
// d less B's along -d, each climb starting at its hint.
func (q *pair) support(d mgl64.Vec3, ha, hb int32) vertex {
	ia := q.a.Support(d, ha)
	ib := q.b.Support(mulNeg(&q.back, &d), hb)
	return q.vertex(ia, ib)
}

// mulNeg returns -m·d, written out so that it stays in registers (the
// compiler keeps arrays such as mgl64's vectors in memory).
func mulNeg(m *mgl64.Mat3, d *mgl64.Vec3) mgl64.Vec3 {
	return mgl64.Vec3{
		-(m[0]*d[0] + m[3]*d[1] + m[6]*d[2]),
		-(m[1]*d[0] + m[4]*d[1] + m[7]*d[2]),
		-(m[2]*d[0] + m[5]*d[1] + m[8]*d[2]),
	}
}

// vertex returns the vertex of A - B made by A's vertex ia and B's ib.
func (q *pair) vertex(ia, ib int32) vertex {
	pa, v := q.a.Verts[ia], &q.b.Verts[ib]
	m, t := &q.rel.R, &q.rel.T
	pb := mgl64.Vec3{
		m[0]*v[0] + m[3]*v[1] + m[6]*v[2] + t[0],
		m[1]*v[0] + m[4]*v[1] + m[7]*v[2] + t[1],
		m[2]*v[0] + m[5]*v[1] + m[8]*v[2] + t[2],
	}
	return vertex{w: mgl64.Vec3{pa[0] - pb[0], pa[1] - pb[1], pa[2] - pb[2]}, a: pa, b: pb, ia: ia, ib: ib}
}

// valid reports whether ia and ib index vertices of A and of B.
func (q *pair) valid(ia, ib int32) bool {
	return ia >= 0 && ib >= 0 && int(ia) < len(q.a.Verts) && int(ib) < len(q.b.Verts)
}

// centers returns the direction from A's origin to B's.
func (q *pair) centers() mgl64.Vec3 { return q.rel.T }

// world returns the world point of p, a point of the query.
func (q *pair) world(p mgl64.Vec3) mgl64.Vec3 { return q.xa.Apply(p) }

// worldDir returns the world direction of d, a direction of the query.
func (q *pair) worldDir(d mgl64.Vec3) mgl64.Vec3 { return q.xa.Rotate(d) }
