package geom

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/golang/geo/r3"
	quickhull "github.com/markus-wa/quickhull-go/v2"
)

// FitMode chooses the statistic that orients a fitted box.
type FitMode uint8

const (
	// FitHull orients by the covariance of the convex hull's surface
	// (section 4), falling back to FitSurface when the points do not span
	// three dimensions (section 7.1).
	FitHull FitMode = iota
	// FitSurface orients by the covariance of the given triangles' surface,
	// what the paper's implementation does for rank-deficient groups.
	FitSurface
	// FitAxisAligned uses the identity axes: the AABB tree of section 6.
	FitAxisAligned
)

// FitStats counts how fits were made.
type FitStats struct {
	Hull, Surface, Points, Axis int // fits oriented by each statistic
	HullFailures                int // hull attempts that failed and fell back
	LibraryHulls                int // hulls the own quickhull declined, made by quickhull-go
}

// Fitter fits oriented boxes to point sets. It owns the hull scratch so
// repeated fits reuse memory; one Fitter per goroutine.
type Fitter struct {
	Mode  FitMode
	Stats FitStats
	own   hullBuilder
	qh    quickhull.QuickHull
	buf   []r3.Vector
}

// Fit returns the box around pts, oriented per f.Mode, with extents from the
// extremal projections of pts. tris index pts and carry the surface used when
// the hull cannot be formed; they may be nil for a bare point set. The axes
// are always finite and orthonormal; a flat set gives a zero-thickness box.
func (f *Fitter) Fit(pts []Vec3, tris [][3]int32) OBB {
	if len(pts) == 0 {
		return OBB{Axes: mgl64.Ident3()}
	}
	o := pts[0]
	axes := mgl64.Ident3()
	if f.Mode == FitAxisAligned {
		f.Stats.Axis++
	} else {
		axes = f.orient(pts, tris, o)
	}
	return Extents(pts, axes)
}

// Extents returns the box with the given axes that tightly encloses pts.
// Its half-extents are measured about the centre as computed, in the
// arithmetic a box test uses (|(p-c)·a| for each axis a): (hi-lo)/2 about
// a centre rounded far from the origin fell short of a vertex by the
// centre's rounding, some 1e-10 m at 6e5 m, more than a small box's
// tolerance, and a tree missed pairs there.
func Extents(pts []Vec3, axes mgl64.Mat3) OBB {
	a0, a1, a2 := Col(&axes, 0), Col(&axes, 1), Col(&axes, 2)
	o := pts[0]
	lo, hi := Vec3{}, Vec3{}
	for _, p := range pts[1:] {
		d := p.Sub(o)
		x, y, z := d.Dot(a0), d.Dot(a1), d.Dot(a2)
		lo = Vec3{math.Min(lo.X, x), math.Min(lo.Y, y), math.Min(lo.Z, z)}
		hi = Vec3{math.Max(hi.X, x), math.Max(hi.Y, y), math.Max(hi.Z, z)}
	}
	c := o.Add(MulVec(&axes, lo.Add(hi).Mul(0.5)))
	var h Vec3
	for _, p := range pts {
		d := p.Sub(c)
		h = Vec3{math.Max(h.X, math.Abs(d.Dot(a0))), math.Max(h.Y, math.Abs(d.Dot(a1))), math.Max(h.Z, math.Abs(d.Dot(a2)))}
	}
	return OBB{Center: c, Axes: axes, Half: h}
}

func (f *Fitter) orient(pts []Vec3, tris [][3]int32, o Vec3) mgl64.Mat3 {
	if f.Mode == FitHull && len(pts) >= 4 {
		if axes, ok := f.hullAxes(pts, o); ok {
			f.Stats.Hull++
			return axes
		}
	}
	var m SurfaceMoments
	for _, t := range tris {
		m.Add(pts[t[0]].Sub(o), pts[t[1]].Sub(o), pts[t[2]].Sub(o))
	}
	if m.Area > 0 {
		f.Stats.Surface++
		_, c := m.Covariance()
		_, axes := c.Eigen()
		return axes
	}
	f.Stats.Points++
	_, c := PointCovariance(pts)
	_, axes := c.Eigen()
	return axes
}

// hullAxes orients by the hull surface's covariance. It declines (ok=false)
// when the points are flat (thinner than flatThickness of their extent),
// since a hull needs three dimensions, or when no hull could be made.
func (f *Fitter) hullAxes(pts []Vec3, o Vec3) (mgl64.Mat3, bool) {
	var m SurfaceMoments
	switch f.own.build(pts, o) {
	case hullFlat:
		return mgl64.Mat3{}, false
	case hullMade:
		f.own.Moments(&m)
	case hullFailed:
		if !f.libraryHull(&m) {
			f.Stats.HullFailures++
			return mgl64.Mat3{}, false
		}
	}
	if !(m.Area > 0) {
		f.Stats.HullFailures++
		return mgl64.Mat3{}, false
	}
	_, c := m.Covariance()
	_, axes := c.Eigen()
	return axes, true
}

// libraryHull adds the surface of the hull by quickhull-go of the points
// the own hull was given (moved to the group's first point) to m, for
// input this package's own hull declines. False if the library fails too.
func (f *Fitter) libraryHull(m *SurfaceMoments) bool {
	f.Stats.LibraryHulls++
	f.buf = f.buf[:0]
	for _, d := range f.own.pts {
		f.buf = append(f.buf, r3.Vector(d))
	}
	hull, err := quickHull(&f.qh, f.buf, true)
	if err != nil {
		return false
	}
	v := hull.Vertices
	for i := 0; i+2 < len(hull.Indices); i += 3 {
		p, q, r := v[hull.Indices[i]], v[hull.Indices[i+1]], v[hull.Indices[i+2]]
		m.Add(Vec3(p), Vec3(q), Vec3(r))
	}
	return true
}
