package env

import (
	"cmp"
	"slices"

	"github.com/gloved/gloved/geom"
)

// weld merges equal corners (STL repeats every corner of every facet)
// into shared vertices, numbered in order of first appearance, and returns
// the vertices and each corner's vertex. It sorts instead of hashing so
// that its memory is two int32 per corner, whatever the corners are.
func weld(corners []geom.Vec3) ([]geom.Vec3, []int32) {
	order := make([]int32, len(corners))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		p, q := corners[a], corners[b]
		if c := cmp.Compare(p.X, q.X); c != 0 {
			return c
		}
		if c := cmp.Compare(p.Y, q.Y); c != 0 {
			return c
		}
		if c := cmp.Compare(p.Z, q.Z); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	// first[c] is the first corner equal to corner c: equal corners are
	// adjacent in order, the earliest first.
	first := make([]int32, len(corners))
	for k, c := range order {
		if k > 0 && corners[order[k-1]] == corners[c] {
			first[c] = first[order[k-1]]
		} else {
			first[c] = c
		}
	}
	n := 0
	for c := range first {
		if first[c] == int32(c) {
			n++
		}
	}
	verts := make([]geom.Vec3, 0, n)
	ids := order // reused: a corner's vertex
	for c := range first {
		if f := first[c]; f == int32(c) {
			ids[c] = int32(len(verts))
			verts = append(verts, corners[c])
		} else {
			ids[c] = ids[f]
		}
	}
	return verts, ids
}

// Weld merges the vertices of m at equal positions into one, renumbering
// the triangles, so that a mesh exported with seams (a vertex repeated for
// its normals or texture coordinates, as glTF files do) shares the
// vertices of its edges. Vertices no triangle uses are dropped.
func (m *Mesh) Weld() {
	corners := make([]geom.Vec3, 0, 3*len(m.Tris))
	for _, t := range m.Tris {
		corners = append(corners, m.Verts[t[0]], m.Verts[t[1]], m.Verts[t[2]])
	}
	verts, ids := weld(corners)
	for i := range m.Tris {
		m.Tris[i] = [3]int32{ids[3*i], ids[3*i+1], ids[3*i+2]}
	}
	m.Verts = verts
}
