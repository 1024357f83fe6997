package geom

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// AABB is an axis-aligned box [Min, Max]. EmptyAABB is the box that contains
// nothing; extending it by a point gives that point.
type AABB struct {
	Min, Max Vec3
}

// EmptyAABB returns the identity of Union: Min = +Inf, Max = -Inf.
func EmptyAABB() AABB {
	inf := math.Inf(1)
	return AABB{Min: Vec3{inf, inf, inf}, Max: Vec3{-inf, -inf, -inf}}
}

// IsEmpty reports whether the box contains no point.
func (a AABB) IsEmpty() bool {
	return a.Min.X > a.Max.X || a.Min.Y > a.Max.Y || a.Min.Z > a.Max.Z
}

// Extend returns the smallest box containing a and p. Coordinates are
// compared plainly (math.Min's NaN and -0 rules cost more than the box):
// callers pass finite points.
func (a AABB) Extend(p Vec3) AABB {
	return AABB{Min: minPlain(a.Min, p), Max: maxPlain(a.Max, p)}
}

// Union returns the smallest box containing a and b.
func (a AABB) Union(b AABB) AABB {
	return AABB{Min: minPlain(a.Min, b.Min), Max: maxPlain(a.Max, b.Max)}
}

// minPlain returns the coordinates of p below m's, m's elsewhere: plain
// comparisons, as Extend takes them.
func minPlain(m, p Vec3) Vec3 {
	if p.X < m.X {
		m.X = p.X
	}
	if p.Y < m.Y {
		m.Y = p.Y
	}
	if p.Z < m.Z {
		m.Z = p.Z
	}
	return m
}

// maxPlain returns the coordinates of p above m's, m's elsewhere.
func maxPlain(m, p Vec3) Vec3 {
	if p.X > m.X {
		m.X = p.X
	}
	if p.Y > m.Y {
		m.Y = p.Y
	}
	if p.Z > m.Z {
		m.Z = p.Z
	}
	return m
}

// Overlaps reports whether the closed boxes share a point.
func (a AABB) Overlaps(b AABB) bool {
	return a.Min.X <= b.Max.X && b.Min.X <= a.Max.X &&
		a.Min.Y <= b.Max.Y && b.Min.Y <= a.Max.Y &&
		a.Min.Z <= b.Max.Z && b.Min.Z <= a.Max.Z
}

// Center returns the box's midpoint.
func (a AABB) Center() Vec3 { return a.Min.Add(a.Max).Mul(0.5) }

// OBB returns a as an oriented box with identity axes.
func (a AABB) OBB() OBB {
	return OBB{Center: a.Center(), Axes: mgl64.Ident3(), Half: a.Max.Sub(a.Min).Mul(0.5)}
}
