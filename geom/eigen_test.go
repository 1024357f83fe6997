package geom

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

func (m Sym3) mat() mgl64.Mat3 {
	return mgl64.Mat3{m[0], m[1], m[2], m[1], m[3], m[4], m[2], m[4], m[5]}
}

func checkEigen(t *testing.T, name string, m Sym3) {
	t.Helper()
	vals, vecs := m.Eigen()
	scale := 0.0
	for _, x := range m {
		scale = math.Max(scale, math.Abs(x))
	}
	if math.Abs(vecs.Det()-1) > 1e-12 {
		t.Fatalf("%s: det(vecs) = %v, want 1", name, vecs.Det())
	}
	for i := range 3 {
		v := vecs.Col(i)
		if math.Abs(v.Len()-1) > 1e-12 {
			t.Fatalf("%s: |v%d| = %v", name, i, v.Len())
		}
		res := m.mat().Mul3x1(v).Sub(v.Mul(vals.At(i))).Len()
		if res > 1e-12*math.Max(scale, 1e-300) && res > 0 {
			t.Fatalf("%s: residual |Av-λv| = %g for λ=%g", name, res, vals.At(i))
		}
		if i > 0 && vals.At(i) > vals.At(i-1) {
			t.Fatalf("%s: eigenvalues not descending: %v", name, vals)
		}
	}
}

func TestEigenRandomSymmetric(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	for i := range 100_000 {
		var m Sym3
		for k := range m {
			m[k] = r.NormFloat64() * math.Pow(10, float64(r.IntN(13)-6))
		}
		checkEigen(t, "random", m)
		_ = i
	}
}

func TestEigenRepeatedAndDegenerate(t *testing.T) {
	rot := mgl64.HomogRotate3D(0.7, mgl64.Vec3{1, 2, 3}.Normalize()).Mat3()
	conj := func(d Vec3) Sym3 {
		m := rot.Mul3(mgl64.Diag3(d.Mgl())).Mul3(rot.Transpose())
		return Sym3{m.At(0, 0), m.At(0, 1), m.At(0, 2), m.At(1, 1), m.At(1, 2), m.At(2, 2)}
	}
	cases := map[string]Sym3{
		"zero":           {},
		"identity":       {1, 0, 0, 1, 0, 1},
		"double":         conj(Vec3{2, 2, 1}),
		"rank one":       conj(Vec3{3, 0, 0}),
		"rank two":       conj(Vec3{3, 1, 0}),
		"huge":           conj(Vec3{1e150, 2e150, 3e150}),
		"tiny":           conj(Vec3{1e-150, 2e-150, 3e-150}),
		"nearly diag":    {1, 1e-200, 0, 1, 0, 2},
		"wide separated": conj(Vec3{1e12, 1, 1e-12}),
	}
	for name, m := range cases {
		checkEigen(t, name, m)
	}
	_, vecs := Sym3{math.NaN(), 0, 0, 1, 0, 1}.Eigen()
	if vecs != mgl64.Ident3() {
		t.Errorf("NaN input: got %v, want the identity basis", vecs)
	}
}

func BenchmarkEigen(b *testing.B) {
	m := Sym3{4, 1, 0.5, 3, 0.2, 2}
	var sink mgl64.Mat3
	b.ReportAllocs()
	for b.Loop() {
		_, sink = m.Eigen()
	}
	_ = sink
}
