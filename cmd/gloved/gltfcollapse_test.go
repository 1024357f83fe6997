package main

import (
	"encoding/base64"
	bin "encoding/binary"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAGLTFNodeScaledToZeroIsLeftOutWithAWarning: a glTF node written
// with scale [0, 0, 0] collapses its mesh (it was taken for an unscaled
// node, a whole crate where the file has none); contacts runs the
// scene without it and warns once, in a line naming the node, and the
// daemon's --check passes the file.
func TestAGLTFNodeScaledToZeroIsLeftOutWithAWarning(t *testing.T) {
	t.Parallel()
	file := crateWith(t, "flat.gltf", func(nodes []any) {
		nodes[1].(map[string]any)["scale"] = []float64{0, 0, 0}
	})
	r := runBinary(t, 30*time.Second, "contacts", "--scene", file, "--sim", "--frames", "1")
	r.oneLine(t, 0, "gloved: warning: "+file+`: node 1 "lid": its transform, with its ancestors', collapses its mesh (a zero scale or a singular matrix): left out of the scene`)
	if !strings.Contains(r.stdout, "frame 0") {
		t.Errorf("no frame:\n%s", r.stdout)
	}
	if r := runBinary(t, 30*time.Second, "run", "-c", writeConfig(t, "127.0.0.1:0", file, ""), "--check"); r.code != 0 {
		t.Errorf("--check: exit %d\n%s", r.code, r.stderr)
	}
}

// TestAMirroredGLTFNodeKeepsItsSurfaceFacingTheSameWay: glTF 2.0 has a
// node with a negative determinant (scale [-1, 1, 1] here) reverse its
// triangles' winding, so an open surface keeps its front side. One
// triangle symmetric about x = 0, mirrored in x, lands on itself: the
// simulated hand's contacts with it are those with the unmirrored one,
// normal and depth alike (they were measured from the other side).
func TestAMirroredGLTFNodeKeepsItsSurfaceFacingTheSameWay(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var data []byte
	for _, v := range []float32{-0.1, 0.02, -0.1, 0.1, 0.02, -0.1, 0, 0.02, 0.1} {
		data = bin.LittleEndian.AppendUint32(data, math.Float32bits(v))
	}
	last := func(name string, node map[string]any) string {
		doc, err := json.Marshal(map[string]any{
			"asset":       map[string]any{"version": "2.0"},
			"scenes":      []any{map[string]any{"nodes": []any{0}}},
			"nodes":       []any{node},
			"meshes":      []any{map[string]any{"primitives": []any{map[string]any{"attributes": map[string]any{"POSITION": 0}}}}},
			"buffers":     []any{map[string]any{"byteLength": 36, "uri": "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(data)}},
			"bufferViews": []any{map[string]any{"buffer": 0, "byteLength": 36}},
			"accessors":   []any{map[string]any{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3"}},
		})
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(dir, name)
		if err := os.WriteFile(file, doc, 0o644); err != nil {
			t.Fatal(err)
		}
		r := runBinary(t, 30*time.Second, "contacts", "--sim", "--frames", "30", "--scene", file, "--json")
		lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
		if r.code != 0 || !strings.Contains(lines[len(lines)-1], `"contacts":[{`) {
			t.Fatalf("%s: exit %d, want contacts on the last frame:\n%s%s", name, r.code, r.stderr, lines[len(lines)-1])
		}
		return lines[len(lines)-1]
	}
	plain := last("plain.gltf", map[string]any{"name": "n", "mesh": 0})
	mirrored := last("mirrored.gltf", map[string]any{"name": "n", "mesh": 0, "scale": []any{-1, 1, 1}})
	if mirrored != plain {
		t.Errorf("mirrored in x the surface's contacts are\n%s\nwant the unmirrored\n%s", mirrored, plain)
	}
}
