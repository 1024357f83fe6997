package env

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/golang/geo/r3"
	quickhull "github.com/markus-wa/quickhull-go/v2"
)

// convexTol is the relative tolerance within which an object's mesh must
// match its convex hull, in enclosed volume and in surface area, to count
// as convex.
const convexTol = 1e-6

// Hull is an object's convex hull: vertices and outward triangles.
type Hull struct {
	Verts []mgl64.Vec3
	Tris  [][3]int32
}

// ObjectHull returns the convex hull of object o's vertices.
func (m *Mesh) ObjectHull(o int) (Hull, bool) {
	var pts []r3.Vector
	seen := map[int32]bool{}
	for i, t := range m.Tris {
		if int(m.Object[i]) != o {
			continue
		}
		for _, v := range t {
			if !seen[v] {
				seen[v] = true
				p := m.Verts[v]
				pts = append(pts, r3.Vector{X: p[0], Y: p[1], Z: p[2]})
			}
		}
	}
	return hullOf(pts)
}

func hullOf(pts []r3.Vector) (h Hull, ok bool) {
	if len(pts) < 4 {
		return h, false
	}
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	qh := new(quickhull.QuickHull).ConvexHull(pts, true, false, 0)
	if len(qh.Indices) < 12 {
		return h, false
	}
	for _, v := range qh.Vertices {
		h.Verts = append(h.Verts, mgl64.Vec3{v.X, v.Y, v.Z})
	}
	var c mgl64.Vec3
	for _, v := range h.Verts {
		c = c.Add(v)
	}
	c = c.Mul(1 / float64(len(h.Verts)))
	for i := 0; i+2 < len(qh.Indices); i += 3 {
		t := [3]int32{int32(qh.Indices[i]), int32(qh.Indices[i+1]), int32(qh.Indices[i+2])}
		a, b, d := h.Verts[t[0]], h.Verts[t[1]], h.Verts[t[2]]
		if b.Sub(a).Cross(d.Sub(a)).Dot(a.Sub(c)) < 0 {
			t[1], t[2] = t[2], t[1]
		}
		h.Tris = append(h.Tris, t)
	}
	return h, true
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
