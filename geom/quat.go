package geom

import "github.com/go-gl/mathgl/mgl64"

// QuatMul returns a·b, the Hamilton product, each component summed term
// by term from the product of the real parts (mgl64's Quat.Mul groups the
// real part's sum differently).
func QuatMul(a, b mgl64.Quat) mgl64.Quat {
	return mgl64.Quat{
		W: a.W*b.W - a.V[0]*b.V[0] - a.V[1]*b.V[1] - a.V[2]*b.V[2],
		V: mgl64.Vec3{
			a.W*b.V[0] + b.W*a.V[0] + a.V[1]*b.V[2] - a.V[2]*b.V[1],
			a.W*b.V[1] + b.W*a.V[1] + a.V[2]*b.V[0] - a.V[0]*b.V[2],
			a.W*b.V[2] + b.W*a.V[2] + a.V[0]*b.V[1] - a.V[1]*b.V[0],
		},
	}
}

// QuatConj returns q's conjugate, the inverse of a unit quaternion.
func QuatConj(q mgl64.Quat) mgl64.Quat {
	return mgl64.Quat{W: q.W, V: mgl64.Vec3{-q.V[0], -q.V[1], -q.V[2]}}
}

// QuatRotate returns v turned by the unit quaternion q, as mgl64's
// Quat.Rotate does: v + 2w(u×v) + 2u×(u×v) for q = (w, u).
func QuatRotate(q mgl64.Quat, v mgl64.Vec3) mgl64.Vec3 {
	u := &q.V
	// t = 2 u×v
	t0 := 2 * (u[1]*v[2] - u[2]*v[1])
	t1 := 2 * (u[2]*v[0] - u[0]*v[2])
	t2 := 2 * (u[0]*v[1] - u[1]*v[0])
	return mgl64.Vec3{
		v[0] + q.W*t0 + u[1]*t2 - u[2]*t1,
		v[1] + q.W*t1 + u[2]*t0 - u[0]*t2,
		v[2] + q.W*t2 + u[0]*t1 - u[1]*t0,
	}
}
