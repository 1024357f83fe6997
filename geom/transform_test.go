package geom

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

func TestFinite(t *testing.T) {
	tests := []struct {
		x    float64
		want bool
	}{
		{0, true}, {-1e308, true}, {math.SmallestNonzeroFloat64, true},
		{math.NaN(), false}, {math.Inf(1), false}, {math.Inf(-1), false},
	}
	for _, tc := range tests {
		if got := Finite(tc.x); got != tc.want {
			t.Errorf("Finite(%v): got %v, want %v", tc.x, got, tc.want)
		}
		v := Vec3{1, tc.x, 2}
		if got := v.Finite(); got != tc.want {
			t.Errorf("%v.Finite(): got %v, want %v", v, got, tc.want)
		}
	}
}

func TestTransformComposeAndInvert(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 15))
	for range 1000 {
		x := Transform{R: randRotation(r), T: randVec(r, 10)}
		y := Transform{R: randRotation(r), T: randVec(r, 10)}
		p := randVec(r, 5)
		if d := x.Mul(y).Apply(p).Sub(x.Apply(y.Apply(p))).Len(); d > 1e-12 {
			t.Fatalf("x∘y applied differs from x(y(p)) by %g", d)
		}
		if d := x.Inverse().Apply(x.Apply(p)).Sub(p).Len(); d > 1e-12 {
			t.Fatalf("x⁻¹(x(p)) differs from p by %g", d)
		}
	}
}

func TestFromQuat(t *testing.T) {
	x, err := FromQuat(mgl64.Quat{W: 2}, Vec3{1, 2, 3})
	if err != nil || x.R != mgl64.Ident3() {
		t.Fatalf("unnormalised identity quaternion: got %v, %v", x, err)
	}
	q := mgl64.QuatRotate(math.Pi/2, mgl64.Vec3{0, 0, 1})
	x, err = FromQuat(q.Scale(3), Vec3{})
	if err != nil || x.Apply(Vec3{1, 0, 0}).Sub(Vec3{0, 1, 0}).Len() > 1e-12 {
		t.Fatalf("90° about z: x maps to %v, err %v", x.Apply(Vec3{1, 0, 0}), err)
	}
	for _, bad := range []struct {
		q mgl64.Quat
		t Vec3
	}{
		{mgl64.Quat{}, Vec3{}},
		{mgl64.Quat{W: math.NaN()}, Vec3{}},
		{mgl64.Quat{W: math.Inf(1)}, Vec3{}},
		{mgl64.Quat{W: 1}, Vec3{math.Inf(-1), 0, 0}},
	} {
		if _, err := FromQuat(bad.q, bad.t); err == nil {
			t.Errorf("FromQuat(%v, %v): want an error", bad.q, bad.t)
		}
	}
}

