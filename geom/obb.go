package geom

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// OBB is an oriented bounding box: the points C + Axes·u with |u_i| <= Half_i.
// The columns of Axes are orthonormal and right-handed. A zero half-extent is
// a legal, degenerate (zero thickness) box.
type OBB struct {
	Center mgl64.Vec3
	Axes   mgl64.Mat3
	Half   mgl64.Vec3
}

// Axis returns the i-th unit axis (column i of Axes).
func (b OBB) Axis(i int) mgl64.Vec3 { return mgl64.Vec3{b.Axes[3*i], b.Axes[3*i+1], b.Axes[3*i+2]} }

// Volume returns the box's volume.
func (b OBB) Volume() float64 { return 8 * b.Half[0] * b.Half[1] * b.Half[2] }

// Size returns the largest half-extent, the measure traversals use to choose
// which box to descend.
func (b OBB) Size() float64 { return math.Max(b.Half[0], math.Max(b.Half[1], b.Half[2])) }

// MajorAxis returns the box's longest axis (the first of equally long ones)
// scaled to the box's full length along it, and that length, 2·Half_k: the
// segment that spans the box.
//
// MajorAxis and ProjectedRadius take a pointer: refits call them in their
// inner loop, and a value receiver copies the box even when the call is
// inlined, which made the CAB refit 12% slower.
func (b *OBB) MajorAxis() (mgl64.Vec3, float64) {
	k := 0
	if b.Half[1] > b.Half[k] {
		k = 1
	}
	if b.Half[2] > b.Half[k] {
		k = 2
	}
	l := 2 * b.Half[k]
	return mgl64.Vec3{b.Axes[3*k] * l, b.Axes[3*k+1] * l, b.Axes[3*k+2] * l}, l
}

// ProjectedRadius returns the half-length of the box's shadow on direction
// a, Σ Half_k |a·Axis_k|, in units of |a| (a need not be normalised).
func (b *OBB) ProjectedRadius(a mgl64.Vec3) float64 {
	x := &b.Axes
	return b.Half[0]*math.Abs(a[0]*x[0]+a[1]*x[1]+a[2]*x[2]) +
		b.Half[1]*math.Abs(a[0]*x[3]+a[1]*x[4]+a[2]*x[5]) +
		b.Half[2]*math.Abs(a[0]*x[6]+a[1]*x[7]+a[2]*x[8])
}

// SplitFirst is the rule of a descent of two box trees together: split the
// first box rather than the second when it is at least as large (by Size)
// or the second is a leaf. A leaf, which is never split, is passed as nil;
// a and b are not both leaves.
func SplitFirst(a, b *OBB) bool { return a != nil && (b == nil || a.Size() >= b.Size()) }

// Corners writes the eight corners of the box into c.
func (b OBB) Corners(c *[8]mgl64.Vec3) {
	e0 := b.Axis(0).Mul(b.Half[0])
	e1 := b.Axis(1).Mul(b.Half[1])
	e2 := b.Axis(2).Mul(b.Half[2])
	for i := range 8 {
		p := b.Center
		p = addSigned(p, e0, i&1 != 0)
		p = addSigned(p, e1, i&2 != 0)
		p = addSigned(p, e2, i&4 != 0)
		c[i] = p
	}
}

func addSigned(p, e mgl64.Vec3, neg bool) mgl64.Vec3 {
	if neg {
		return p.Sub(e)
	}
	return p.Add(e)
}

// Contains reports whether p lies in the box grown by tol in every direction.
func (b OBB) Contains(p mgl64.Vec3, tol float64) bool {
	d := p.Sub(b.Center)
	for i := range 3 {
		if math.Abs(d.Dot(b.Axis(i))) > b.Half[i]+tol {
			return false
		}
	}
	return true
}

// Transformed returns the box moved by x.
func (b OBB) Transformed(x Transform) OBB {
	return OBB{Center: x.Apply(b.Center), Axes: x.R.Mul3(b.Axes), Half: b.Half}
}

// AABB returns the tightest axis-aligned box around b.
func (b OBB) AABB() AABB {
	var r mgl64.Vec3
	for row := range 3 {
		for col := range 3 {
			r[row] += math.Abs(b.Axes[3*col+row]) * b.Half[col]
		}
	}
	return AABB{Min: b.Center.Sub(r), Max: b.Center.Add(r)}
}
