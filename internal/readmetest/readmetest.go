package readmetest

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

var update = flag.Bool("update", false, "write generated README sections instead of checking them")

// Updating reports whether the test run was asked to write what it
// generates (go test -update): README sections, and golden files kept
// beside the tests.
func Updating() bool { return *update }

// Path is the repository's README.md.
func Path() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "README.md")
}

// Section checks that the README holds text between the lines
// "<!-- begin name -->" and "<!-- end name -->" (written by go test -update).
func Section(t *testing.T, name, text string) {
	t.Helper()
	path := Path()
	readme, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	begin, end := []byte("<!-- begin "+name+" -->\n"), []byte("<!-- end "+name+" -->")
	i, j := bytes.Index(readme, begin), bytes.Index(readme, end)
	if i < 0 || j < i {
		t.Fatalf("README.md has no section %q: put the lines %q and %q where it goes, then run go test -update", name, begin, end)
	}
	i += len(begin)
	if string(readme[i:j]) == text {
		return
	}
	if !*update {
		t.Fatalf("README.md's section %q is not what the code says: run go test -update in this package and review the diff.\n--- README:\n%s\n--- code:\n%s", name, readme[i:j], text)
	}
	out := append(append(append([]byte(nil), readme[:i]...), text...), readme[j:]...)
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
}
