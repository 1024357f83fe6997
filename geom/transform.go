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

// FromQuat returns the transform rotating by q (normalised here) then
// translating by t. A zero or non-finite quaternion is an error.
func FromQuat(q mgl64.Quat, t mgl64.Vec3) (Transform, error) {
	n := q.Len()
	if !(n > 0) || math.IsInf(n, 0) || !finite3(t) {
		return Transform{}, fmt.Errorf("geom: pose needs a non-zero finite quaternion and a finite translation, got q=%v t=%v", q, t)
	}
	q = q.Scale(1 / n)
	return Transform{R: q.Mat4().Mat3(), T: t}, nil
}

// Apply returns R p + T.
func (x Transform) Apply(p mgl64.Vec3) mgl64.Vec3 { return x.R.Mul3x1(p).Add(x.T) }

// Rotate returns R v (no translation, for directions).
func (x Transform) Rotate(v mgl64.Vec3) mgl64.Vec3 { return x.R.Mul3x1(v) }

// Mul returns the transform x∘y: first y, then x.
func (x Transform) Mul(y Transform) Transform {
	return Transform{R: x.R.Mul3(y.R), T: x.R.Mul3x1(y.T).Add(x.T)}
}

// Inverse returns the inverse rigid motion (R^T, -R^T T).
func (x Transform) Inverse() Transform {
	rt := x.R.Transpose()
	return Transform{R: rt, T: rt.Mul3x1(x.T).Mul(-1)}
}

func finite3(v mgl64.Vec3) bool {
	for _, c := range v {
		if math.IsNaN(c) || math.IsInf(c, 0) {
			return false
		}
	}
	return true
}

// Finite reports whether every coordinate of v is a finite number.
func Finite(v mgl64.Vec3) bool { return finite3(v) }
