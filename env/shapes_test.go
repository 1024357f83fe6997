package env

import (
	"math"
	"testing"

	"github.com/gloved/gloved/geom"
)

func TestShapesAreClosedAndWindOutward(t *testing.T) {
	box := Box("b", geom.Vec3{X: 1, Y: 2, Z: 3}, geom.Vec3{X: 1, Y: 2, Z: 0.5})
	if v := signedVolume(box); math.Abs(v-8) > 1e-12 {
		t.Errorf("box volume %v, want 8", v)
	}
	s := Sphere("s", geom.Vec3{}, 2, 5)
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
	torus := Torus("t", geom.Vec3{X: 1}, 0.1, 0.03, 64, 32)
	want = 2 * math.Pi * math.Pi * 0.1 * 0.03 * 0.03
	if v := signedVolume(torus); v <= 0.99*want || v > want {
		t.Errorf("torus volume %v, want just under %v", v, want)
	}
}
