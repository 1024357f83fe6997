package env

import (
	"testing"

	"github.com/gloved/gloved/geom"
)

func TestConvexDetection(t *testing.T) {
	scene := Box("box", geom.Vec3{}, geom.Vec3{X: 1, Y: 2, Z: 3})
	scene.Append(Sphere("ball", geom.Vec3{X: 5}, 1, 3))
	dented := Sphere("dented", geom.Vec3{X: -5}, 1, 3)
	dented.Verts[0] = dented.Verts[0].Mul(0.8) // push one vertex in
	scene.Append(dented)
	open := Box("open", geom.Vec3{Y: 9}, geom.Vec3{X: 1, Y: 1, Z: 1})
	open.Tris, open.Object = open.Tris[:10], open.Object[:10] // a lid missing
	scene.Append(open)
	scene.DetectConvex()
	want := []bool{true, true, false, false}
	for o, w := range want {
		if scene.Convex[o] != w {
			t.Errorf("%s: convex %v, want %v", scene.Objects[o], scene.Convex[o], w)
		}
	}
	m, err := Load(scenes+"two_objects.obj", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// The cube is closed and convex; the hexagonal table top is flat.
	if !m.Convex[0] || m.Convex[1] {
		t.Errorf("two_objects.obj: convex %v, want [true false]", m.Convex)
	}
}
