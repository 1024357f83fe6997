package geom

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// Transform is a rigid motion: p' = R p + T, with R a rotation matrix.
type Transform struct {
	R mgl64.Mat3
	T mgl64.Vec3
}

// Identity returns the transform that moves nothing.
func Identity() Transform { return Transform{R: mgl64.Ident3()} }

// MinQuatLen is the shortest quaternion taken as a rotation: below it,
// normalising would amplify rounding into an arbitrary rotation.
const MinQuatLen = 1e-9

// FromQuat returns the transform rotating by q (normalised here) then
// translating by t. A zero or non-finite quaternion is an error.
func FromQuat(q mgl64.Quat, t mgl64.Vec3) (Transform, error) {
	n := q.Len()
	if !(n >= MinQuatLen) || !Finite(n) || !Finite3(t) {
		return Transform{}, fmt.Errorf("geom: pose needs a non-zero finite quaternion and a finite translation, got q=%v t=%v", q, t)
	}
	q = q.Scale(1 / n)
	return Transform{R: q.Mat4().Mat3(), T: t}, nil
}

// FromPose returns the transform of a pose written as seven numbers,
// qw qx qy qz tx ty tz (as recordings, configuration files and the command
// line write it), with FromQuat's normalisation and errors.
func FromPose(v [7]float64) (Transform, error) {
	return FromQuat(mgl64.Quat{W: v[0], V: mgl64.Vec3{v[1], v[2], v[3]}}, mgl64.Vec3{v[4], v[5], v[6]})
}

// Quat returns x's rotation as a unit quaternion, of either sign (a
// stream of them keeps one hemisphere with a QuatTrack).
func (x Transform) Quat() mgl64.Quat { return mgl64.Mat4ToQuat(x.R.Mat4()).Normalize() }

// Apply returns R p + T. It and Rotate are written out, as mgl64's
// Mul3x1 and Add compute them: the compiler keeps arrays such as mgl64's
// vectors in memory, and these run in every inner loop.
func (x Transform) Apply(p mgl64.Vec3) mgl64.Vec3 {
	m := &x.R
	return mgl64.Vec3{
		m[0]*p[0] + m[3]*p[1] + m[6]*p[2] + x.T[0],
		m[1]*p[0] + m[4]*p[1] + m[7]*p[2] + x.T[1],
		m[2]*p[0] + m[5]*p[1] + m[8]*p[2] + x.T[2],
	}
}

// Rotate returns R v (no translation, for directions).
func (x Transform) Rotate(v mgl64.Vec3) mgl64.Vec3 {
	m := &x.R
	return mgl64.Vec3{
		m[0]*v[0] + m[3]*v[1] + m[6]*v[2],
		m[1]*v[0] + m[4]*v[1] + m[7]*v[2],
		m[2]*v[0] + m[5]*v[1] + m[8]*v[2],
	}
}

// Mul returns the transform x∘y: first y, then x (written out, in
// mgl64's order, as Apply is).
func (x Transform) Mul(y Transform) Transform {
	a, b := &x.R, &y.R
	var z Transform
	for c := 0; c < 9; c += 3 {
		b0, b1, b2 := b[c], b[c+1], b[c+2]
		for r := range 3 {
			z.R[c+r] = a[r]*b0 + a[3+r]*b1 + a[6+r]*b2
		}
	}
	t := &y.T
	for r := range 3 {
		z.T[r] = a[r]*t[0] + a[3+r]*t[1] + a[6+r]*t[2] + x.T[r]
	}
	return z
}

// Inverse returns the inverse rigid motion (R^T, -R^T T).
func (x Transform) Inverse() Transform {
	rt := x.R.Transpose()
	return Transform{R: rt, T: rt.Mul3x1(x.T).Mul(-1)}
}

// Finite reports whether x is neither NaN nor infinite.
func Finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// Finite3 reports whether every coordinate of v is finite.
func Finite3(v mgl64.Vec3) bool { return Finite(v[0]) && Finite(v[1]) && Finite(v[2]) }
