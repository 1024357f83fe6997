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

// MaxPosition bounds the translation of every pose read from outside (a
// config, a command line, a recording, the network), in metres along
// each axis: farther is a mistake (millimetres written as metres, a
// damaged number), not a lab, and the bound keeps all that is computed
// from a pose far from overflow.
const MaxPosition = 100.0

// PoseError says why rotation q and translation t make no pose read
// from outside, or is nil: a position not finite or beyond MaxPosition
// along an axis, or a quaternion FromQuat cannot normalise. Its text
// follows the name of what was read.
func PoseError(q mgl64.Quat, t Vec3) error {
	if t.Finite() && (math.Abs(t.X) > MaxPosition || math.Abs(t.Y) > MaxPosition || math.Abs(t.Z) > MaxPosition) {
		return fmt.Errorf("the position (%g, %g, %g) is beyond %g m from the origin along an axis: give metres, each within ±%g", t.X, t.Y, t.Z, MaxPosition, MaxPosition)
	}
	return transformError(q, t)
}

// transformError says why q and t make no transform: a position not
// finite, or a quaternion not finite, too long to normalise, zero, or
// shorter than MinQuatLen.
func transformError(q mgl64.Quat, t Vec3) error {
	n := q.Len()
	if m := max(math.Abs(q.W), math.Abs(q.V[0]), math.Abs(q.V[1]), math.Abs(q.V[2])); n == 0 && m > 0 {
		// Numbers so small their squares underflow (1e-300): the
		// length, measured in units of the largest, is not zero.
		n = m * math.Sqrt(sq(q.W/m)+sq(q.V[0]/m)+sq(q.V[1]/m)+sq(q.V[2]/m))
	}
	switch {
	case !t.Finite():
		return fmt.Errorf("the position (%g, %g, %g) is not finite", t.X, t.Y, t.Z)
	case !Finite(q.W) || !Finite3(q.V):
		return fmt.Errorf("the rotation quaternion has a number that is not finite")
	case !Finite(n):
		return fmt.Errorf("the rotation quaternion is too long to normalise (its length overflows): give a unit quaternion")
	case n == 0:
		return fmt.Errorf("the rotation quaternion is zero, which is no rotation: give a unit quaternion (qx qy qz qw = 0 0 0 1 turns nothing)")
	case n < MinQuatLen:
		return fmt.Errorf("the rotation quaternion's length %.3g is below 1e-9 (geom.MinQuatLen), too short to say a rotation (normalising it would turn rounding into one): give a unit quaternion (qx qy qz qw = 0 0 0 1 turns nothing)", n)
	}
	return nil
}

func sq(x float64) float64 { return x * x }

// FromQuat returns the transform rotating by q (normalised here) then
// translating by t; transformError says why q and t make none. It bounds
// no position (a scene may be anywhere): poses read from outside are
// checked by PoseError first.
func FromQuat(q mgl64.Quat, t Vec3) (Transform, error) {
	if err := transformError(q, t); err != nil {
		return Transform{}, fmt.Errorf("geom: pose: %w", err)
	}
	q = q.Scale(1 / q.Len())
	return Transform{R: q.Mat4().Mat3(), T: t}, nil
}

// FromPose returns the transform of a pose written as seven numbers,
// qw qx qy qz tx ty tz (as recordings store it), with FromQuat's
// normalisation and errors.
func FromPose(v [7]float64) (Transform, error) {
	return FromQuat(PoseQuat(v))
}

// PoseQuat splits a pose written qw qx qy qz tx ty tz into its rotation
// and translation.
func PoseQuat(v [7]float64) (mgl64.Quat, Vec3) {
	return mgl64.Quat{W: v[0], V: mgl64.Vec3{v[1], v[2], v[3]}}, Vec3{v[4], v[5], v[6]}
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
