package env

import (
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

func TestConvexDetection(t *testing.T) {
	scene := Box("box", mgl64.Vec3{}, mgl64.Vec3{1, 2, 3})
	scene.Append(Sphere("ball", mgl64.Vec3{5, 0, 0}, 1, 3))
	dented := Sphere("dented", mgl64.Vec3{-5, 0, 0}, 1, 3)
	dented.Verts[0] = dented.Verts[0].Mul(0.8) // push one vertex in
	scene.Append(dented)
	open := Box("open", mgl64.Vec3{0, 9, 0}, mgl64.Vec3{1, 1, 1})
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
