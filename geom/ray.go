package geom

// rayParallel is the smallest |det| (relative to the triangle's and the
// direction's sizes) at which a ray is not taken as parallel to a
// triangle's plane.
const rayParallel = 1e-12

// rayEdgeTol widens a triangle's edges, in barycentric coordinates, so
// that a ray through an edge two triangles share meets at least one of
// them after rounding.
const rayEdgeTol = 1e-9

// RayTriangle returns the parameter t >= 0 at which the ray o + t·d meets
// triangle (a, b, c), edges and corners included (widened by rayEdgeTol),
// and whether it does (Möller and Trumbore 1997). A ray in the triangle's
// plane misses it.
func RayTriangle(o, d, a, b, c Vec3) (float64, bool) {
	e1, e2 := b.Sub(a), c.Sub(a)
	p := d.Cross(e2)
	det := e1.Dot(p)
	if scale := e1.Len() * e2.Len() * d.Len(); !(det > rayParallel*scale || det < -rayParallel*scale) {
		return 0, false
	}
	inv := 1 / det
	s := o.Sub(a)
	u := s.Dot(p) * inv
	if u < -rayEdgeTol || u > 1+rayEdgeTol {
		return 0, false
	}
	q := s.Cross(e1)
	v := d.Dot(q) * inv
	if v < -rayEdgeTol || u+v > 1+rayEdgeTol {
		return 0, false
	}
	t := e2.Dot(q) * inv
	return t, t >= 0
}
