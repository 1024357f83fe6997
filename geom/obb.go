package geom

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// OBB is an oriented bounding box: the points C + Axes·u with |u_i| <= Half_i.
// The columns of Axes are orthonormal and right-handed. A zero half-extent is
// a legal, degenerate (zero thickness) box.
type OBB struct {
	Center Vec3
	Axes   mgl64.Mat3
	Half   Vec3
}

// Axis returns the i-th unit axis (column i of Axes).
func (b *OBB) Axis(i int) Vec3 { return Col(&b.Axes, i) }

// Volume returns the box's volume.
func (b OBB) Volume() float64 { return 8 * b.Half.X * b.Half.Y * b.Half.Z }

// Size returns the largest half-extent, the measure traversals use to choose
// which box to descend.
func (b OBB) Size() float64 { return math.Max(b.Half.X, math.Max(b.Half.Y, b.Half.Z)) }

// MajorAxis returns the box's longest axis (the first of equally long ones)
// scaled to the box's full length along it, and that length, 2·Half_k: the
// segment that spans the box.
//
// MajorAxis and ProjectedRadius take a pointer: refits call them in their
// inner loop, and a value receiver copies the box even when the call is
// inlined, which made the CAB refit 12% slower.
func (b *OBB) MajorAxis() (Vec3, float64) {
	k, h := 0, b.Half.X
	if b.Half.Y > h {
		k, h = 1, b.Half.Y
	}
	if b.Half.Z > h {
		k, h = 2, b.Half.Z
	}
	l := 2 * h
	return Vec3{b.Axes[3*k] * l, b.Axes[3*k+1] * l, b.Axes[3*k+2] * l}, l
}

// ProjectedRadius returns the half-length of the box's shadow on direction
// a, Σ Half_k |a·Axis_k|, in units of |a| (a need not be normalised).
func (b *OBB) ProjectedRadius(a Vec3) float64 {
	p := MulVecTrans(&b.Axes, a)
	return b.Half.X*math.Abs(p.X) + b.Half.Y*math.Abs(p.Y) + b.Half.Z*math.Abs(p.Z)
}

// SplitFirst is the rule of a descent of two box trees together: split the
// first box rather than the second when it is at least as large (by Size)
// or the second is a leaf. A leaf, which is never split, is passed as nil;
// a and b are not both leaves.
func SplitFirst(a, b *OBB) bool { return a != nil && (b == nil || a.Size() >= b.Size()) }

// Corners writes the eight corners of the box into c.
func (b OBB) Corners(c *[8]Vec3) {
	e0 := b.Axis(0).Mul(b.Half.X)
	e1 := b.Axis(1).Mul(b.Half.Y)
	e2 := b.Axis(2).Mul(b.Half.Z)
	for i := range 8 {
		p := b.Center
		p = addSigned(p, e0, i&1 != 0)
		p = addSigned(p, e1, i&2 != 0)
		p = addSigned(p, e2, i&4 != 0)
		c[i] = p
	}
}

func addSigned(p, e Vec3, neg bool) Vec3 {
	if neg {
		return p.Sub(e)
	}
	return p.Add(e)
}

// Contains reports whether p lies in the box grown by tol in every direction.
func (b OBB) Contains(p Vec3, tol float64) bool {
	d := MulVecTrans(&b.Axes, p.Sub(b.Center))
	return !(math.Abs(d.X) > b.Half.X+tol || math.Abs(d.Y) > b.Half.Y+tol || math.Abs(d.Z) > b.Half.Z+tol)
}

// Transformed returns the box moved by x.
func (b OBB) Transformed(x Transform) OBB {
	return OBB{Center: x.Apply(b.Center), Axes: MulMat(&x.R, &b.Axes), Half: b.Half}
}

// AABB returns the tightest axis-aligned box around b.
func (b OBB) AABB() AABB {
	x := &b.Axes
	r := Vec3{
		math.Abs(x[0])*b.Half.X + math.Abs(x[3])*b.Half.Y + math.Abs(x[6])*b.Half.Z,
		math.Abs(x[1])*b.Half.X + math.Abs(x[4])*b.Half.Y + math.Abs(x[7])*b.Half.Z,
		math.Abs(x[2])*b.Half.X + math.Abs(x[5])*b.Half.Y + math.Abs(x[8])*b.Half.Z,
	}
	return AABB{Min: b.Center.Sub(r), Max: b.Center.Add(r)}
}

// OBBGap is a lower bound on the distance between boxes a and b: the
// widest gap between their projections on the six face axes (0 if none).
func OBBGap(a, b *OBB) float64 {
	d := b.Center.Sub(a.Center)
	gap := 0.0
	for _, pair := range [2][2]*OBB{{a, b}, {b, a}} {
		p, q := pair[0], pair[1]
		for i, h := range [3]float64{p.Half.X, p.Half.Y, p.Half.Z} {
			u := p.Axis(i)
			gap = math.Max(gap, math.Abs(d.Dot(u))-h-q.ProjectedRadius(u))
		}
	}
	return gap
}
