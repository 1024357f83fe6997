package geom

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// Transform is a rigid motion: p' = R p + T, with R a rotation matrix.
type Transform struct {
	R mgl64.Mat3
	T Vec3
}

// Identity returns the transform that moves nothing.
func Identity() Transform { return Transform{R: mgl64.Ident3()} }

// MinQuatLen is the shortest quaternion taken as a rotation: below it,
// normalising would amplify rounding into an arbitrary rotation.
const MinQuatLen = 1e-9

// FromQuat returns the transform rotating by q (normalised here) then
// translating by t. A zero or non-finite quaternion is an error.
func FromQuat(q mgl64.Quat, t Vec3) (Transform, error) {
	n := q.Len()
	if !(n >= MinQuatLen) || !Finite(n) || !t.Finite() {
		return Transform{}, fmt.Errorf("geom: pose needs a non-zero finite quaternion and a finite translation, got q=%v t=%v", q, t)
	}
	q = q.Scale(1 / n)
	return Transform{R: q.Mat4().Mat3(), T: t}, nil
}

// FromPose returns the transform of a pose written as seven numbers,
// qw qx qy qz tx ty tz (as recordings, configuration files and the command
// line write it), with FromQuat's normalisation and errors.
func FromPose(v [7]float64) (Transform, error) {
	return FromQuat(mgl64.Quat{W: v[0], V: mgl64.Vec3{v[1], v[2], v[3]}}, Vec3{v[4], v[5], v[6]})
}

// Quat returns x's rotation as a unit quaternion, of either sign (a
// stream of them keeps one hemisphere with a QuatTrack).
func (x Transform) Quat() mgl64.Quat { return mgl64.Mat4ToQuat(x.R.Mat4()).Normalize() }

// Apply returns R p + T.
func (x Transform) Apply(p Vec3) Vec3 { return MulVec(&x.R, p).Add(x.T) }

// Rotate returns R v (no translation, for directions).
func (x Transform) Rotate(v Vec3) Vec3 { return MulVec(&x.R, v) }

// Mul returns the transform x∘y: first y, then x.
func (x Transform) Mul(y Transform) Transform {
	return Transform{R: MulMat(&x.R, &y.R), T: MulVec(&x.R, y.T).Add(x.T)}
}

// Inverse returns the inverse rigid motion (R^T, -R^T T).
func (x Transform) Inverse() Transform {
	return Transform{R: x.R.Transpose(), T: MulVecTrans(&x.R, x.T).Mul(-1)}
}

// Finite reports whether x is neither NaN nor infinite.
func Finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// Finite3 reports whether every coordinate of v is finite: Vec3.Finite
// for mgl64's vectors.
func Finite3(v mgl64.Vec3) bool { return FromMgl(v).Finite() }
