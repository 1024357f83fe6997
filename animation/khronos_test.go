package animation_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qmuntal/gltf"

	"github.com/gloved/gloved/animation"
	"github.com/gloved/gloved/animation/animationtest"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
)

// TestKhronosValidatorPassesTheExports: the Khronos glTF-Validator finds
// no error and no warning in a session's file, procedural or skinned,
// binary or JSON, nor in a one-frame session (no animation) or a posed
// hand. It skips when the validator is not installed.
func TestKhronosValidatorPassesTheExports(t *testing.T) {
	animationtest.RequireKhronos(t)
	dir := t.TempDir()
	write := func(name string, r *animation.Recorder, binary bool) string {
		path := filepath.Join(dir, name)
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Write(f, binary); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		return path
	}
	files := []string{
		write("procedural.glb", record(t, 90, "").rec, true),
		write("skinned.glb", record(t, 90, webxrHand("left.glb")).rec, true),
		write("json.gltf", record(t, 70, "").rec, false),
		write("one-frame.glb", record(t, 1, "").rec, true),
	}
	h := skinnedHand(t, true, "right.glb")
	q, _ := handmodel.NamedPose("fist")
	poses := make([]geom.Transform, h.NumLinks())
	h.Pose(&q, geom.Identity(), poses)
	var posed handmodel.SkinPose
	if err := h.Rig().Pose(&q, poses, &posed); err != nil {
		t.Fatal(err)
	}
	pose := filepath.Join(dir, "pose.glb")
	f, err := os.Create(pose)
	if err != nil {
		t.Fatal(err)
	}
	if err := animation.WritePose(f, h, poses, h.Rig().Skin, &posed); err != nil {
		t.Fatal(err)
	}
	f.Close()
	files = append(files, pose)
	for _, path := range files {
		rep := animationtest.Khronos(t, path)
		wantAnim := 1
		if base := filepath.Base(path); base == "one-frame.glb" || base == "pose.glb" {
			wantAnim = 0
		}
		if rep.Info.Generator != animation.Generator || rep.Info.AnimationCount != wantAnim {
			t.Errorf("%s: generator %q, %d animations; want %q and %d", filepath.Base(path), rep.Info.Generator, rep.Info.AnimationCount, animation.Generator, wantAnim)
		}
	}
}

// collectTB is a testing.TB that keeps the errors reported to it.
type collectTB struct {
	testing.TB
	errs []string
}

func (c *collectTB) Errorf(format string, args ...any) {
	c.errs = append(c.errs, fmt.Sprintf(format, args...))
}

// TestKhronosValidatorFindsABrokenFile: the check can fail. A session's
// file with a POSITION bound that is not its data's and two channels on
// one target draws the validator's errors.
func TestKhronosValidatorFindsABrokenFile(t *testing.T) {
	animationtest.RequireKhronos(t)
	doc, path := export(t, record(t, 30, "").rec)
	doc.Accessors[doc.Meshes[0].Primitives[0].Attributes[gltf.POSITION]].Max[0] += 1e-3
	c := *doc.Animations[0].Channels[0]
	doc.Animations[0].Channels = append(doc.Animations[0].Channels, &c)
	if err := gltf.SaveBinary(doc, path); err != nil {
		t.Fatal(err)
	}
	tb := &collectTB{TB: t}
	animationtest.Khronos(tb, path)
	all := strings.Join(tb.errs, "\n")
	for _, code := range []string{"ACCESSOR_MAX_MISMATCH", "ANIMATION_DUPLICATE_TARGETS"} {
		if !strings.Contains(all, code) {
			t.Errorf("the validator did not report %s; it reported:\n%s", code, all)
		}
	}
}
