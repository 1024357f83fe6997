package main

import (
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
