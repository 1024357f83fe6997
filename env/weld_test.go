package env

import (
	"testing"

	"github.com/gloved/gloved/geom"
)

// TestWeldJoinsASeamedBox: a box whose every triangle has its own corners
// (as a glTF file with per-face normals stores it), and vertices no
// triangle uses, welds to the box's 8 vertices, every triangle keeping its
// corners, and is closed.
func TestWeldJoinsASeamedBox(t *testing.T) {
	box := Box("box", geom.Vec3{X: 1}, geom.Vec3{X: 1, Y: 2, Z: 3})
	m := &Mesh{Objects: box.Objects, Object: box.Object}
	for i := range box.Tris {
		tri := box.Triangle(i)
		b := int32(len(m.Verts))
		m.Verts = append(m.Verts, tri[0], tri[1], tri[2], geom.Vec3{X: 9}) // and an unused vertex
		m.Tris = append(m.Tris, [3]int32{b, b + 1, b + 2})
	}
	m.Weld()
	if len(m.Verts) != 8 || len(m.Tris) != 12 {
		t.Fatalf("welded box: %d vertices, %d triangles, want 8 and 12", len(m.Verts), len(m.Tris))
	}
	for i := range m.Tris {
		if got, want := m.Triangle(i), box.Triangle(i); got != want {
			t.Errorf("triangle %d: got %v, want %v", i, got, want)
		}
	}
	if s, err := NewSurface(m, 0); err != nil || !s.Closed {
		t.Errorf("welded box: closed %v, %v; want closed", s != nil && s.Closed, err)
	}
}
