package experiments

import (
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
)

func TestExactQueries(t *testing.T) {
	body, _ := ChainBody("r", 1, LinkShape{Length: 6, Thickness: 1})
	dented, _ := ChainBody("d", 1, LinkShape{Length: 6, Thickness: 1, Dented: true})
	e, _ := NewExact(body)
	ed, _ := NewExact(dented)
	id := geom.Identity()
	tests := []struct {
		name string
		tri  geom.Triangle
		want bool
	}{
		{"crossing", geom.Triangle{{X: -2, Y: 3, Z: -2}, {X: 2, Y: 3, Z: -2}, {Y: 3, Z: 2}}, true},
		{"far", geom.Triangle{{X: -2, Y: 9, Z: -2}, {X: 2, Y: 9, Z: -2}, {Y: 9, Z: 2}}, false},
		{"inside the solid", geom.Triangle{{Y: 3}, {X: 0.1, Y: 3}, {Y: 3.1}}, true},
		{"beside it", geom.Triangle{{X: 0.6, Y: 3, Z: -1}, {X: 0.6, Y: 3.5, Z: 1}, {X: 0.6, Y: 2.5, Z: 1}}, false},
	}
	for _, tc := range tests {
		if got := e.LinkTriangle(0, id, tc.tri); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
	// Inside the dent of the non-convex link is outside its solid.
	inDent := geom.Triangle{{Y: 3, Z: 0.4}, {X: 0.02, Y: 3, Z: 0.4}, {Y: 3.02, Z: 0.4}}
	if ed.LinkTriangle(0, id, inDent) {
		t.Error("a triangle in the dent is not inside the dented link")
	}
	if !ed.LinkTriangle(0, id, geom.Triangle{{Y: 3, Z: -0.2}, {X: 0.02, Y: 3, Z: -0.2}, {Y: 3.02, Z: -0.2}}) {
		t.Error("a triangle in the dented link's solid part is inside it")
	}
	// Two links: crossing, apart, and one wholly inside the other.
	big, _ := ChainBody("big", 1, LinkShape{Length: 6, Thickness: 3})
	eb, _ := NewExact(big)
	small := geom.Transform{R: mgl64.Ident3(), T: geom.Vec3{Y: 2}}
	small.R = mgl64.HomogRotate3DZ(0.1).Mat3()
	if !eb.LinkLink(0, id, e, 0, geom.Transform{R: mgl64.HomogRotate3DX(1.5).Mat3(), T: geom.Vec3{Y: 3, Z: -3}}) {
		t.Error("crossing links")
	}
	if eb.LinkLink(0, id, e, 0, geom.Transform{R: mgl64.Ident3(), T: geom.Vec3{X: 5}}) {
		t.Error("links apart")
	}
	tiny, _ := ChainBody("tiny", 1, LinkShape{Length: 1, Thickness: 0.3})
	et, _ := NewExact(tiny)
	if !eb.LinkLink(0, id, et, 0, small) || !et.LinkLink(0, small, eb, 0, id) {
		t.Error("a link inside another meets it, both ways")
	}
}
