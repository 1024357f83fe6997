package env

import (
	"math"
	"slices"

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
// It costs the object's triangles, not the scene's.
func (m *Mesh) ObjectHull(o int) (Hull, bool) {
	own := m.ObjectTris(o)
	vs := make([]int32, 0, 3*len(own))
	for _, i := range own {
		vs = append(vs, m.Tris[i][:]...)
	}
	slices.Sort(vs)
	vs = slices.Compact(vs)
	pts := make([]geom.Vec3, len(vs))
	for k, v := range vs {
		pts[k] = m.Verts[v]
	}
	h, err := geom.ConvexHull(pts)
	return h, err == nil
}

// hull returns the convex hull of the vertices of triangles own. stamp,
// one per vertex, marks those taken with mark, and pts is scratch, so
// that a caller hulling object after object can reuse both.
func (m *Mesh) hull(own []int32, stamp []int32, mark int32, pts *[]geom.Vec3) (Hull, bool) {
	*pts = (*pts)[:0]
	for _, i := range own {
		for _, v := range m.Tris[i] {
			if stamp[v] != mark {
				stamp[v] = mark
				*pts = append(*pts, m.Verts[v])
			}
		}
	}
	h, err := geom.ConvexHull(*pts)
	return h, err == nil
}

// areaVolume returns the total area and the absolute enclosed volume
// (divergence theorem) of triangles tris, or of those of them own lists.
func areaVolume(verts []geom.Vec3, tris [][3]int32, own []int32) (area, vol float64) {
	add := func(t [3]int32) {
		a, b, c := verts[t[0]], verts[t[1]], verts[t[2]]
		area += 0.5 * b.Sub(a).Cross(c.Sub(a)).Len()
		vol += a.Dot(b.Cross(c)) / 6
	}
	if own == nil {
		for _, t := range tris {
			add(t)
		}
	}
	for _, i := range own {
		add(tris[i])
	}
	return area, math.Abs(vol)
}

// detectConvex marks each object whose mesh equals its convex hull: the
// same enclosed volume and the same surface area, within convexTol. A
// closed convex surface passes; a dent changes the volume, an open or
// doubled surface the area or the volume, so anything else is non-convex:
// a closed solid or an open surface (see Surface). The triangles are grouped by object first, so that
// the work is linear in the triangles however many objects there are.
func (m *Mesh) detectConvex() {
	m.Convex = make([]bool, len(m.Objects))
	stamp := make([]int32, len(m.Verts))
	var pts []geom.Vec3
	for o := range m.Objects {
		own := m.ObjectTris(o)
		h, ok := m.hull(own, stamp, int32(o)+1, &pts)
		if !ok {
			continue
		}
		ha, hv := areaVolume(h.Verts, h.Tris, nil)
		ma, mv := areaVolume(m.Verts, m.Tris, own)
		m.Convex[o] = hv > 0 && math.Abs(mv-hv) <= convexTol*hv && math.Abs(ma-ha) <= convexTol*ha
	}
}
