package calibrator

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/cyberglove/layout"
	"github.com/gloved/gloved/handmodel"
)

// leftResult calibrates a left glove whose index PIP sensor is dead (its
// gain so large that no pose moves it a count).
func leftResult(t *testing.T) (*Result, *handmodel.Calibration) {
	t.Helper()
	known := knownCalibration(t, 22, true, 0)
	known.Sensor[layout.IndexPIP].Gain = 1e3
	g := newPoseGlove(t, known, 0)
	u := &user{t: t, g: g, fidget: func(s Step) bool { return s.Index == 0 && s.Attempt == 1 }}
	r, err := Run(context.Background(), g, devices.GloveInfo{Model: "cyberglove", Sensors: 22}, u, testOpts(g))
	if err != nil {
		t.Fatal(err)
	}
	return r, known
}

// TestFileSaysWhereEachNumberCameFrom: the written file loads with
// handmodel.LoadCalibration and holds the fitted numbers (to the digits
// written), and its comments give the date, the glove, the poses held,
// each sensor's readings and residual, fallbacks and reversed gains.
func TestFileSaysWhereEachNumberCameFrom(t *testing.T) {
	r, known := leftResult(t)
	text, err := r.File()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "my.toml")
	if err := os.WriteFile(path, text, 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := handmodel.LoadCalibration(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range c.Sensor {
		w := r.Cal.Sensor[i]
		if s.Name != w.Name || math.Abs(s.Offset-w.Offset) > 5e-4 || math.Abs(s.Gain/w.Gain-1) > 1e-5 {
			t.Errorf("%s: file has %v %v, the fit %v %v", s.Name, s.Offset, s.Gain, w.Offset, w.Gain)
		}
	}
	got := string(text)
	mcp := known.Sensor[layout.IndexMCP]
	for _, want := range []string{
		"fitted by `gloved calibrate` on 2026-03-02 14:05:09 +0000",
		"22-sensor left-hand glove (cyberglove)",
		"each held 0.1 s", "within 8 counts",
		"#   1 flat", "held at attempt 2", "#   7 wrist_thumbward",
		"# FALLBACK: its reading moved 0.0 counts over 100 degrees",
		"# offset from (reading -> degrees) flat ",
		"keeps the\n# gain of default-calibration-22.toml",
		"The gain's sign is the fallback's opposite",
		fmt.Sprintf("# fitted to (reading -> degrees) flat %.1f -> 0, fist %.1f -> 85,", mcp.Offset, math.Round(mcp.Offset+handmodel.CalPoses[1].Angle[layout.IndexMCP]/mcp.Gain)),
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the file does not say %q:\n%s", want, got)
		}
	}
	if n := strings.Count(got, "fallback's opposite"); n != 5 {
		t.Errorf("%d sensors said reversed, want the left glove's 5 mirrored ones", n)
	}
	for _, l := range strings.Split(got, "\n") {
		if len(l) > 80 {
			t.Errorf("line of %d characters: %s", len(l), l)
		}
	}
}

// TestOutputWritesWholeOrNothing: an existing file is refused unless it
// may be replaced; an unwritable place is refused before any session;
// Abort leaves the directory as it was; Commit puts the file in place,
// and refuses one that appeared meanwhile.
func TestOutputWritesWholeOrNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "my.toml")
	o, err := CreateOutput(path, false)
	if err != nil {
		t.Fatal(err)
	}
	o.Abort()
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("abort left %v", ents)
	}
	o, _ = CreateOutput(path, false)
	if err := o.Commit([]byte("one")); err != nil {
		t.Fatal(err)
	}
	if _, err := CreateOutput(path, false); !errors.Is(err, fs.ErrExist) {
		t.Errorf("existing file: %v, want ErrExist", err)
	}
	o, err = CreateOutput(path, true)
	if err != nil {
		t.Fatal(err)
	}
	if err := o.Commit([]byte("two")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "two" {
		t.Errorf("replaced file holds %q", b)
	}
	late := filepath.Join(dir, "late.toml")
	o, _ = CreateOutput(late, false)
	os.WriteFile(late, []byte("someone else's"), 0o644)
	if err := o.Commit([]byte("mine")); !errors.Is(err, fs.ErrExist) {
		t.Errorf("a file that appeared meanwhile: %v, want ErrExist", err)
	}
	if b, _ := os.ReadFile(late); string(b) != "someone else's" {
		t.Errorf("the late file was overwritten: %q", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("scratch files left: %v", ents)
	}
	notDir := filepath.Join(dir, "my.toml", "x.toml")
	if _, err := CreateOutput(notDir, false); err == nil || !strings.Contains(err.Error(), "cannot write "+notDir) {
		t.Errorf("a path under a file: %v", err)
	}
	if _, err := CreateOutput(dir, true); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("a directory: %v", err)
	}
}
