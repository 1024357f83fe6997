package env

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// signedVolume is Σ v0·(v1×v2)/6: the enclosed volume of a closed mesh whose
// faces wind outward.
func signedVolume(m *Mesh) float64 {
	v := 0.0
	for i := range m.Tris {
		t := m.Triangle(i)
		v += t[0].Dot(t[1].Cross(t[2])) / 6
	}
	return v
}

func TestShapesAreClosedAndWindOutward(t *testing.T) {
	box := Box("b", mgl64.Vec3{1, 2, 3}, mgl64.Vec3{1, 2, 0.5})
	if v := signedVolume(box); math.Abs(v-8) > 1e-12 {
		t.Errorf("box volume %v, want 8", v)
	}
	s := Sphere("s", mgl64.Vec3{}, 2, 5)
	if len(s.Tris) != 8<<10 {
		t.Errorf("level 5 sphere has %d triangles, want %d", len(s.Tris), 8<<10)
	}
	// Closed with shared vertices: V - E + F = 2 with E = 3F/2.
	if euler := len(s.Verts) - 3*len(s.Tris)/2 + len(s.Tris); euler != 2 {
		t.Errorf("sphere Euler characteristic %d, want 2 (vertices not welded?)", euler)
	}
	want := 4.0 / 3 * math.Pi * 8
	if v := signedVolume(s); v <= 0.99*want || v > want {
		t.Errorf("sphere volume %v, want just under %v", v, want)
	}
}
