package geom

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// Convention is a coordinate system an app expects, seen from gloved's
// world: right-handed, Y up, -Z forward, +X right, metres (the OpenXR and
// WebXR stage convention). M takes gloved's axes to the app's and Scale
// its metres to the app's unit: a position p is s·M·p there, a direction
// (a normal) M·n, a rotation R is M·R·Mᵀ. M is orthogonal; when it is a
// reflection (the app is left-handed) M·R·Mᵀ is still a proper rotation.
type Convention struct {
	name  string
	m     mgl64.Mat3
	scale float64
	det   float64 // det(m): +1, or -1 for a left-handed app
}

// orthoTol is how far from orthogonal a convention's matrix may be.
const orthoTol = 1e-12

// NewConvention returns the convention of that name whose axes are m
// (gloved's axes to the app's) and unit scale (the app's units per
// metre). m must be orthogonal and scale positive and finite.
func NewConvention(name string, m mgl64.Mat3, scale float64) (Convention, error) {
	d := m.Transpose().Mul3(m).Sub(mgl64.Ident3())
	for _, x := range d {
		if !(math.Abs(x) <= orthoTol) {
			return Convention{}, fmt.Errorf("geom: convention %s: the axes %v are not orthogonal", name, m)
		}
	}
	if !(scale > 0) || math.IsInf(scale, 0) {
		return Convention{}, fmt.Errorf("geom: convention %s: scale %v is not a positive number", name, scale)
	}
	return Convention{name: name, m: m, scale: scale, det: math.Copysign(1, m.Det())}, nil
}

// mustConvention is NewConvention for the presets, which are right by
// construction.
func mustConvention(name string, rows [3][3]float64, scale float64) Convention {
	m := mgl64.Mat3FromRows(mgl64.Vec3(rows[0]), mgl64.Vec3(rows[1]), mgl64.Vec3(rows[2]))
	c, err := NewConvention(name, m, scale)
	if err != nil {
		panic(err)
	}
	return c
}

// The presets, as MANUS lets each client choose its own.
var (
	// Gloved is gloved's own world: nothing changes.
	Gloved = mustConvention("gloved", [3][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, 1)
	// Unity is left-handed, Y up, +Z forward, +X right, metres: (x, y, -z).
	// Its OpenXR plugin maps a quaternion to (-qx, -qy, qz, qw), as Quat
	// does.
	Unity = mustConvention("unity", [3][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, -1}}, 1)
	// Unreal is left-handed, Z up, +X forward, +Y right, centimetres:
	// X = -z, Y = x, Z = y, times 100.
	Unreal = mustConvention("unreal", [3][3]float64{{0, 0, -1}, {1, 0, 0}, {0, 1, 0}}, 100)
	// ROS is REP 103's: right-handed, Z up, +X forward, +Y left, metres:
	// X = -z, Y = -x, Z = y.
	ROS = mustConvention("ros", [3][3]float64{{0, 0, -1}, {-1, 0, 0}, {0, 1, 0}}, 1)
)

// Conventions lists the presets by name.
var Conventions = []Convention{Gloved, Unity, Unreal, ROS}

// ConventionNamed returns the preset of that name, and whether there is
// one.
func ConventionNamed(name string) (Convention, bool) {
	for _, c := range Conventions {
		if c.name == name {
			return c, true
		}
	}
	return Convention{}, false
}

// Name returns the convention's name.
func (c Convention) Name() string { return c.name }

// Matrix returns M, gloved's axes to the convention's.
func (c Convention) Matrix() mgl64.Mat3 { return c.m }

// Scale returns the convention's units per metre.
func (c Convention) Scale() float64 { return c.scale }

// RightHanded reports whether the convention is right-handed (M is a
// rotation rather than a reflection).
func (c Convention) RightHanded() bool { return c.det > 0 }

// Axis names what gloved's direction v becomes in the convention, as
// its apps name their axes: "+X", "-Z" (Unreal's forward, gloved's -Z,
// is "+X"). A direction that lands on none of the convention's axes is
// given by its components.
func (c Convention) Axis(v mgl64.Vec3) string {
	d := c.Direction(v).Normalize()
	for i, name := range []string{"X", "Y", "Z"} {
		if math.Abs(math.Abs(d[i])-1) > orthoTol {
			continue
		}
		if d[i] < 0 {
			return "-" + name
		}
		return "+" + name
	}
	return fmt.Sprintf("(%.3g, %.3g, %.3g)", d[0], d[1], d[2])
}

// Axes describes the convention as its apps' manuals do: its handedness,
// then its axes up, forward and to the side, the side named by its
// positive axis ("left-handed, +Z up, +X forward, +Y right"; ROS's
// "+Y left").
func (c Convention) Axes() string {
	hand := "left-handed"
	if c.RightHanded() {
		hand = "right-handed"
	}
	side := c.Axis(mgl64.Vec3{1, 0, 0}) + " right"
	if side[0] == '-' {
		side = c.Axis(mgl64.Vec3{-1, 0, 0}) + " left"
	}
	return hand + ", " + c.Axis(mgl64.Vec3{0, 1, 0}) + " up, " + c.Axis(mgl64.Vec3{0, 0, -1}) + " forward, " + side
}

// Identity reports whether the convention is gloved's own: nothing to
// convert.
func (c Convention) Identity() bool { return c.m == mgl64.Ident3() && c.scale == 1 }

// Inverse returns the convention that takes this one's coordinates back
// to gloved's.
func (c Convention) Inverse() Convention {
	return Convention{name: c.name + "⁻¹", m: c.m.Transpose(), scale: 1 / c.scale, det: c.det}
}

// Point returns position p in the convention: s·M·p.
func (c Convention) Point(p mgl64.Vec3) mgl64.Vec3 { return c.Direction(p).Mul(c.scale) }

// Direction returns direction n (a normal, an axis) in the convention:
// M·n, its length kept. Conventions are at the edge, where the wire's
// vectors are mgl64's: it multiplies them in place, as MulVec sums,
// rather than through a Vec3 and back (2% of an openxr frame).
func (c Convention) Direction(n mgl64.Vec3) mgl64.Vec3 {
	m := &c.m
	x, y, z := n[0], n[1], n[2]
	return mgl64.Vec3{m[0]*x + m[3]*y + m[6]*z, m[1]*x + m[4]*y + m[7]*z, m[2]*x + m[5]*y + m[8]*z}
}

// Length returns a length (a distance, a depth, a radius) in the
// convention's unit.
func (c Convention) Length(d float64) float64 { return c.scale * d }

// Rotation returns rotation r in the convention: M·r·Mᵀ, a proper
// rotation whether M is one or a reflection.
func (c Convention) Rotation(r mgl64.Mat3) mgl64.Mat3 { return c.m.Mul3(r).Mul3(c.m.Transpose()) }

// Quat returns the quaternion of Rotation(q's rotation): the axis is
// carried by M and, M being a reflection, the turn reverses, so (w, v)
// becomes (w, det(M)·M·v). W is kept: a stream of quaternions kept in one
// hemisphere (QuatTrack) stays so, its dot products unchanged.
func (c Convention) Quat(q mgl64.Quat) mgl64.Quat {
	return mgl64.Quat{W: q.W, V: c.Direction(q.V).Mul(c.det)}
}

// Transform returns x in the convention: the motion that, applied to a
// point in the convention, does what x does to it in gloved's world.
func (c Convention) Transform(x Transform) Transform {
	return Transform{R: c.Rotation(x.R), T: FromMgl(c.Point(x.T.Mgl()))}
}
