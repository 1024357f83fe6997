package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gloved/gloved/env"
)

var webxrRight = filepath.Join("..", "..", "handmodel", "testdata", "webxr-generic-hand", "right.glb")

// TestHandMeshIsPosedAndExported: `gloved hand --mesh` builds the hand on
// the skinned WebXR hand, poses it and writes it into the OBJ beside the
// links,
// whole: every triangle of the skin, numbered after the links' vertices.
func TestHandMeshIsPosedAndExported(t *testing.T) {
	obj := filepath.Join(t.TempDir(), "fist.obj")
	r := runBinary(t, 20*time.Second, "hand", "--mesh", webxrRight, "--pose", "fist", "-o", obj)
	if r.code != 0 || !strings.Contains(r.stdout, "1360 vertices, 2314 triangles, 25 joints") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	// The hand is the skin's: its size is measured from it, not the
	// procedural default.
	if strings.Contains(r.stdout, "length 0.190 m") {
		t.Errorf("the hand has the procedural default length: %s", r.stdout)
	}
	m, err := env.Load(obj, env.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	skin := slices.Index(m.Objects, "skin")
	if skin < 0 {
		t.Fatalf("objects %v: no skin", m.Objects)
	}
	n := 0
	for _, o := range m.Object {
		if int(o) == skin {
			n++
		}
	}
	if n != 2314 {
		t.Errorf("the exported skin has %d triangles, want 2314", n)
	}
}

// TestHandExportsGLB: `-o FILE.glb` writes binary glTF that a scene loader
// reads back: a node per link and the skin, the same triangles as the OBJ
// export of the same pose, to float32 precision. Another extension is a
// usage error, before anything is written.
func TestHandExportsGLB(t *testing.T) {
	dir := t.TempDir()
	obj, glb := filepath.Join(dir, "hand.obj"), filepath.Join(dir, "hand.glb")
	for _, out := range []string{obj, glb} {
		if r := runBinary(t, 20*time.Second, "hand", "--mesh", webxrRight, "--pose", "spread", "-o", out); r.code != 0 {
			t.Fatalf("-o %s: exit %d\nstderr: %s", out, r.code, r.stderr)
		}
	}
	a, err := env.Load(obj, env.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := env.Load(glb, env.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.Objects, b.Objects) || len(a.Tris) != len(b.Tris) {
		t.Fatalf("OBJ has %d triangles in %v, glTF %d in %v", len(a.Tris), a.Objects, len(b.Tris), b.Objects)
	}
	for i := range a.Tris {
		for k := range 3 {
			// The OBJ prints 6 decimals; the glTF keeps float32.
			if d := a.Verts[a.Tris[i][k]].Sub(b.Verts[b.Tris[i][k]]).Len(); d > 2e-6 || a.Object[i] != b.Object[i] {
				t.Fatalf("triangle %d corner %d: OBJ and glTF differ by %.3g m", i, k, d)
			}
		}
	}
	runBinary(t, 20*time.Second, "hand", "-o", filepath.Join(dir, "hand.fbx")).oneLine(t, 2, "hand.fbx", ".glb")
}

// TestHandMeshFailuresSayWhatIsWrong: a missing file and a glTF without a
// skinned mesh each end with one line naming the file and the problem,
// and so does an -o naming the --meshes file the command reads.
func TestHandMeshFailuresSayWhatIsWrong(t *testing.T) {
	runBinary(t, 20*time.Second, "hand", "--mesh", "no-such-hand.glb").oneLine(t, 1, "no-such-hand.glb")
	crate := filepath.Join("..", "..", "testdata", "scenes", "crate.glb")
	runBinary(t, 20*time.Second, "hand", "--mesh", crate).oneLine(t, 1, "crate.glb", "no skinned mesh")
	// -o naming the --meshes file it reads is refused, the file untouched
	// (it was overwritten, and drifted with every run).
	meshes := filepath.Join(t.TempDir(), "fist.obj")
	if r := runBinary(t, 20*time.Second, "hand", "--pose", "fist", "-o", meshes); r.code != 0 {
		t.Fatalf("hand -o: exit %d: %s", r.code, r.stderr)
	}
	before, err := os.ReadFile(meshes)
	if err != nil {
		t.Fatal(err)
	}
	runBinary(t, 20*time.Second, "hand", "--meshes", meshes, "-o", meshes).oneLine(t, 2, "-o", "fist.obj is the file --meshes reads")
	// With no -o, nothing is written: --meshes naming the working
	// directory was "-o  is the file --meshes reads".
	if r := runBinary(t, 20*time.Second, "hand", "--meshes", "."); strings.Contains(r.stderr, "-o") {
		t.Errorf("hand --meshes . without -o: %s", r.stderr)
	} else {
		r.oneLine(t, 1, "unsupported file type")
	}
	if after, err := os.ReadFile(meshes); err != nil || string(after) != string(before) {
		t.Errorf("the --meshes file changed (%v)", err)
	}
}

// TestContactsWithTheSkinnedHand: the offline pipeline runs the hand built
// on the skin: the simulated grasp closes its fingers on the shipped ball.
func TestContactsWithTheSkinnedHand(t *testing.T) {
	r := runBinary(t, 60*time.Second, "contacts", "--sim", "--scene", "builtin:grasp", "--frames", "200",
		"--wrist-pose", "0 0.91 0.10 -0.70710678 0 0 0.70710678", "--mesh", webxrRight)
	if r.code != 0 || !strings.Contains(r.stdout, " in ball ") {
		t.Fatalf("exit %d, no contact with the ball\nstdout: %.2000s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
}

// TestBenchSelfPrintsItsTables: `gloved bench self` measures both hands
// (the skinned one with --mesh), prints the accuracy and overlap tables,
// writes the plot, and refuses a frame count that cannot run.
func TestBenchSelfPrintsItsTables(t *testing.T) {
	t.Parallel()
	svg := filepath.Join(t.TempDir(), "f.svg")
	r := runBinary(t, 60*time.Second, "bench", "self", "--mesh", webxrRight, "--frames", "20", "--plot", svg)
	if r.code != 0 {
		t.Fatalf("exit %d\nstderr: %s", r.code, r.stderr)
	}
	for _, want := range []string{"procedural hand: 73 spheres", "skinned hand: 37 spheres", "j1'", "M2 par", "FN %", "fist", "plot written to " + svg} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the output has no %q:\n%s", want, r.stdout)
		}
	}
	if b, err := os.ReadFile(svg); err != nil || !strings.Contains(string(b), "<svg") {
		t.Errorf("the plot: %v", err)
	}
	runBinary(t, 20*time.Second, "bench", "self", "--frames", "0").oneLine(t, 2, "--frames 0")
}
