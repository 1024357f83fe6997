package geom

import (
	"math"
)

// The hull's start (Barber, Dobkin and Huhdanpaa, "The Quickhull
// Algorithm for Convex Hulls", ACM TOMS 22(4), 1996, section 3): a
// tetrahedron on the extreme points farthest apart, whose faces share the
// other points out.

// simplex starts the hull with a tetrahedron of far-apart points and
// gives every other point to a face it is outside of. False if the points
// are flat (or not finite).
func (h *hullBuilder) simplex() bool {
	pts := h.pts
	ext, scale := extremes(pts)
	if !(scale < math.Inf(1)) {
		return false
	}
	h.eps, h.near = hullEpsFactor*3*scale, nearPlane*scale
	i0, i1 := widestPair(pts, &ext)
	a := pts[i0]
	ab := pts[i1].Sub(a)
	size := ab.Len()
	thin := max(h.eps, flatThickness*size) * size
	// The third corner: the extreme point farthest from line (a, b), or,
	// when the extremes are all near that line, the farthest of all.
	i2, ok := farthest(pts, &ext,
		func(p Vec3) float64 { return ab.Cross(p.Sub(a)).LenSqr() },
		func(d float64) bool { return math.Sqrt(d) > thin })
	if !ok {
		return false
	}
	n := ab.Cross(pts[i2].Sub(a)).Normalize()
	// The fourth likewise, off the plane of the first three.
	flat := max(h.eps, flatThickness*size)
	i3, ok := farthest(pts, &ext,
		func(p Vec3) float64 { return math.Abs(n.Dot(p.Sub(a))) },
		func(d float64) bool { return d > flat })
	if !ok {
		return false
	}
	if n.Dot(pts[i3].Sub(a)) > 0 { // the fourth point must be behind (i0, i1, i2)
		i1, i2 = i2, i1
	}
	h.tetrahedron(i0, i1, i2, i3)
	return true
}

// extremes returns the points of least and greatest x, y and z (ext[2k]
// and ext[2k+1]), and the coordinates' largest magnitude (not finite if a
// coordinate is not).
func extremes(pts []Vec3) (ext [6]int32, scale float64) {
	for i, p := range pts {
		for k := range 3 {
			x := p.At(k)
			if x < pts[ext[2*k]].At(k) {
				ext[2*k] = int32(i)
			}
			if x > pts[ext[2*k+1]].At(k) {
				ext[2*k+1] = int32(i)
			}
			scale = max(scale, math.Abs(x))
		}
	}
	return ext, scale
}

// widestPair returns the pair of extremes farthest apart along one axis.
func widestPair(pts []Vec3, ext *[6]int32) (i0, i1 int32) {
	best := -1.0
	for k := range 3 {
		if d := pts[ext[2*k+1]].Sub(pts[ext[2*k]]).LenSqr(); d > best {
			best, i0, i1 = d, ext[2*k], ext[2*k+1]
		}
	}
	return i0, i1
}

// farthest returns the extreme point of greatest positive dist, or, when
// that is not enough, the point of all pts of greatest dist; false if
// even that is not enough.
func farthest(pts []Vec3, ext *[6]int32, dist func(Vec3) float64, enough func(float64) bool) (int32, bool) {
	i, best := int32(-1), 0.0
	for _, j := range ext {
		if d := dist(pts[j]); d > best {
			best, i = d, j
		}
	}
	if !enough(best) {
		for j, p := range pts {
			if d := dist(p); d > best {
				best, i = d, int32(j)
			}
		}
	}
	return i, i >= 0 && enough(best)
}

// tetrahedron makes the hull's first four faces, on corners i0, i1, i2
// (counter-clockwise seen from outside) and i3 behind them, links them,
// and gives every other point to a face it is outside of.
func (h *hullBuilder) tetrahedron(i0, i1, i2, i3 int32) {
	h.face(i0, i1, i2)
	h.face(i0, i3, i1)
	h.face(i1, i3, i2)
	h.face(i2, i3, i0)
	h.link(0, 0, 1, 2)
	h.link(0, 1, 2, 2)
	h.link(0, 2, 3, 2)
	h.link(1, 0, 3, 1)
	h.link(1, 1, 2, 0)
	h.link(2, 1, 3, 0)
	h.next = growInt32(h.next, len(h.pts))
	all := [4]int32{0, 1, 2, 3}
	for i := range h.pts {
		if j := int32(i); j != i0 && j != i1 && j != i2 && j != i3 {
			h.assign(j, all[:])
		}
	}
	h.pending = append(h.pending, all[:]...)
}
