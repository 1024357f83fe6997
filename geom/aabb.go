package geom

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// AABB is an axis-aligned box [Min, Max]. EmptyAABB is the box that contains
// nothing; extending it by a point gives that point.
type AABB struct {
	Min, Max mgl64.Vec3
}

// EmptyAABB returns the identity of Union: Min = +Inf, Max = -Inf.
func EmptyAABB() AABB {
	inf := math.Inf(1)
	return AABB{Min: mgl64.Vec3{inf, inf, inf}, Max: mgl64.Vec3{-inf, -inf, -inf}}
}

// IsEmpty reports whether the box contains no point.
func (a AABB) IsEmpty() bool {
	return a.Min[0] > a.Max[0] || a.Min[1] > a.Max[1] || a.Min[2] > a.Max[2]
}

// Extend returns the smallest box containing a and p. Coordinates are
// compared plainly (math.Min's NaN and -0 rules cost more than the box):
// callers pass finite points.
func (a AABB) Extend(p mgl64.Vec3) AABB {
	for i := range 3 {
		if p[i] < a.Min[i] {
			a.Min[i] = p[i]
		}
		if p[i] > a.Max[i] {
			a.Max[i] = p[i]
		}
	}
	return a
}

// Union returns the smallest box containing a and b.
func (a AABB) Union(b AABB) AABB {
	for i := range 3 {
		if b.Min[i] < a.Min[i] {
			a.Min[i] = b.Min[i]
		}
		if b.Max[i] > a.Max[i] {
			a.Max[i] = b.Max[i]
		}
	}
	return a
}

// Overlaps reports whether the closed boxes share a point.
func (a AABB) Overlaps(b AABB) bool {
	return a.Min[0] <= b.Max[0] && b.Min[0] <= a.Max[0] &&
		a.Min[1] <= b.Max[1] && b.Min[1] <= a.Max[1] &&
		a.Min[2] <= b.Max[2] && b.Min[2] <= a.Max[2]
}

// Center returns the box's midpoint.
func (a AABB) Center() mgl64.Vec3 { return a.Min.Add(a.Max).Mul(0.5) }

// OBB returns a as an oriented box with identity axes.
func (a AABB) OBB() OBB {
	return OBB{Center: a.Center(), Axes: mgl64.Ident3(), Half: a.Max.Sub(a.Min).Mul(0.5)}
}