// TestFromPose: the seven numbers are qw qx qy qz tx ty tz, the quaternion
// need not be unit, and bad poses are FromQuat's errors.
func TestFromPose(t *testing.T) {
	s := math.Sqrt(0.5)
	tests := []struct {
		name string
		v    [7]float64
		p    Vec3 // a point, and where the pose puts it
		want Vec3
	}{
		{"identity", [7]float64{1, 0, 0, 0, 0, 0, 0}, Vec3{1, 2, 3}, Vec3{1, 2, 3}},
		{"translation only", [7]float64{2, 0, 0, 0, 1, 2, 3}, Vec3{}, Vec3{1, 2, 3}},
		{"90° about z", [7]float64{s, 0, 0, s, 0, 0, 0}, Vec3{1, 0, 0}, Vec3{0, 1, 0}},
		{"180° about x, then up", [7]float64{0, 3, 0, 0, 0, 1, 0}, Vec3{0, 1, 0}, Vec3{0, 0, 0}},
	}
	for _, tc := range tests {
		x, err := FromPose(tc.v)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if got := x.Apply(tc.p); got.Sub(tc.want).Len() > 1e-12 {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
	for _, bad := range [][7]float64{{}, {math.NaN(), 0, 0, 0, 0, 0, 0}, {1, 0, 0, 0, 0, math.Inf(1), 0}} {
		if _, err := FromPose(bad); err == nil {
			t.Errorf("FromPose(%v): want an error", bad)
		}
	}
}

func TestAABB(t *testing.T) {
	e := EmptyAABB()
	if !e.IsEmpty() || e.Overlaps(e) {
		t.Fatal("the empty box must be empty and overlap nothing")
	}
	a := e.Extend(Vec3{0, 0, 0}).Extend(Vec3{1, 2, 3})
	if a.Min != (Vec3{}) || a.Max != (Vec3{1, 2, 3}) || a.IsEmpty() {
		t.Fatalf("extended box %v", a)
	}
	b := AABB{Min: Vec3{1, 2, 3}, Max: Vec3{4, 4, 4}}
	if !a.Overlaps(b) || !b.Overlaps(a) {
		t.Error("boxes sharing a corner must overlap")
	}
	b.Min.X = 1.0000001
	if a.Overlaps(b) {
		t.Error("boxes apart in x must not overlap")
	}
	if u := a.Union(e); u != a {
		t.Errorf("union with the empty box changed %v to %v", a, u)
	}
	if c := a.OBB(); !c.Contains(Vec3{1, 2, 3}, 0) || c.Contains(Vec3{1, 2, 3.1}, 0) {
		t.Error("AABB as OBB has the wrong extent")
	}
}

func TestOBBBoundsItsCorners(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 16))
	for range 1000 {
		b := randBox(r, randRotation(r))
		var c [8]Vec3
		b.Corners(&c)
		box := b.AABB()
		for _, p := range c {
			if !b.Contains(p, 1e-12) || !box.Extend(p).Max.Mgl().ApproxEqual(box.Max.Mgl()) || !box.Extend(p).Min.Mgl().ApproxEqual(box.Min.Mgl()) {
				t.Fatalf("corner %v outside its box or its AABB %v", p, box)
			}
		}
		x := Transform{R: randRotation(r), T: randVec(r, 3)}
		moved := b.Transformed(x)
		for _, p := range c {
			if !moved.Contains(x.Apply(p), 1e-12) {
				t.Fatalf("moved corner outside moved box")
			}
		}
	}
}

// TestTransformIsMgl64BitForBit: a rigid motion applied, composed and
// inverted is what mgl64's products give, bit for bit.
func TestTransformIsMgl64BitForBit(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 10))
	for range draws(100_000) {
		x := Transform{R: coordMat(r), T: coordVec(r)}
		y := Transform{R: coordMat(r), T: coordVec(r)}
		p := coordVec(r)
		if got, want := x.Apply(p), x.R.Mul3x1(p.Mgl()).Add(x.T.Mgl()); !sameVecBits(got, want) {
			t.Fatalf("Apply: got %v, mgl64 %v", got, want)
		}
		if got, want := x.Rotate(p), x.R.Mul3x1(p.Mgl()); !sameVecBits(got, want) {
			t.Fatalf("Rotate: got %v, mgl64 %v", got, want)
		}
		z := x.Mul(y)
		if want := x.R.Mul3(y.R); !sameMatBits(z.R, want) {
			t.Fatalf("Mul: rotation %v, mgl64 %v", z.R, want)
		}
		if want := x.R.Mul3x1(y.T.Mgl()).Add(x.T.Mgl()); !sameVecBits(z.T, want) {
			t.Fatalf("Mul: translation %v, mgl64 %v", z.T, want)
		}
		inv, rt := x.Inverse(), x.R.Transpose()
		if want := rt.Mul3x1(x.T.Mgl()).Mul(-1); !sameMatBits(inv.R, rt) || !sameVecBits(inv.T, want) {
			t.Fatalf("Inverse: got %v, mgl64 %v %v", inv, rt, want)
		}
	}
}
