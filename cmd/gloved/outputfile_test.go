package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/recording"
	"github.com/gloved/gloved/view"
)

// TestAnOfflineCommandOnAFullDiskWritesNothingAndSaysSo: on a full
// disk, `export --gltf`, `export --out` and `hand -o` fail with one line
// saying so; no partial file and no scratch file is left, and the file
// the command would have replaced (given --force) is there as it was.
// The disk is a real one: a 100 KiB tmpfs with 8 KiB free, in a mount
// namespace of its own.
func TestAnOfflineCommandOnAFullDiskWritesNothingAndSaysSo(t *testing.T) {
	for _, tc := range []struct {
		old  string // the file there before, which must survive
		args []string
		says string
	}{
		{"e.glb", []string{"export", "--scene", "builtin:grasp", "--sim", "--frames", "20", "--gltf", "e.glb", "--force"}, "e.glb"},
		{"e.gltf", []string{"export", "--scene", "builtin:grasp", "--sim", "--frames", "20", "--gltf", "e.gltf", "--force"}, "e.gltf"},
		{"out/scene.obj", []string{"export", "--scene", "builtin:grasp", "--sim", "--frames", "20", "--out", "out"}, "out/"},
		{"h.glb", []string{"hand", "-o", "h.glb", "--force"}, "h.glb"},
		{"h.obj", []string{"hand", "-o", "h.obj", "--force"}, "h.obj"},
	} {
		t.Run(strings.Join(tc.args[:1], " ")+" "+tc.old, func(t *testing.T) {
			r, files, _ := onFullDisk(t, tc.old, tc.args...)
			r.oneLine(t, 1, tc.says, "no space left on device")
			if got, err := os.ReadFile(files[tc.old]); err != nil || string(got) != "old\n" {
				t.Errorf("%s is now %q (%v); want it as it was", tc.old, got, err)
			}
			for name := range files {
				if strings.HasPrefix(filepath.Base(name), ".") {
					t.Errorf("a scratch file is left: %s", name)
				}
				if filepath.Dir(name) == "." && name != "fill" && name != tc.old {
					t.Errorf("the full disk holds %s; want only the file that fills it and %s", name, tc.old)
				}
			}
		})
	}
}

// TestAnExportThatFailsOnAFullDiskLeavesNoTrace: `export --out DIR` and
// `bench scenes --export DIR` on a full disk fail in one line, and leave
// the disk as it was: no file of theirs (three link files were left, under
// a line that said nothing was written), no directory they made (an empty
// links/ was left), and an earlier export in DIR as it was.
func TestAnExportThatFailsOnAFullDiskLeavesNoTrace(t *testing.T) {
	for _, args := range [][]string{
		{"export", "--scene", "builtin:grasp", "--sim", "--frames", "20", "--out", "new/out"},
		{"export", "--scene", "builtin:grasp", "--sim", "--frames", "20", "--out", "kept"},
		{"bench", "scenes", "--classes", "ball", "--max-tris", "3000", "--frames", "5", "--motions", "grasp", "--export", "b"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			r, files, dirs := onFullDisk(t, "kept/links/palm.obj", args...)
			r.oneLine(t, 1, "no space left on device")
			if !slices.Equal(dirs, []string{"kept", "kept/links"}) {
				t.Errorf("the disk holds the directories %q, want those there before, kept and kept/links", dirs)
			}
			if len(files) != 2 {
				t.Errorf("the disk holds %d files, want the two there before (kept/links/palm.obj and fill): %v", len(files), files)
			}
			if got, err := os.ReadFile(files["kept/links/palm.obj"]); err != nil || string(got) != "old\n" {
				t.Errorf("the earlier export's link file is now %q (%v)", got, err)
			}
		})
	}
}

