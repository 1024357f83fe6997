package experiments

import (
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
)

// Subdivide returns m with each triangle cut into four at its edges'
// midpoints (the 1-to-4 split of Loop subdivision, without its smoothing:
// the surface keeps its shape exactly). Both triangles of an edge share its
// midpoint, so a welded closed mesh stays closed and keeps its winding.
// Each new triangle keeps its parent's object; the corner triangles come
// in corner order, then the middle one.
func Subdivide(m *env.Mesh) *env.Mesh {
	out := &env.Mesh{
		Verts:   append(make([]geom.Vec3, 0, len(m.Verts)+3*len(m.Tris)/2+3), m.Verts...),
		Tris:    make([][3]int32, 0, 4*len(m.Tris)),
		Object:  make([]int32, 0, 4*len(m.Tris)),
		Objects: m.Objects,
		Convex:  m.Convex,
	}
	mid := make(map[[2]int32]int32, 3*len(m.Tris)/2)
	at := func(a, b int32) int32 {
		key := [2]int32{min(a, b), max(a, b)}
		if v, ok := mid[key]; ok {
			return v
		}
		v := int32(len(out.Verts))
		out.Verts = append(out.Verts, m.Verts[a].Add(m.Verts[b]).Mul(0.5))
		mid[key] = v
		return v
	}
	for i, t := range m.Tris {
		ab, bc, ca := at(t[0], t[1]), at(t[1], t[2]), at(t[2], t[0])
		out.Tris = append(out.Tris, [3]int32{t[0], ab, ca}, [3]int32{ab, t[1], bc}, [3]int32{ca, bc, t[2]}, [3]int32{ab, bc, ca})
		o := m.Object[i]
		out.Object = append(out.Object, o, o, o, o)
	}
	out.Degenerate = 4 * m.Degenerate
	return out
}
