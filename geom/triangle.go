package geom

import (
	"math"
)

// Triangle is three corners. Zero-area triangles (two or three coincident
// or collinear corners) are legal everywhere in this package.
type Triangle [3]Vec3

// Normal returns the unnormalised normal (p1-p0)×(p2-p0); its length is twice
// the area.
func (t Triangle) Normal() Vec3 { return t[1].Sub(t[0]).Cross(t[2].Sub(t[0])) }

// Area returns the triangle's area.
func (t Triangle) Area() float64 { return 0.5 * t.Normal().Len() }

// Centroid returns the mean of the corners.
func (t Triangle) Centroid() Vec3 { return t[0].Add(t[1]).Add(t[2]).Mul(1.0 / 3) }

// Transformed returns the triangle moved by x.
func (t Triangle) Transformed(x Transform) Triangle {
	return Triangle{x.Apply(t[0]), x.Apply(t[1]), x.Apply(t[2])}
}

// Degenerate reports whether the triangle's area is zero relative to its
// size: |n| <= DegenerateTol·(longest edge)^2.
func (t Triangle) Degenerate() bool {
	e := math.Max(t[1].Sub(t[0]).LenSqr(), math.Max(t[2].Sub(t[1]).LenSqr(), t[0].Sub(t[2]).LenSqr()))
	return t.Normal().Len() <= DegenerateTol*e
}

// DegenerateTol is the sine of the smallest corner angle below which a
// triangle counts as degenerate for reporting (load statistics). The overlap
// tests do not depend on it.
const DegenerateTol = 1e-12
