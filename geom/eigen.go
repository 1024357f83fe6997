package geom

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// Sym3 is a symmetric 3x3 matrix stored as its upper triangle:
// xx, xy, xz, yy, yz, zz.
type Sym3 [6]float64

// maxJacobiSweeps bounds the cyclic Jacobi iteration; three or four sweeps
// reach machine precision on 3x3 input, the bound only guards non-finite data.
const maxJacobiSweeps = 32

// Eigen returns the eigenvalues of m in descending order and the matching
// unit eigenvectors as the columns of a right-handed rotation matrix. It uses
// cyclic Jacobi rotations, which keep the vectors orthonormal whatever the
// multiplicities: a repeated eigenvalue yields some orthonormal basis of its
// eigenspace, never NaN. Non-finite input yields the identity basis.
func (m Sym3) Eigen() (vals Vec3, vecs mgl64.Mat3) {
	for _, x := range m {
		if !Finite(x) {
			return Vec3{}, mgl64.Ident3()
		}
	}
	// The upper triangle, rotated in place; v's columns are the vectors.
	j := jacobi{a: [3][3]float64{{m[0], m[1], m[2]}, {m[1], m[3], m[4]}, {m[2], m[4], m[5]}},
		v: [3][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}
	a := &j.a
	for range maxJacobiSweeps {
		off := a[0][1]*a[0][1] + a[0][2]*a[0][2] + a[1][2]*a[1][2]
		diag := a[0][0]*a[0][0] + a[1][1]*a[1][1] + a[2][2]*a[2][2]
		if off <= 1e-32*diag || off == 0 {
			break
		}
		j.rotate(0, 1, 2)
		j.rotate(0, 2, 1)
		j.rotate(1, 2, 0)
	}
	v := &j.v
	// Sort descending, carrying the vectors (columns of v).
	idx := [3]int{0, 1, 2}
	d := [3]float64{a[0][0], a[1][1], a[2][2]}
	for i := range 2 {
		for k := i + 1; k < 3; k++ {
			if d[idx[k]] > d[idx[i]] {
				idx[i], idx[k] = idx[k], idx[i]
			}
		}
	}
	col := func(k int) Vec3 { return Vec3{v[0][k], v[1][k], v[2][k]} }
	e0 := col(idx[0]).Normalize()
	e1 := col(idx[1])
	e1 = e1.Sub(e0.Mul(e0.Dot(e1))).Normalize()
	e2 := e0.Cross(e1)
	return Vec3{d[idx[0]], d[idx[1]], d[idx[2]]}, FromCols(e0, e1, e2)
}

// jacobi is a symmetric 3x3 matrix under Jacobi rotations (only its upper
// triangle is kept up to date) and the accumulated rotation.
type jacobi struct {
	a, v [3][3]float64
}

// rotate zeroes a[p][q] (p < q; r is the third index) by a plane rotation,
// in Numerical Recipes' form: the large-theta branch avoids overflow and
// tau = s/(1+c) keeps the updates accurate.
func (j *jacobi) rotate(p, q, r int) {
	a := &j.a
	apq := a[p][q]
	if apq == 0 {
		return
	}
	theta := (a[q][q] - a[p][p]) / (2 * apq)
	var t float64
	if math.Abs(theta) > 1e150 {
		t = 1 / (2 * theta)
	} else {
		t = 1 / (math.Abs(theta) + math.Sqrt(theta*theta+1))
		if theta < 0 {
			t = -t
		}
	}
	c := 1 / math.Sqrt(t*t+1)
	s := t * c
	tau := s / (1 + c)
	a[p][p] -= t * apq
	a[q][q] += t * apq
	a[p][q] = 0
	// The third row/column, stored in the upper triangle.
	arp, arq := upper(a, r, p), upper(a, r, q)
	setUpper(a, r, p, arp-s*(arq+tau*arp))
	setUpper(a, r, q, arq+s*(arp-tau*arq))
	v := &j.v
	for k := range 3 {
		vkp, vkq := v[k][p], v[k][q]
		v[k][p] = vkp - s*(vkq+tau*vkp)
		v[k][q] = vkq + s*(vkp-tau*vkq)
	}
}

// upper reads element (i, k) of a symmetric matrix kept as its upper
// triangle.
func upper(a *[3][3]float64, i, k int) float64 {
	if i > k {
		i, k = k, i
	}
	return a[i][k]
}

func setUpper(a *[3][3]float64, i, k int, x float64) {
	if i > k {
		i, k = k, i
	}
	a[i][k] = x
}
