package env_test

import (
	"slices"
	"testing"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
)

// TestSubsetSharesOneRunAndCopiesTheRest: an object's triangles in one run
// are the scene's own (no copy), and appending to them does not write
// over the next object's; a selection with gaps is copied; either way
// each triangle is the one orig names.
func TestSubsetSharesOneRunAndCopiesTheRest(t *testing.T) {
	m := env.Box("a", geom.Vec3{}, geom.Vec3{X: 1, Y: 1, Z: 1})
	m.Append(env.Box("b", geom.Vec3{X: 3}, geom.Vec3{X: 1, Y: 1, Z: 1}))
	before := slices.Clone(m.Tris)
	for _, tc := range []struct {
		name   string
		keep   func(int) bool
		shared bool
	}{
		{"object a", func(i int) bool { return m.Object[i] == 0 }, true},
		{"every other triangle", func(i int) bool { return i%2 == 0 }, false},
	} {
		sub, orig := m.Subset(tc.keep)
		if len(sub.Tris) != len(orig) || len(sub.Object) != len(orig) {
			t.Fatalf("%s: %d triangles, %d objects, %d origins", tc.name, len(sub.Tris), len(sub.Object), len(orig))
		}
		for k, i := range orig {
			if !tc.keep(int(i)) || sub.Tris[k] != m.Tris[i] || sub.Object[k] != m.Object[i] {
				t.Fatalf("%s: triangle %d is not the scene's %d", tc.name, k, i)
			}
		}
		if shared := &sub.Tris[0] == &m.Tris[orig[0]]; shared != tc.shared {
			t.Errorf("%s: shares the scene's triangles: %v, want %v", tc.name, shared, tc.shared)
		}
		sub.Tris = append(sub.Tris, [3]int32{0, 0, 0})
		sub.Object = append(sub.Object, 7)
	}
	if !slices.Equal(m.Tris, before) || m.Object[len(m.Object)/2] != 1 {
		t.Error("appending to a subset changed the scene")
	}
}
