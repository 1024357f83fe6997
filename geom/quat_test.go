package geom

import (
	"math/rand/v2"
	"testing"
)

// TestQuatOpsAreMgl64s: the written-out product, conjugate and rotation
// give mgl64's, on random unit quaternions and vectors.
func TestQuatOpsAreMgl64s(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	for range 1000 {
		a, b, v := randomRotation(r), randomRotation(r), randomVec(r)
		if got, want := QuatMul(a, b), a.Mul(b); got.Sub(want).Len() > 1e-14 {
			t.Fatalf("QuatMul(%v, %v) = %v, mgl64 says %v", a, b, got, want)
		}
		if got, want := QuatConj(a), a.Conjugate(); got != want {
			t.Fatalf("QuatConj(%v) = %v, mgl64 says %v", a, got, want)
		}
		if got, want := QuatRotate(a, v), a.Rotate(v); got.Sub(want).Len() > 1e-14 {
			t.Fatalf("QuatRotate(%v, %v) = %v, mgl64 says %v", a, v, got, want)
		}
	}
}
