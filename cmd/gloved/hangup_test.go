package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestAHungUpExportToADirectoryKeepsItsFramesAsSIGTERMDoes: `gloved
// export --out DIR` whose terminal closes (SIGHUP, as when an ssh session
// drops) stops as on SIGTERM: exit 1, one line naming DIR, frames.txt and
// contacts.jsonl in place holding the frames it said, and no scratch file
// left (it died with 129, nothing said, its hidden scratch files left).
func TestAHungUpExportToADirectoryKeepsItsFramesAsSIGTERMDoes(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "out")
	r, n := interruptExport(t, syscall.SIGHUP, dir, filepath.Join(".export.partial-*", ".frames.txt.partial-*"), "--out", dir)
	r.oneLine(t, 1, "export interrupted", dir)
	for _, name := range []string{"frames.txt", "contacts.jsonl"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("after %d frames: %v", n, err)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*.partial-*")); len(left) != 0 {
		t.Errorf("a hung-up export left %v", left)
	}
}

// TestAHungUpGLTFExportWritesNothingAsSIGTERMDoes: `gloved export
// --gltf` sent SIGHUP says in one line that it was interrupted and wrote
// nothing, exit 1, and leaves no scratch file beside the file it named.
func TestAHungUpGLTFExportWritesNothingAsSIGTERMDoes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "g.glb")
	r, _ := interruptExport(t, syscall.SIGHUP, dir, ".g.glb.partial-*", "--gltf", out)
	r.oneLine(t, 1, "export interrupted", "nothing written", out)
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("a hung-up glTF export left %v", left)
	}
}

// TestAHungUpRecordingSaysWhatItRecorded: `gloved record` sent SIGHUP
// stops as on Ctrl-C: exit 0 and its summary, how long it ran and how
// many samples the file holds (it died with 129 and said nothing).
func TestAHungUpRecordingSaysWhatItRecorded(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "hup.glove")
	p := startGloved(t, "record", "record", "--device", "sim", "--seconds", "60", "-o", out)
	p.until(t, "the recording's first samples", func() bool {
		fi, err := os.Stat(out)
		return err == nil && fi.Size() > 0
	})
	time.Sleep(100 * time.Millisecond) // some samples recorded
	p.cmd.Process.Signal(syscall.SIGHUP)
	if code := p.exit(t); code != 0 {
		t.Fatalf("record exited %d after SIGHUP: %q", code, p.errs.String())
	}
	m := interruptedLine.FindStringSubmatch(p.out.String())
	if m == nil || m[3] != out {
		t.Fatalf("record said %q, want %q", p.out.String(), interruptedLine)
	}
	if len(dumpLines(t, out)) == 0 {
		t.Errorf("the recording holds no sample")
	}
}

// TestAnExportAfterOneKilledOutrightRemovesItsScratchFiles: an export
// killed outright (SIGKILL, the OOM killer) cannot remove its hidden
// scratch files; the next export to the same place removes them, each
// interruption having leaked another set of them (some 90 MB).
func TestAnExportAfterOneKilledOutrightRemovesItsScratchFiles(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "out")
	p := startGloved(t, "export", "export", "--scene", "builtin:grasp", "--sim", "--frames", "30000", "--out", dir)
	p.until(t, "the export writing frames.txt", func() bool {
		m, _ := filepath.Glob(filepath.Join(dir, ".export.partial-*", ".frames.txt.partial-*"))
		return len(m) > 0
	})
	p.cmd.Process.Kill()
	p.exit(t)
	if left, _ := filepath.Glob(filepath.Join(dir, ".*.partial-*")); len(left) == 0 {
		t.Fatal("the killed export left no scratch file to remove")
	}
	r := runBinary(t, 60*time.Second, "export", "--scene", "builtin:grasp", "--sim", "--frames", "10", "--out", dir)
	if r.code != 0 {
		t.Fatalf("export again: exit %d: %s", r.code, r.stderr)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*.partial-*")); len(left) != 0 {
		t.Errorf("after an export killed outright and another, %v are left", left)
	}
}
