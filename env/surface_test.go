package env_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
)

// separateCorners gives every triangle its own three vertices, as a file
// with seams does.
func separateCorners(m *env.Mesh) *env.Mesh {
	s := &env.Mesh{Objects: m.Objects}
	for i := range m.Tris {
		t := m.Triangle(i)
		base := int32(len(s.Verts))
		s.Verts = append(s.Verts, t[0], t[1], t[2])
		s.Tris = append(s.Tris, [3]int32{base, base + 1, base + 2})
		s.Object = append(s.Object, m.Object[i])
	}
	return s
}

func TestSurfaceClosedness(t *testing.T) {
	box := func() *env.Mesh { return env.Box("b", geom.Vec3{}, geom.Vec3{X: 1, Y: 1, Z: 1}) }
	missing := box()
	missing.Tris, missing.Object = missing.Tris[1:], missing.Object[1:]
	turned := box()
	turned.Tris[3] = [3]int32{turned.Tris[3][0], turned.Tris[3][2], turned.Tris[3][1]}
	inward := box()
	for i, tri := range inward.Tris {
		inward.Tris[i] = [3]int32{tri[0], tri[2], tri[1]}
	}
	doubled := box()
	doubled.Append(env.Box("b2", geom.Vec3{}, geom.Vec3{X: 1, Y: 1, Z: 1}))
	doubled.Object = make([]int32, len(doubled.Tris))
	cases := []struct {
		name   string
		m      *env.Mesh
		closed bool
	}{
		{"box", box(), true},
		{"sphere", env.Sphere("s", geom.Vec3{}, 1, 3), true},
		{"torus", env.Torus("t", geom.Vec3{}, 1, 0.3, 24, 12), true},
		{"box with seams", separateCorners(box()), true},
		{"box inward", inward, true},
		{"box missing a triangle", missing, false},
		{"box with a triangle turned", turned, false},
		{"two boxes on the same corners", doubled, false},
		{"soup", env.Soup("s", rand.New(rand.NewPCG(1, 2)), 50, 1, 0.5), false},
	}
	for _, c := range cases {
		s, err := env.NewSurface(c.m, 0)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if s.Closed != c.closed {
			t.Errorf("%s: closed %v, want %v", c.name, s.Closed, c.closed)
		}
	}
}
