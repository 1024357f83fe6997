package geom

import (
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

func coordMat(r *rand.Rand) mgl64.Mat3 {
	var m mgl64.Mat3
	for i := range m {
		m[i] = coord(r)
	}
	return m
}

func sameMatBits(a, b mgl64.Mat3) bool {
	for i := range a {
		if !sameBits(a[i], b[i]) {
			return false
		}
	}
	return true
}

// TestMatricesTimesVec3AreMgl64BitForBit: the products on Vec3 sum as
// mgl64's Mul3x1 and Mul3 do, bit for bit, transposed or not, and the
// columns are mgl64's.
func TestMatricesTimesVec3AreMgl64BitForBit(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 9))
	for range draws(100_000) {
		a, b, v := coordMat(r), coordMat(r), coordVec(r)
		mv := v.Mgl()
		if got, want := MulVec(&a, v), a.Mul3x1(mv); !sameVecBits(got, want) {
			t.Fatalf("MulVec(%v, %v) = %v, mgl64 %v", a, v, got, want)
		}
		if got, want := MulVecTrans(&a, v), a.Transpose().Mul3x1(mv); !sameVecBits(got, want) {
			t.Fatalf("MulVecTrans(%v, %v) = %v, mgl64 %v", a, v, got, want)
		}
		if got, want := MulMat(&a, &b), a.Mul3(b); !sameMatBits(got, want) {
			t.Fatalf("MulMat(%v, %v) = %v, mgl64 %v", a, b, got, want)
		}
		if got, want := MulMatTrans(&a, &b), a.Transpose().Mul3(b); !sameMatBits(got, want) {
			t.Fatalf("MulMatTrans(%v, %v) = %v, mgl64 %v", a, b, got, want)
		}
		for j := range 3 {
			if got, want := Col(&a, j), a.Col(j); !sameVecBits(got, want) {
				t.Fatalf("Col(%v, %d) = %v, mgl64 %v", a, j, got, want)
			}
		}
		c0, c1, c2 := coordVec(r), coordVec(r), coordVec(r)
		if got, want := FromCols(c0, c1, c2), mgl64.Mat3FromCols(c0.Mgl(), c1.Mgl(), c2.Mgl()); !sameMatBits(got, want) {
			t.Fatalf("FromCols(%v, %v, %v) = %v, mgl64 %v", c0, c1, c2, got, want)
		}
	}
}
