package geom

import (
	"errors"
	"fmt"
	"math"

	"github.com/golang/geo/r3"
	quickhull "github.com/markus-wa/quickhull-go/v2"
)

// ErrNoHull is wrapped by ConvexHull's errors: the points have no solid
// convex hull (too few, flat, not finite, or the hull library gave up).
var ErrNoHull = errors.New("no solid convex hull")

// Hull is a convex hull as a mesh: its vertices and its triangles, wound
// counter-clockwise seen from outside.
type Hull struct {
	Verts []Vec3
	Tris  [][3]int32
}

// ConvexHull returns the convex hull of pts, its triangles wound
// counter-clockwise seen from outside. Coplanar neighbours are not merged;
// points within rounding of the hull's surface may be left out of its
// vertices. It fails, with an error wrapping ErrNoHull, for fewer than
// four points, a non-finite point, and flat input (thinner than 1e-8 of
// its extent). The hull is this package's quickhull; quickhull-go (the
// test oracle) takes over on input whose rounding the own hull declines.
func ConvexHull(pts []Vec3) (Hull, error) {
	if len(pts) < 4 {
		return Hull{}, fmt.Errorf("geom: %w: %d points, want at least 4", ErrNoHull, len(pts))
	}
	for i, p := range pts {
		if !p.Finite() {
			return Hull{}, fmt.Errorf("geom: %w: point %d %v is not finite", ErrNoHull, i, p)
		}
	}
	var b hullBuilder
	switch b.Build(pts) {
	case hullFlat:
		return Hull{}, fmt.Errorf("geom: %w: the points are flat", ErrNoHull)
	case hullFailed:
		return libraryConvexHull(pts)
	}
	return b.mesh(), nil
}

// libraryConvexHull is ConvexHull by quickhull-go, its faces turned to
// point away from the vertices' centroid: the library's "ccw" winding is
// clockwise seen from outside by this package's convention.
func libraryConvexHull(pts []Vec3) (Hull, error) {
	in := make([]r3.Vector, len(pts))
	for i, p := range pts {
		in[i] = r3.Vector(p)
	}
	mesh, err := quickHull(new(quickhull.QuickHull), in, false)
	if err != nil {
		return Hull{}, err
	}
	var h Hull
	for _, v := range mesh.Vertices {
		h.Verts = append(h.Verts, Vec3(v))
	}
	c := mean(h.Verts)
	for i := 0; i+2 < len(mesh.Indices); i += 3 {
		t := [3]int32{int32(mesh.Indices[i]), int32(mesh.Indices[i+1]), int32(mesh.Indices[i+2])}
		a, b, d := h.Verts[t[0]], h.Verts[t[1]], h.Verts[t[2]]
		if b.Sub(a).Cross(d.Sub(a)).Dot(a.Sub(c)) < 0 {
			t[1], t[2] = t[2], t[1]
		}
		h.Tris = append(h.Tris, t)
	}
	return h, nil
}

// quickHull runs the hull library with scratch qh. It panics on some
// degenerate input, and returns fewer than four faces for flat input; both
// come back as errors.
func quickHull(qh *quickhull.QuickHull, pts []r3.Vector, originalIndices bool) (hull quickhull.ConvexHull, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("geom: %w: the hull library failed: %v", ErrNoHull, r)
		}
	}()
	hull = qh.ConvexHull(pts, true, originalIndices, 0)
	if len(hull.Indices) < 12 {
		return hull, fmt.Errorf("geom: %w: the points are flat", ErrNoHull)
	}
	return hull, nil
}

// solidRatio is the enclosed volume, relative to the cube of the hull's
// size, under which a hull counts as flat.
const solidRatio = 1e-9

// Solid reports whether the hull encloses volume: more than solidRatio
// times the cube of its size (the largest distance from the vertices'
// centroid to a face's first corner). Nearly coplanar points give a closed
// hull with next to no volume between its faces.
func (h Hull) Solid() bool {
	c := mean(h.Verts)
	vol, size := 0.0, 0.0
	for _, t := range h.Tris {
		a, b, d := h.Verts[t[0]], h.Verts[t[1]], h.Verts[t[2]]
		vol += math.Abs(b.Sub(a).Cross(d.Sub(a)).Dot(a.Sub(c))) / 6
		size = max(size, a.Sub(c).Len())
	}
	return vol > solidRatio*size*size*size
}

// mean returns the centroid of a non-empty point set.
func mean(pts []Vec3) Vec3 {
	var c Vec3
	for _, p := range pts {
		c = c.Add(p)
	}
	return c.Mul(1 / float64(len(pts)))
}
