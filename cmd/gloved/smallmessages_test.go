package main

import (
	encbin "encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gloved/gloved/devices"
)

// TestARecordingCutInItsFirst14BytesIsSaidToBeOne: a file that starts
// with a gloved recording's magic, cut before its header's length (byte
// 14), is a gloved recording cut short, not "not a gloved recording?";
// a file without the magic still is not one.
func TestARecordingCutInItsFirst14BytesIsSaidToBeOne(t *testing.T) {
	t.Parallel()
	whole, err := os.ReadFile("../../testdata/recordings/grasp.glove")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, n := range []int{8, 10, 13} {
		cut := filepath.Join(dir, "cut.glove")
		if err := os.WriteFile(cut, whole[:n], 0o644); err != nil {
			t.Fatal(err)
		}
		r := runBinary(t, 20*time.Second, "dump", cut)
		r.oneLine(t, 1, "cut.glove: recording damaged: header cut short after", "cut off in its header", "record the session again")
		if strings.Contains(r.stderr, "not a gloved recording?") {
			t.Errorf("%d bytes: %s", n, r.stderr)
		}
	}
	other := filepath.Join(dir, "other.glove")
	if err := os.WriteFile(other, []byte("GLOVE"), 0o644); err != nil {
		t.Fatal(err)
	}
	runBinary(t, 20*time.Second, "dump", other).oneLine(t, 1, "not a gloved recording?")
}

// TestASceneFlagThatNamesNoFileIsAUsageError: --scene with an empty name
// (",", "a.obj,") or a built-in scene there is none of is refused in one
// line naming --scene (not the config's files[0].path), listing the
// built-in scenes, exit 2, by every command that takes it; a config's
// unknown built-in scene is named by its key.
func TestASceneFlagThatNamesNoFileIsAUsageError(t *testing.T) {
	t.Parallel()
	grasp := "../../testdata/recordings/grasp.glove"
	for _, tc := range []struct{ scene, says string }{
		{"builtin:nope", `--scene "builtin:nope": no such built-in scene: the built-in scenes are builtin:grasp (a table with a ball)`},
		{",", `--scene ",": an empty file name (a comma at an end, or two together): give the scene files comma-separated`},
		{"builtin:grasp,", `--scene "builtin:grasp,": an empty file name`},
	} {
		for _, args := range [][]string{
			{"contacts", "--sim", "--frames", "1", "--scene", tc.scene},
			{"export", "--sim", "--frames", "1", "--gltf", filepath.Join(t.TempDir(), "x.glb"), "--scene", tc.scene},
			{"replay", grasp, "--speed", "max", "--target", "127.0.0.1:9", "--scene", tc.scene},
		} {
			r := runBinary(t, 30*time.Second, args...)
			r.oneLine(t, 2, tc.says)
			if strings.Contains(r.stderr, "files[0]") {
				t.Errorf("%v: config wording for a flag: %s", args, r.stderr)
			}
		}
	}
	cfg := writeConfig(t, "127.0.0.1:0", "builtin:nope", "")
	runBinary(t, 20*time.Second, "run", "-c", cfg, "--check").oneLine(t, 2, `scene.files[0].path = "builtin:nope": no such built-in scene: the built-in scenes are builtin:grasp`)
}

// TestAWristQuaternionTooShortIsNotCalledZero: a quaternion whose
// numbers are so small their squares underflow (1e-300) is refused as
// too short to normalise, its length said, not as zero; 0 0 0 0 is zero.
func TestAWristQuaternionTooShortIsNotCalledZero(t *testing.T) {
	t.Parallel()
	args := []string{"contacts", "--sim", "--frames", "1", "--scene", "builtin:grasp", "--wrist-pose"}
	for pose, says := range map[string]string{
		"0 0 0 1e-300 0 0 0":      "--wrist-pose: the rotation quaternion's length 1e-300 is below 1e-9 (geom.MinQuatLen), too short to say a rotation",
		"0 0 0 5e-324 0 0 0":      "--wrist-pose: the rotation quaternion's length 4.94e-324 is below 1e-9",
		"0 0 0 1e-10 0 0 0":       "--wrist-pose: the rotation quaternion's length 1e-10 is below 1e-9",
		"0 0 0 0 0 0 0":           "--wrist-pose: the rotation quaternion is zero",
		"0 0 0 1e-300 0 0 1":      "",
		"0 0 0 0 0 1e-300 1e-300": "--wrist-pose: the rotation quaternion's length 1.41e-300 is below 1e-9",
	} {
		r := runBinary(t, 20*time.Second, append(args, pose)...)
		if says == "" {
			if r.code != 0 {
				t.Errorf("%q: exit %d: %s", pose, r.code, r.stderr)
			}
			continue
		}
		r.oneLine(t, 2, says)
	}
}

