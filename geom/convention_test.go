package geom

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// gloved's own directions: right, up, forward.
var (
	gRight   = mgl64.Vec3{1, 0, 0}
	gUp      = mgl64.Vec3{0, 1, 0}
	gForward = mgl64.Vec3{0, 0, -1}
)

// TestConventionsPutTheAxesWhereTheirAppsDo: gloved's right, up and
// forward land on each app's own, and each is right- or left-handed as
// its app is, read off the images of the axes by a cross product.
func TestConventionsPutTheAxesWhereTheirAppsDo(t *testing.T) {
	tests := []struct {
		c                  Convention
		right, up, forward mgl64.Vec3
		rightHanded        bool
		metre              float64
	}{
		{Gloved, mgl64.Vec3{1, 0, 0}, mgl64.Vec3{0, 1, 0}, mgl64.Vec3{0, 0, -1}, true, 1},
		{Unity, mgl64.Vec3{1, 0, 0}, mgl64.Vec3{0, 1, 0}, mgl64.Vec3{0, 0, 1}, false, 1},
		{Unreal, mgl64.Vec3{0, 1, 0}, mgl64.Vec3{0, 0, 1}, mgl64.Vec3{1, 0, 0}, false, 100},
		{ROS, mgl64.Vec3{0, -1, 0}, mgl64.Vec3{0, 0, 1}, mgl64.Vec3{1, 0, 0}, true, 1},
	}
	for _, tc := range tests {
		c := tc.c
		for _, d := range []struct {
			name      string
			got, want mgl64.Vec3
		}{{"right", c.Direction(gRight), tc.right}, {"up", c.Direction(gUp), tc.up}, {"forward", c.Direction(gForward), tc.forward}} {
			if d.got != d.want {
				t.Errorf("%s: %s is %v, want %v", c.Name(), d.name, d.got, d.want)
			}
		}
		// In a right-handed system X × Y = Z; in a left-handed one the
		// same numbers give -Z. gloved's X, Y, Z carried over say which.
		ex, ey, ez := c.Direction(mgl64.Vec3{1, 0, 0}), c.Direction(mgl64.Vec3{0, 1, 0}), c.Direction(mgl64.Vec3{0, 0, 1})
		if rh := ex.Cross(ey).Dot(ez) > 0; rh != tc.rightHanded || c.RightHanded() != tc.rightHanded {
			t.Errorf("%s: cross product says right-handed %v, RightHanded %v, want %v", c.Name(), rh, c.RightHanded(), tc.rightHanded)
		}
		if got := c.Point(mgl64.Vec3{0, 1, 0}).Len(); math.Abs(got-tc.metre) > 1e-12 {
			t.Errorf("%s: a metre is %v units, want %v", c.Name(), got, tc.metre)
		}
		if got, ok := ConventionNamed(c.Name()); !ok || got != c {
			t.Errorf("ConventionNamed(%q) = %v, %v", c.Name(), got, ok)
		}
	}
	if _, ok := ConventionNamed("blender"); ok {
		t.Error("an unknown convention was found")
	}
}

// TestConventionAxesAreNamedAsTheirAppsNameThem: each preset describes
// itself as docs/profiles.md's table and its app's manual do, and names the
// axis a direction of gloved's becomes; a convention turned off the axes
// gives the direction's components.
func TestConventionAxesAreNamedAsTheirAppsNameThem(t *testing.T) {
	tests := []struct {
		c          Convention
		axes       string
		bone, back string // gloved's -Z and +Y: an OpenXR joint's bone and back
	}{
		{Gloved, "right-handed, +Y up, -Z forward, +X right", "-Z", "+Y"},
		{Unity, "left-handed, +Y up, +Z forward, +X right", "+Z", "+Y"},
		{Unreal, "left-handed, +Z up, +X forward, +Y right", "+X", "+Z"},
		{ROS, "right-handed, +Z up, +X forward, +Y left", "+X", "+Z"},
	}
	for _, tc := range tests {
		c := tc.c
		if got := c.Axes(); got != tc.axes {
			t.Errorf("%s: got %q, want %q", c.Name(), got, tc.axes)
		}
		if bone, back := c.Axis(gForward), c.Axis(gUp); bone != tc.bone || back != tc.back {
			t.Errorf("%s: -Z is %s and +Y %s, want %s and %s", c.Name(), bone, back, tc.bone, tc.back)
		}
	}
	s := math.Sqrt(0.5)
	turned, err := NewConvention("turned", mgl64.Mat3FromRows(mgl64.Vec3{s, -s, 0}, mgl64.Vec3{s, s, 0}, mgl64.Vec3{0, 0, 1}), 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := turned.Axis(gRight); got != "(0.707, 0.707, 0)" {
		t.Errorf("a turned convention's right is %q", got)
	}
}

// randomRotation is a uniformly random rotation of r.
func randomRotation(r *rand.Rand) mgl64.Quat {
	return mgl64.Quat{W: r.NormFloat64(), V: mgl64.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}}.Normalize()
}

