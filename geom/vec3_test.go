package geom

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// coord draws a coordinate: mostly ordinary numbers of any magnitude, and
// now and then one that rounding rules treat apart (a signed zero, a
// subnormal, an infinity, NaN).
func coord(r *rand.Rand) float64 {
	special := []float64{0, math.Copysign(0, -1), 5e-324, -5e-324, 1, -1, math.Inf(1), math.Inf(-1), math.NaN()}
	if r.IntN(20) == 0 {
		return special[r.IntN(len(special))]
	}
	return r.NormFloat64() * math.Pow(10, float64(r.IntN(21)-10))
}

func coordVec(r *rand.Rand) Vec3 { return Vec3{coord(r), coord(r), coord(r)} }

// sameBits reports whether a and b are the same float64, bit for bit, or
// both NaN: which NaN an operation on two NaNs passes on follows the
// order the compiler gives a commutative operation's operands, not the
// arithmetic.
func sameBits(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
}

func sameVecBits(a Vec3, b mgl64.Vec3) bool {
	return sameBits(a.X, b[0]) && sameBits(a.Y, b[1]) && sameBits(a.Z, b[2])
}

// TestVec3IsMgl64BitForBit: every method gives, bit for bit, what
// mgl64's method of the same name gives on the same vectors: the kernels
// that moved to Vec3 answer as they did (the golden replays hash them).
func TestVec3IsMgl64BitForBit(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 3))
	for range draws(200_000) {
		a, b, s := coordVec(r), coordVec(r), coord(r)
		ma, mb := a.Mgl(), b.Mgl()
		vecs := []struct {
			name string
			got  Vec3
			want mgl64.Vec3
		}{
			{"Add", a.Add(b), ma.Add(mb)},
			{"Sub", a.Sub(b), ma.Sub(mb)},
			{"Mul", a.Mul(s), ma.Mul(s)},
			{"Cross", a.Cross(b), ma.Cross(mb)},
			{"Normalize", a.Normalize(), ma.Normalize()},
		}
		for _, c := range vecs {
			if !sameVecBits(c.got, c.want) {
				t.Fatalf("%s of %v and %v (%v): got %v, mgl64 %v", c.name, a, b, s, c.got, c.want)
			}
		}
		scalars := []struct {
			name      string
			got, want float64
		}{
			{"Dot", a.Dot(b), ma.Dot(mb)},
			{"Len", a.Len(), ma.Len()},
			{"LenSqr", a.LenSqr(), ma.LenSqr()},
		}
		for _, c := range scalars {
			if !sameBits(c.got, c.want) {
				t.Fatalf("%s of %v and %v: got %v, mgl64 %v", c.name, a, b, c.got, c.want)
			}
		}
		if neg, want := a.Neg(), ma.Mul(-1); !sameVecBits(neg, want) {
			t.Fatalf("Neg of %v: got %v, mgl64's Mul(-1) %v", a, neg, want)
		}
		if back := FromMgl(ma); !sameVecBits(back, ma) {
			t.Fatalf("FromMgl(%v.Mgl()) = %v", a, back)
		}
	}
}

// TestVec3Reads: the accessors and predicates on a table.
func TestVec3Reads(t *testing.T) {
	v := Vec3{-3, 2, 1}
	for i, want := range []float64{-3, 2, 1} {
		if got := v.At(i); got != want {
			t.Errorf("At(%d) = %v, want %v", i, got, want)
		}
	}
	tests := []struct {
		v       Vec3
		maxAbs  float64
		finite  bool
		printed string
	}{
		{Vec3{-3, 2, 1}, 3, true, "[-3 2 1]"},
		{Vec3{0, math.Copysign(0, -1), 0}, 0, true, "[0 -0 0]"},
		{Vec3{1, math.Inf(-1), 2}, math.Inf(1), false, "[1 -Inf 2]"},
		{Vec3{math.NaN(), 0, 0}, math.NaN(), false, "[NaN 0 0]"},
	}
	for _, tc := range tests {
		if got := tc.v.MaxAbs(); !sameBits(got, tc.maxAbs) {
			t.Errorf("%v.MaxAbs() = %v, want %v", tc.v, got, tc.maxAbs)
		}
		if got := tc.v.Finite(); got != tc.finite {
			t.Errorf("%v.Finite() = %v, want %v", tc.v, got, tc.finite)
		}
		if got := fmt.Sprint(tc.v); got != tc.printed {
			t.Errorf("fmt.Sprint = %q, want %q", got, tc.printed)
		}
	}
}

// TestVec3PrintsAsMgl64: whatever the verb, a Vec3 prints as the
// mgl64.Vec3 of its coordinates, so the text gloved writes (OBJ files,
// messages, examples) did not change when the kernels moved to Vec3.
func TestVec3PrintsAsMgl64(t *testing.T) {
	v := Vec3{1.0 / 3, -2e-9, 1e21}
	for _, verb := range []string{"%v", "%+v", "%.3f", "%8.2f", "%g", "%e", "%s"} {
		if got, want := fmt.Sprintf(verb, v), fmt.Sprintf(verb, v.Mgl()); got != want {
			t.Errorf("%s: got %q, mgl64 prints %q", verb, got, want)
		}
	}
}

// TestVec3AtPanicsPastZ: an axis past 2 is a broken invariant.
func TestVec3AtPanicsPastZ(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("At(3) did not panic")
		}
	}()
	Vec3{}.At(3)
}

// ExampleVec3 shows the conversions at the edges: configuration and the
// wire speak mgl64, the kernels Vec3.
func ExampleVec3() {
	wire := mgl64.Vec3{0, 0.91, 0.10}
	p := FromMgl(wire)
	n := Vec3{Y: 1}.Cross(Vec3{Z: 1})
	fmt.Println(p.Add(n).Mgl(), n.Len())
	// Output: [1 0.91 0.1] 1
}
