package env

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
)

// convexTol is the relative tolerance within which an object's mesh must
// match its convex hull, in enclosed volume and in surface area, to count
// as convex.
const convexTol = 1e-6

// Hull is an object's convex hull: vertices and outward triangles.
type Hull = geom.Hull

// ObjectHull returns the convex hull of object o's vertices, and false when
// they have none (geom.ConvexHull fails).
func (m *Mesh) ObjectHull(o int) (Hull, bool) {
	var pts []mgl64.Vec3
	seen := map[int32]bool{}
	for i, t := range m.Tris {
		if int(m.Object[i]) != o {
			continue
		}
		for _, v := range t {
			if !seen[v] {
				seen[v] = true
				pts = append(pts, m.Verts[v])
			}
		}
	}
	h, err := geom.ConvexHull(pts)
	return h, err == nil
}

// areaVolume returns the total area and the absolute enclosed volume
// (divergence theorem) of a set of triangles.
func areaVolume(verts []mgl64.Vec3, tris [][3]int32, pick func(i int) bool) (area, vol float64) {
	for i, t := range tris {
		if pick != nil && !pick(i) {
			continue
		}
		a, b, c := verts[t[0]], verts[t[1]], verts[t[2]]
		area += 0.5 * b.Sub(a).Cross(c.Sub(a)).Len()
		vol += a.Dot(b.Cross(c)) / 6
	}
	return area, math.Abs(vol)
}

// detectConvex marks each object whose mesh equals its convex hull: the
// same enclosed volume and the same surface area, within convexTol. A
// closed convex surface passes; a dent changes the volume, an open or
// doubled surface the area or the volume, so anything else is treated as
// a triangle surface.
func (m *Mesh) detectConvex() {
	m.Convex = make([]bool, len(m.Objects))
	for o := range m.Objects {
		h, ok := m.ObjectHull(o)
		if !ok {
			continue
		}
		ha, hv := areaVolume(h.Verts, h.Tris, nil)
		ma, mv := areaVolume(m.Verts, m.Tris, func(i int) bool { return int(m.Object[i]) == o })
		m.Convex[o] = hv > 0 && math.Abs(mv-hv) <= convexTol*hv && math.Abs(ma-ha) <= convexTol*ha
	}
}
