package userfile

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// deadPID is the process id of a process that has ended.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.ProcessState.Pid()
}

// TestAnOutputRemovesOnlyTheScratchFilesOfAWriterThatIsGone: the
// scratch files a writer killed outright left beside the path (its
// process gone, no lock on them) are removed when the path is written
// again; a scratch file whose writer lives, or that a writer still
// locks (one in another PID namespace), or of another name, form or
// path, is kept.
func TestAnOutputRemovesOnlyTheScratchFilesOfAWriterThatIsGone(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	dead, live := strconv.Itoa(deadPID(t)), strconv.Itoa(os.Getppid())
	stale := ".out.txt.partial-" + dead + "-1234"
	kept := []string{
		".out.txt.partial-" + live + "-1234",   // its writer lives
		".out.txt.partial-" + dead + "-5678",   // locked below
		".out.txt.partial-987654321",           // the old form, its writer unknown
		".other.txt.partial-" + dead + "-1234", // another path's
		"out.txt.partial-" + dead + "-1234",    // the user's own file
		".out.txt.partial-" + dead + "-x",      // not the form
	}
	for _, name := range append([]string{stale}, kept...) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	locked, err := os.Open(filepath.Join(dir, kept[1]))
	if err != nil {
		t.Fatal(err)
	}
	defer locked.Close()
	if err := lockScratch(locked); err != nil {
		t.Fatal(err)
	}
	o, err := CreateOutput(path)
	if err != nil {
		t.Fatal(err)
	}
	defer o.Abort(nil)
	if _, err := os.Stat(filepath.Join(dir, stale)); !os.IsNotExist(err) {
		t.Errorf("%s, a dead writer's scratch file, is still there (%v)", stale, err)
	}
	for _, name := range kept {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s was removed: %v", name, err)
		}
	}
	if _, err := os.Stat(o.f.Name()); err != nil {
		t.Errorf("the output's own scratch file: %v", err)
	}
}
