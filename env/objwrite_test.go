package env

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/gloved/gloved/geom"
)

// TestWriteOBJReadsBackAsTheSameMesh: a mesh of two objects written by
// WriteOBJ and read by ReadOBJ has the same vertices to the last bit, the
// same triangles and the same objects.
func TestWriteOBJReadsBackAsTheSameMesh(t *testing.T) {
	m := Torus("ring", geom.Vec3{X: 0.1, Y: 1.0 / 3, Z: -0.2}, 0.08, 0.03, 7, 5)
	m.Append(Box("block", geom.Vec3{X: 1e-9, Y: 2}, geom.Vec3{X: 0.5, Y: 0.25, Z: 0.125}))
	var b bytes.Buffer
	if err := WriteOBJ(&b, m); err != nil {
		t.Fatal(err)
	}
	got, err := ReadOBJ(&b, "unnamed")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Verts, m.Verts) || !reflect.DeepEqual(got.Tris, m.Tris) || !reflect.DeepEqual(got.Object, m.Object) || !reflect.DeepEqual(got.Objects, m.Objects) {
		t.Fatalf("read back %d verts, %d tris, objects %v; wrote %d, %d, %v", len(got.Verts), len(got.Tris), got.Objects, len(m.Verts), len(m.Tris), m.Objects)
	}
}
