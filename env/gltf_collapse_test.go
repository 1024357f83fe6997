package env

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestANodeWhoseTransformCollapsesItsMeshContributesNoTriangles: a
// node's zero scale, zero matrix or singular scale ([0,1,1]) flattens its
// mesh, as the glTF specification has it; the node then contributes no
// triangles, and loading warns once, naming it, while its siblings stay
// where they were. (qmuntal/gltf, the oracle of gltf_oracle_test.go,
// takes a zero scale or matrix for absent and would place the cube
// unscaled: this is where readGLTF differs from it.) A file of collapsed
// nodes only is refused, saying why.
func TestANodeWhoseTransformCollapsesItsMeshContributesNoTriangles(t *testing.T) {
	dir := t.TempDir()
	for name, collapse := range map[string]obj{
		"zero scale":    {"scale": []any{0, 0, 0}},
		"zero matrix":   {"matrix": []any{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
		"flat scale":    {"scale": []any{0, 1, 1}},
		"parent scaled": {"children": []any{2}, "scale": []any{0, 0, 0}},
	} {
		b := cubeGLTF(func(d obj) {
			d["scenes"] = []any{obj{"nodes": []any{0, 1}}}
			flat := obj{"name": "flat", "mesh": 0}
			for k, v := range collapse {
				flat[k] = v
			}
			nodes := []any{obj{"name": "kept", "mesh": 0, "translation": []any{0, 2, 0}}, flat}
			if _, ok := collapse["children"]; ok {
				delete(flat, "mesh")
				nodes = append(nodes, obj{"name": "child", "mesh": 0})
			}
			d["nodes"] = nodes
		})
		p := filepath.Join(dir, strings.ReplaceAll(name, " ", "_")+".gltf")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		m, err := Load(p, LoadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(m.Tris) != 12 || len(m.Objects) != 1 || m.Objects[0] != "kept" {
			t.Errorf("%s: %d triangles in %v: want the kept cube's 12 alone", name, len(m.Tris), m.Objects)
		}
		leftOut := `node 1 "flat"`
		if _, ok := collapse["children"]; ok {
			leftOut = `node 2 "child"`
		}
		if len(m.Warnings) != 1 || !strings.Contains(m.Warnings[0], p+": "+leftOut+": its transform, with its ancestors', collapses its mesh") {
			t.Errorf("%s: warnings %q: want one naming %s", name, m.Warnings, leftOut)
		}
	}
	p := filepath.Join(dir, "all.gltf")
	os.WriteFile(p, cubeGLTF(set("nodes", 0, "scale", []any{0, 0, 0})), 0o644)
	if _, err := Load(p, LoadOptions{}); !errors.Is(err, ErrEmpty) || !strings.Contains(err.Error(), `node 0 "crate"`) {
		t.Errorf("a file of a collapsed node only: %v, want no triangles naming node 0", err)
	}
}
