package geom

import "github.com/go-gl/mathgl/mgl64"

// The matrices stay mgl64.Mat3 (column-major): the kernels read them, and
// an array read through a pointer costs nothing; only an array returned
// goes through memory. These take the matrix by pointer and give Vec3s,
// in mgl64's order of summation.

// MulVec returns m·v, as mgl64's Mul3x1 sums it.
func MulVec(m *mgl64.Mat3, v Vec3) Vec3 {
	return Vec3{
		m[0]*v.X + m[3]*v.Y + m[6]*v.Z,
		m[1]*v.X + m[4]*v.Y + m[7]*v.Z,
		m[2]*v.X + m[5]*v.Y + m[8]*v.Z,
	}
}

// MulVecTrans returns mᵀ·v: the dot products of m's columns with v.
func MulVecTrans(m *mgl64.Mat3, v Vec3) Vec3 {
	return Vec3{
		m[0]*v.X + m[1]*v.Y + m[2]*v.Z,
		m[3]*v.X + m[4]*v.Y + m[5]*v.Z,
		m[6]*v.X + m[7]*v.Y + m[8]*v.Z,
	}
}

// Col returns column j of m.
func Col(m *mgl64.Mat3, j int) Vec3 { return Vec3{m[3*j], m[3*j+1], m[3*j+2]} }

// FromCols returns the matrix with columns a, b and c.
func FromCols(a, b, c Vec3) mgl64.Mat3 {
	return mgl64.Mat3{a.X, a.Y, a.Z, b.X, b.Y, b.Z, c.X, c.Y, c.Z}
}

// MulMatTrans returns aᵀ·b: column j is b's column j in a's frame (the
// dot products of a's columns with it).
func MulMatTrans(a, b *mgl64.Mat3) mgl64.Mat3 {
	return FromCols(MulVecTrans(a, Col(b, 0)), MulVecTrans(a, Col(b, 1)), MulVecTrans(a, Col(b, 2)))
}

// MulMat returns a·b, as mgl64's Mul3 sums it, reading both through
// pointers (Mul3's value receiver copies them).
func MulMat(a, b *mgl64.Mat3) (m mgl64.Mat3) {
	for c := 0; c < 9; c += 3 {
		b0, b1, b2 := b[c], b[c+1], b[c+2]
		for r := range 3 {
			m[c+r] = a[r]*b0 + a[3+r]*b1 + a[6+r]*b2
		}
	}
	return m
}
