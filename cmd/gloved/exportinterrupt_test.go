package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// exportInterruptedLine is the line an interrupted export ends with.
var exportInterruptedLine = regexp.MustCompile(`interrupted after (\d+) frames`)

// interruptExport starts `gloved export` of a long simulated session
// with args, signals it once it is writing the scratch file named
// partial (a glob in dir), and returns what it showed and the frames it
// said it exported.
func interruptExport(t *testing.T, sig syscall.Signal, dir, partial string, args ...string) (result, int) {
	t.Helper()
	p := startGloved(t, "export", append([]string{"export", "--scene", "builtin:grasp", "--sim", "--frames", "30000"}, args...)...)
	p.until(t, "the export writing "+partial, func() bool {
		m, _ := filepath.Glob(filepath.Join(dir, partial))
		return len(m) > 0
	})
	time.Sleep(50 * time.Millisecond) // some frames exported
	p.cmd.Process.Signal(sig)
	r := result{code: p.exit(t)}
	r.stdout, r.stderr = p.out.String(), p.errs.String()
	m := exportInterruptedLine.FindStringSubmatch(r.stderr)
	if m == nil {
		t.Fatalf("exit %d; the export did not say it was interrupted: stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	n, _ := strconv.Atoi(m[1])
	if n >= 30000 {
		t.Fatalf("interrupted after %d frames, all of them", n)
	}
	return r, n
}

// TestAnInterruptedGLTFExportSaysSoExits1AndWritesNothing: `gloved
// export --gltf` interrupted (SIGINT, as Ctrl-C) before its frames are
// all run exits 1 with one line saying it was interrupted after N frames
// and that nothing was written; no file, no scratch file, is left.
func TestAnInterruptedGLTFExportSaysSoExits1AndWritesNothing(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "x.glb")
	r, _ := interruptExport(t, syscall.SIGINT, dir, ".x.glb.partial-*", "--gltf", out)
	r.oneLine(t, 1, "export", "nothing written", out)
	if r.stdout != "" {
		t.Errorf("an interrupted export said %q", r.stdout)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("an interrupted glTF export left %v", left)
	}
}

// TestAnInterruptedExportToADirectoryKeepsItsFramesWholeAndExits1:
// `gloved export --out DIR` interrupted (SIGTERM) exits 1 with one line
// saying it was interrupted after N frames and that DIR holds those N,
// whole: frames.txt has every link's line of frames 0 to N-1 and
// contacts.jsonl N lines.
func TestAnInterruptedExportToADirectoryKeepsItsFramesWholeAndExits1(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	r, n := interruptExport(t, syscall.SIGTERM, dir, filepath.Join(".export.partial-*", ".frames.txt.partial-*"), "--out", dir)
	r.oneLine(t, 1, "export", dir)
	if r.stdout != "" {
		t.Errorf("an interrupted export said %q", r.stdout)
	}
	frames, err := os.ReadFile(filepath.Join(dir, "frames.txt"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(frames)), "\n")[1:]
	links, _ := os.ReadDir(filepath.Join(dir, "links"))
	if n == 0 || len(lines) != n*len(links) {
		t.Fatalf("frames.txt holds %d link lines, want %d frames of %d links", len(lines), n, len(links))
	}
	if last := strings.Fields(lines[len(lines)-1])[0]; last != strconv.Itoa(n-1) {
		t.Errorf("frames.txt ends at frame %s, want %d", last, n-1)
	}
	contacts, err := os.ReadFile(filepath.Join(dir, "contacts.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(string(contacts), "\n"); got != n {
		t.Errorf("contacts.jsonl holds %d frames, want %d", got, n)
	}
}

// TestAnInterruptedContactsSaysSoAndExits1: `gloved contacts` stopped by
// a signal before its last frame exits 1 with one line saying after how
// many frames, as many as it listed; with --view, it says the page was
// not shown rather than exiting 0 at once.
func TestAnInterruptedContactsSaysSoAndExits1(t *testing.T) {
	t.Parallel()
	for _, view := range [][]string{nil, {"--view", "127.0.0.1:0"}} {
		p := startGloved(t, "contacts", append([]string{"contacts", "--scene", "builtin:grasp", "--sim", "--frames", "100000000"}, view...)...)
		p.until(t, "frames listed", func() bool { return strings.Count(p.out.String(), "\n") > 20 })
		p.cmd.Process.Signal(syscall.SIGTERM)
		r := result{code: p.exit(t)}
		r.stdout, r.stderr = p.out.String(), p.errs.String()
		says := []string{"contacts interrupted after"}
		if view != nil {
			says = append(says, "before the page was shown")
		}
		r.oneLine(t, 1, says...)
		m := exportInterruptedLine.FindStringSubmatch(r.stderr)
		if m == nil {
			t.Fatalf("%v: %q names no frame count", view, r.stderr)
		}
		if n, _ := strconv.Atoi(m[1]); n != strings.Count(r.stdout, "\n") {
			t.Errorf("%v: interrupted after %s frames, %d listed", view, m[1], strings.Count(r.stdout, "\n"))
		}
	}
}