// onFullDisk runs gloved with args in a 100 KiB tmpfs of a mount
// namespace of its own, where old holds "old\n" and a file named fill
// leaves 8 KiB free. It returns the run and each file the disk then
// held (relative name), copied out to a file of the test's, and the
// directories it held.
func onFullDisk(t *testing.T, old string, args ...string) (result, map[string]string, []string) {
	t.Helper()
	disk := smallDisk(t)
	copies := t.TempDir()
	script := `mount -t tmpfs -o size=100k tmpfs "$1" && cd "$1" && mkdir -p "$(dirname "$3")" && printf 'old\n' > "$3" && head -c 90000 /dev/zero > fill || exit 99
bin=$2; copies=$4; shift 4
"$bin" "$@"; rc=$?
find . -type f -printf '%P\n' | while read -r f; do mkdir -p "$copies/$(dirname "$f")"; cp "$f" "$copies/$f"; echo "$f" >> "$copies/.files"; done
find . -mindepth 1 -type d -printf '%P\n' > "$copies/.dirs"
exit $rc`
	cmd := exec.Command("unshare", append([]string{"-m", "--propagation", "private", "sh", "-c", script, "sh", disk, binary(t), old, copies}, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := result{stdout: out.String(), stderr: errb.String(), code: cmd.ProcessState.ExitCode()}
	if r.code == 99 || (err != nil && cmd.ProcessState == nil) {
		t.Fatalf("setting up the full disk: %v\n%s", err, r.stderr)
	}
	list, err := os.ReadFile(filepath.Join(copies, ".files"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, f := range strings.Fields(string(list)) {
		files[f] = filepath.Join(copies, f)
	}
	dirs, err := os.ReadFile(filepath.Join(copies, ".dirs"))
	if err != nil {
		t.Fatal(err)
	}
	return r, files, strings.Fields(string(dirs))
}

// TestACommandNeverWritesOverItsOwnInput: an output that is one of the
// command's inputs, by the same name, another name of it (a hard link)
// or, for export --out DIR, a file export would write there, is refused
// in one line naming both flags, and the input is left as it was.
func TestACommandNeverWritesOverItsOwnInput(t *testing.T) {
	dir := t.TempDir()
	input := func(name, from string) string {
		t.Helper()
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	rec := input("r.glb", "../../testdata/recordings/grasp.glove")
	linked := filepath.Join(dir, "linked.glb")
	if err := os.Link(rec, linked); err != nil {
		t.Fatal(err)
	}
	crate := input("crate.glb", "../../testdata/scenes/crate.glb")
	scene := input("d/scene.obj", "../../testdata/scenes/grasp.obj")
	mesh := input("m.glb", webxrRight)
	cal := input("cal.toml", "../../configs/calibration-22.toml")
	frames := input("e/frames.txt", "../../configs/calibration-22.toml")
	link := input("e/links/index3.obj", "../../testdata/scenes/grasp.obj")
	sim := []string{"--sim", "--frames", "5"}
	for _, tc := range []struct {
		input string
		args  []string
		says  []string
	}{
		{rec, []string{"export", "--scene", "builtin:grasp", "--recording", rec, "--gltf", rec}, []string{"--gltf", "--recording"}},
		{rec, []string{"export", "--scene", "builtin:grasp", "--recording", rec, "--gltf", linked}, []string{"--gltf", "--recording"}},
		{crate, append([]string{"export", "--scene", "builtin:grasp," + crate, "--gltf", crate}, sim...), []string{"--gltf", "--scene"}},
		{scene, append([]string{"export", "--scene", scene, "--out", filepath.Dir(scene)}, sim...), []string{"--out", "--scene", "scene.obj"}},
		{mesh, append([]string{"export", "--scene", "builtin:grasp", "--mesh", mesh, "--gltf", mesh}, sim...), []string{"--gltf", "--mesh"}},
		{frames, append([]string{"export", "--scene", "builtin:grasp", "--calibration", frames, "--out", filepath.Dir(frames)}, sim...), []string{"--out", "--calibration", "frames.txt"}},
		{link, append([]string{"export", "--scene", link, "--out", filepath.Dir(frames)}, sim...), []string{"--out", "--scene", "index3.obj"}},
		{cal, []string{"record", "--device", "sim", "--seconds", "0.1", "--calibration", cal, "-o", cal}, []string{"-o", "--calibration"}},
	} {
		before, err := os.ReadFile(tc.input)
		if err != nil {
			t.Fatal(err)
		}
		r := runBinary(t, 20*time.Second, tc.args...)
		t.Run(strings.Join(tc.says, " "), func(t *testing.T) { r.oneLine(t, 2, tc.says...) })
		if after, err := os.ReadFile(tc.input); err != nil || !bytes.Equal(after, before) {
			t.Errorf("%v: %s changed (%v)", tc.args, tc.input, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "cal.1.toml")); err == nil {
		t.Errorf("record moved its calibration aside")
	}
}

// TestExportWritesOnlyInsideItsDirectory: export --out DIR whose links
// subdirectory is a symbolic link to a directory elsewhere, or a file, is
// refused in one line naming it, and nothing is written through it; so
// is bench scenes --export DIR whose scene directory is such a link.
func TestExportWritesOnlyInsideItsDirectory(t *testing.T) {
	dir := t.TempDir()
	elsewhere := filepath.Join(dir, "elsewhere")
	for _, d := range []string{elsewhere, filepath.Join(dir, "sym"), filepath.Join(dir, "file")} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(elsewhere, filepath.Join(dir, "sym", "links")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "file", "links"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for out, says := range map[string]string{"sym": "is a symbolic link", "file": "is a file"} {
		r := runBinary(t, 20*time.Second, "export", "--scene", "builtin:grasp", "--sim", "--frames", "3", "--out", filepath.Join(dir, out))
		r.oneLine(t, 2, filepath.Join(dir, out, "links")+" "+says, "remove it or name another directory")
	}
	// bench scenes --export DIR writes DIR/CLASS-TRIS-MOTION/ and its links/.
	bench := filepath.Join(dir, "bench")
	if err := os.Mkdir(bench, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, filepath.Join(bench, "ball-2060-grasp")); err != nil {
		t.Fatal(err)
	}
	r := runBinary(t, 60*time.Second, "bench", "scenes", "--classes", "ball", "--max-tris", "3000", "--motions", "grasp", "--frames", "3", "--export", bench)
	r.oneLine(t, 2, filepath.Join(bench, "ball-2060-grasp")+" is a symbolic link", "remove it or name another directory")
	if names, _ := os.ReadDir(elsewhere); len(names) != 0 {
		t.Errorf("export wrote %d files through the link into %s", len(names), elsewhere)
	}
}

// TestAGLTFExportHoldsAtMostTheTimelinesFrames: export --gltf keeps every
// frame in memory, so it holds at most as many as replay --view's
// timeline: --frames beyond that is refused at once, and a recording
// longer than that when its frames pass it, each in one line naming the
// bound and what to do instead, leaving no file.
func TestAGLTFExportHoldsAtMostTheTimelinesFrames(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	most := strconv.Itoa(view.MaxTimelineFrames)
	glb := filepath.Join(dir, "x.glb")
	r := runBinary(t, 20*time.Second, "export", "--scene", "builtin:grasp", "--sim", "--frames", strconv.Itoa(view.MaxTimelineFrames+1), "--gltf", glb)
	r.oneLine(t, 2, "--frames", most, "--out")

	long := filepath.Join(dir, "long.glove")
	rec, err := recording.Create(long, recording.Header{Model: "sim", Sensors: 22, Hand: "right"})
	if err != nil {
		t.Fatal(err)
	}
	s := devices.Sample{N: 22}
	for i := range s.N {
		s.Raw[i] = 128
	}
	for i := range view.MaxTimelineFrames + 1 {
		s.Time = time.Duration(i) * 10 * time.Millisecond
		if err := rec.WriteSample(&s); err != nil {
			t.Fatal(err)
		}
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	r = runBinary(t, 60*time.Second, "export", "--scene", "builtin:grasp", "--recording", long, "--gltf", glb)
	r.oneLine(t, 1, long, most, "--out")
	if _, err := os.Stat(glb); err == nil {
		t.Errorf("%s was written", glb)
	}
}

// TestBenchProximityWritesAPlotOnlyWhenAsked: like every other bench
// experiment, bench proximity writes no plot without --plot (it wrote
// ./proximity.svg over whatever was there).
func TestBenchProximityWritesAPlotOnlyWhenAsked(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(binary(t), "bench", "proximity", "--level", "2", "--eps-min", "0.01", "--per-decade", "2")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if names, _ := filepath.Glob(filepath.Join(dir, "*")); len(names) != 0 {
		t.Errorf("bench proximity without --plot wrote %q", names)
	}
}