// TestHandMeshesErrorsSayHandmodelOnceAndWhatToDo: `gloved hand --meshes`
// of a file whose palm is flat, or with an object named after no link,
// fails in one line that says "handmodel:" once and what to do.
func TestHandMeshesErrorsSayHandmodelOnceAndWhatToDo(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, tc := range map[string]struct{ obj, says string }{
		"flat.obj": {"o palm\nv 0 0 0\nv 0.01 0 0\nv 0 0.01 0\nf 1 2 3\n",
			"palm mesh: geom: no solid convex hull: 3 points, want at least 4: give each link a solid shape, at least 4 points not all in one plane, in its link's frame"},
		"typo.obj": {"o plam\nv 0 0 0\nv 0.01 0 0\nv 0 0.01 0\nv 0 0 0.01\nf 1 2 3\nf 1 2 4\nf 1 3 4\nf 2 3 4\n",
			`object "plam" is not a link of this hand: name each object after its link (palm, thumb1..3`},
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(tc.obj), 0o644); err != nil {
			t.Fatal(err)
		}
		r := runBinary(t, 20*time.Second, "hand", "--meshes", path)
		r.oneLine(t, 1, "gloved: handmodel: "+path+": "+tc.says)
		if n := strings.Count(r.stderr, "handmodel:"); n != 1 {
			t.Errorf("%s: %q says handmodel: %d times, want once", name, r.stderr, n)
		}
	}
}

// TestFaultWordsNamesEveryCounter: a recording's summary says each of a
// device's fault counters in words (it printed a Go struct): every
// field of devices.Faults, at 2 and at 1, and "none" when all are 0.
func TestFaultWordsNamesEveryCounter(t *testing.T) {
	var f devices.Faults
	if got := faultWords(f); got != "none" {
		t.Errorf("no faults: %q, want none", got)
	}
	v := reflect.ValueOf(&f).Elem()
	for i := range v.NumField() {
		v.Field(i).SetUint(2)
	}
	words := strings.Split(faultWords(f), ", ")
	if len(words) != v.NumField() {
		t.Fatalf("%q: %d counts, want one for each of the %d fields of devices.Faults", faultWords(f), len(words), v.NumField())
	}
	for _, w := range words {
		if !strings.HasPrefix(w, "2 ") || strings.ContainsAny(w, "{}:") {
			t.Errorf("%q: want the count and its name", w)
		}
	}
	f = devices.Faults{BadFrames: 3, Resyncs: 1, SkippedBytes: 12}
	if got, want := faultWords(f), "3 bad frames, 1 resync, 12 skipped bytes"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestEveryHeaderCutSaysWhatToDo: a recording cut anywhere inside its
// header (at the magic's end, at byte 14, at 100, one byte before the
// header's end) is refused by dump, replay and export in one line that
// says where it was cut and to record the session again; an empty file
// is said to be empty, and how to make a recording.
func TestEveryHeaderCutSaysWhatToDo(t *testing.T) {
	t.Parallel()
	whole, err := os.ReadFile("../../testdata/recordings/grasp.glove")
	if err != nil {
		t.Fatal(err)
	}
	end := 14 + int(encbin.LittleEndian.Uint32(whole[10:14])) + 4
	if end <= 101 || end > len(whole) {
		t.Fatalf("grasp.glove's header ends at byte %d: want a header longer than 100 bytes", end)
	}
	dir := t.TempDir()
	cut := filepath.Join(dir, "cut.glove")
	for _, n := range []int{0, 8, 14, 100, end - 1} {
		if err := os.WriteFile(cut, whole[:n], 0o644); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{
			{"dump", cut},
			{"replay", cut, "--speed", "max", "--target", "127.0.0.1:9"},
			{"export", "--scene", "builtin:grasp", "--recording", cut, "--out", t.TempDir()},
		} {
			r := runBinary(t, 30*time.Second, args...)
			if n == 0 {
				r.oneLine(t, 1, "gloved: "+cut+": empty: not a gloved recording (record a session with gloved record)")
				continue
			}
			want := fmt.Sprintf("of its %d bytes", end)
			if n < 14 {
				want = "of its first 14 bytes"
			}
			r.oneLine(t, 1, fmt.Sprintf("gloved: %s: recording damaged: header cut short after %d %s (cut off in its header: nothing in it to read; record the session again)", cut, n, want))
		}
	}
}
