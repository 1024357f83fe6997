package experiments

import (
	"math"
	"testing"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
)

// TestSubdivideKeepsTheSurface: twice subdivided, a box and a geodesic
// sphere have 16 times the triangles, each object its own, the same area
// and enclosed volume (wound outward still), and stay closed; a vertex is
// added per edge, shared by the edge's two triangles.
func TestSubdivideKeepsTheSurface(t *testing.T) {
	m := env.Box("box", geom.Vec3{X: 1}, geom.Vec3{X: 0.5, Y: 1, Z: 2})
	m.Append(env.Sphere("ball", geom.Vec3{Y: 3}, 1, 1))
	s := Subdivide(Subdivide(m))
	if len(s.Tris) != 16*len(m.Tris) || len(s.Object) != len(s.Tris) {
		t.Fatalf("%d triangles (%d objects), want %d", len(s.Tris), len(s.Object), 16*len(m.Tris))
	}
	// Euler: a closed genus-0 surface of F triangles has F/2 + 2 vertices.
	if want := len(s.Tris)/2 + 2*len(m.Objects); len(s.Verts) != want {
		t.Errorf("%d vertices, want %d", len(s.Verts), want)
	}
	for o, name := range m.Objects {
		for _, q := range []struct {
			what      string
			got, want float64
		}{
			{"area", area(s, o), area(m, o)},
			{"volume", volume(s, o), volume(m, o)},
		} {
			if math.Abs(q.got-q.want) > 1e-9*q.want {
				t.Errorf("%s: %s %v, want %v", name, q.what, q.got, q.want)
			}
		}
		surf, err := env.NewSurface(s, o)
		if err != nil || !surf.Closed {
			t.Errorf("%s: closed %v (%v), want closed", name, surf != nil && surf.Closed, err)
		}
	}
}

// area is object o's surface area.
func area(m *env.Mesh, o int) float64 {
	a := 0.0
	for i := range m.Tris {
		if int(m.Object[i]) == o {
			a += m.Triangle(i).Normal().Len() / 2
		}
	}
	return a
}