func randomVec(r *rand.Rand) mgl64.Vec3 {
	return mgl64.Vec3{r.Float64()*2 - 1, r.Float64()*2 - 1, r.Float64()*2 - 1}
}

// TestConventionMapsAreConsistent: for random poses and points, in every
// preset: the quaternion map is the matrix map (R' = M·R·Mᵀ), a proper
// rotation; a pose moves a point there as it does here
// (Transform(x)·Point(p) = Point(x·p)); lengths scale by the unit;
// normals keep their length; W is kept, so dot products are; and the
// inverse takes everything back.
func TestConventionMapsAreConsistent(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, c := range Conventions {
		inv := c.Inverse()
		for range 200 {
			q, q2 := randomRotation(r), randomRotation(r)
			p, a, b := randomVec(r), randomVec(r), randomVec(r)
			x, err := FromQuat(q, FromMgl(randomVec(r)))
			if err != nil {
				t.Fatal(err)
			}
			rm := c.Rotation(x.R)
			if d := rm.Det(); math.Abs(d-1) > 1e-12 {
				t.Fatalf("%s: a rotation maps to a matrix of determinant %v", c.Name(), d)
			}
			if got := c.Quat(q).Normalize().Mat4().Mat3(); !got.ApproxEqualThreshold(rm, 1e-12) {
				t.Fatalf("%s: Quat gives %v, Rotation %v", c.Name(), got, rm)
			}
			if got, want := c.Transform(x).Apply(FromMgl(c.Point(p))).Mgl(), c.Point(x.Apply(FromMgl(p)).Mgl()); got.Sub(want).Len() > 1e-9 {
				t.Fatalf("%s: the pose moves the point to %v there, %v here", c.Name(), got, want)
			}
			if got, want := c.Point(a).Sub(c.Point(b)).Len(), c.Length(a.Sub(b).Len()); math.Abs(got-want) > 1e-9 {
				t.Fatalf("%s: a distance of %v m is %v, want %v", c.Name(), a.Sub(b).Len(), got, want)
			}
			if got := c.Direction(a).Len(); math.Abs(got-a.Len()) > 1e-12 {
				t.Fatalf("%s: a direction changed length to %v from %v", c.Name(), got, a.Len())
			}
			if got, want := c.Quat(q).Dot(c.Quat(q2)), q.Dot(q2); math.Abs(got-want) > 1e-12 {
				t.Fatalf("%s: a dot product of quaternions changed from %v to %v", c.Name(), want, got)
			}
			if got := inv.Point(c.Point(p)); got.Sub(p).Len() > 1e-12 {
				t.Fatalf("%s: a point goes there and back to %v from %v", c.Name(), got, p)
			}
			if got := inv.Quat(c.Quat(q)); !got.ApproxEqualThreshold(q, 1e-12) {
				t.Fatalf("%s: a quaternion goes there and back to %v from %v", c.Name(), got, q)
			}
		}
	}
}

// TestUnityMapsQuaternionsAsItsOpenXRPluginDoes: (x, y, z, w) becomes
// (-x, -y, z, w).
func TestUnityMapsQuaternionsAsItsOpenXRPluginDoes(t *testing.T) {
	q := mgl64.Quat{W: 0.5, V: mgl64.Vec3{0.1, 0.2, 0.3}}
	want := mgl64.Quat{W: 0.5, V: mgl64.Vec3{-0.1, -0.2, 0.3}}
	if got := Unity.Quat(q); got != want {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestNewConventionRefusesWhatIsNotOne: axes that are not orthogonal, and
// a scale that is not a positive number.
func TestNewConventionRefusesWhatIsNotOne(t *testing.T) {
	if _, err := NewConvention("skew", mgl64.Mat3{1, 0, 0, 0.1, 1, 0, 0, 0, 1}, 1); err == nil {
		t.Error("skewed axes were taken")
	}
	for _, s := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		if _, err := NewConvention("s", mgl64.Ident3(), s); err == nil {
			t.Errorf("scale %v was taken", s)
		}
	}
	if !Gloved.Identity() || Unity.Identity() || Unreal.Identity() {
		t.Error("Identity is wrong for a preset")
	}
}
