package main

import (
	"bufio"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/qmuntal/gltf"

	"github.com/gloved/gloved/animation"
	"github.com/gloved/gloved/animation/animationtest"
	"github.com/gloved/gloved/geom"
)

// readClip reads an exported file back: it must pass Validate, and have
// one animation.
func readClip(t *testing.T, path string) (*gltf.Document, *animation.Clip) {
	t.Helper()
	doc, err := animation.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	clip, err := animation.ReadClip(doc, 0)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return doc, clip
}

// TestExportGLTFWritesAValidFile: `gloved export --gltf` writes one file
// that the Khronos glTF-Validator and Validate pass, says what it wrote in
// one line, and keys the animation once per frame; held over the ball the
// grasp's contacts are there as markers, and with --mesh the skinned hand
// as a skin.
func TestExportGLTFWritesAValidFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	glb := filepath.Join(dir, "x.glb")
	r := runBinary(t, 60*time.Second, "export", "--gltf", glb, "--scene", "builtin:grasp", "--sim", "--frames", "60")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "exported 60 frames, 16 links and 0 contact markers to "+glb+" (") || strings.Count(r.stdout, "\n") != 1 {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	if st, err := os.Stat(glb); err != nil || !strings.Contains(r.stdout, "("+strconv.FormatInt(st.Size(), 10)+" bytes)") {
		t.Errorf("the summary's size is not the file's: %s (%v)", r.stdout, err)
	}
	t.Run("khronos", func(t *testing.T) { animationtest.Khronos(t, glb) })
	doc, clip := readClip(t, glb)
	if n := len(clip.Times(animation.FindNode(doc, "index3"), gltf.TRSRotation)); n != 60 {
		t.Errorf("%d keys, want one per frame (60)", n)
	}

	skinned := filepath.Join(dir, "skinned.gltf")
	r = runBinary(t, 60*time.Second, "export", "--gltf", skinned, "--scene", "builtin:grasp", "--sim", "--frames", "120",
		"--wrist-pose", "0 0.91 0.10 -0.70710678 0 0 0.70710678", "--mesh", webxrRight)
	if r.code != 0 || !strings.Contains(r.stdout, "16 links, a skin of 25 joints and 8 contact markers") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	t.Run("khronos skinned", func(t *testing.T) { animationtest.Khronos(t, skinned) })
	doc, _ = readClip(t, skinned)
	if len(doc.Skins) != 1 || animation.FindNode(doc, animation.MarkerName(7)) < 0 {
		t.Errorf("%d skins; markers up to %s: %v", len(doc.Skins), animation.MarkerName(7), animation.FindNode(doc, animation.MarkerName(7)))
	}
}

// framesTxt reads the link transforms of `gloved export --out`'s
// frames.txt: for each frame, each link's.
func framesTxt(t *testing.T, path string) [][]geom.Transform {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][]geom.Transform
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) != 14 || fs[0] == "#" {
			continue
		}
		var v [12]float64
		for i := range v {
			v[i], _ = strconv.ParseFloat(fs[2+i], 64)
		}
		frame, _ := strconv.Atoi(fs[0])
		for len(out) <= frame {
			out = append(out, nil)
		}
		out[frame] = append(out[frame], geom.Transform{
			R: mgl64.Mat3FromRows(mgl64.Vec3{v[0], v[1], v[2]}, mgl64.Vec3{v[4], v[5], v[6]}, mgl64.Vec3{v[8], v[9], v[10]}),
			T: geom.Vec3{X: v[3], Y: v[7], Z: v[11]},
		})
	}
	return out
}

// TestExportGLTFAgreesWithThePlainExport: the shipped recording exported
// as glTF and as plain text (frames.txt, 9 digits) gives the same link
// transforms at each frame's key, to single precision (1e-6 m and 1e-6 per
// rotation entry); its two samples that share a stamp get distinct,
// increasing keys.
func TestExportGLTFAgreesWithThePlainExport(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	scene, rec := "../../testdata/scenes/grasp.obj", "../../testdata/recordings/grasp.glove"
	glb := filepath.Join(dir, "grasp.glb")
	if r := runBinary(t, 60*time.Second, "export", "--scene", scene, "--recording", rec, "--gltf", glb); r.code != 0 {
		t.Fatalf("exit %d\nstderr: %s", r.code, r.stderr)
	}
	if r := runBinary(t, 60*time.Second, "export", "--scene", scene, "--recording", rec, "--out", dir); r.code != 0 {
		t.Fatalf("exit %d\nstderr: %s", r.code, r.stderr)
	}
	want := framesTxt(t, filepath.Join(dir, "frames.txt"))
	doc, clip := readClip(t, glb)
	times := clip.Times(animation.FindNode(doc, "index3"), gltf.TRSRotation)
	if len(times) != len(want) || len(want) != 201 {
		t.Fatalf("%d keys, %d frames in frames.txt, want 201", len(times), len(want))
	}
	for k, links := range want {
		for l, x := range links {
			got := clip.Sample(l+firstLinkNode(t, doc), times[k]).Transform()
			dr := 0.0
			for i := range x.R {
				dr = max(dr, math.Abs(got.R[i]-x.R[i]))
			}
			if dt := got.T.Sub(x.T).Len(); dt > 1e-6 || dr > 1e-6 {
				t.Fatalf("frame %d link %d: %.3g m and %.3g in rotation from frames.txt", k, l, dt, dr)
			}
		}
	}
}

// firstLinkNode is the palm's node: the links' nodes follow it in link
// order.
func firstLinkNode(t *testing.T, doc *gltf.Document) int {
	n := animation.FindNode(doc, "palm")
	if n < 0 || doc.Nodes[n+15].Name != "little3" {
		t.Fatalf("the link nodes are not palm to little3 in order from node %d", n)
	}
	return n
}

// TestExportGLTFFailuresSayWhatIsWrong: each failure ends with one line
// naming what failed, and leaves no file behind.
func TestExportGLTFFailuresSayWhatIsWrong(t *testing.T) {
	dir := t.TempDir()
	sim := []string{"--scene", "builtin:grasp", "--sim", "--frames", "5"}
	tests := []struct {
		args []string
		code int
		says []string
	}{
		{append([]string{"export", "--gltf", filepath.Join(dir, "no", "such", "dir", "x.glb")}, sim...), 1, []string{"--gltf", "no/such/dir/x.glb", "no such file"}},
		{append([]string{"export", "--gltf", filepath.Join(dir, "x.glb"), "--out", dir}, sim...), 2, []string{"exactly one of --out DIR or --gltf FILE"}},
		{append([]string{"export"}, sim...), 2, []string{"exactly one of --out DIR or --gltf FILE"}},
		{append([]string{"export", "--gltf", filepath.Join(dir, "x.fbx")}, sim...), 2, []string{"x.fbx", ".glb or .gltf"}},
		{[]string{"export", "--gltf", filepath.Join(dir, "x.glb"), "--scene", "builtin:grasp", "--recording", filepath.Join(dir, "missing.glove")}, 1, []string{"missing.glove", "no such file"}},
	}
	for _, tc := range tests {
		runBinary(t, 30*time.Second, tc.args...).oneLine(t, tc.code, tc.says...)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*")); len(left) > 0 {
		t.Errorf("failed exports left %v", left)
	}
}
