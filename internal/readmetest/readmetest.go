package readmetest

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
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

// Files are the pages a generated section may live on: README.md and
// every docs/*.md, the README first.
func Files() []string {
	pages, _ := filepath.Glob(filepath.Join(filepath.Dir(Path()), "docs", "*.md")) // the pattern is well formed
	return append([]string{Path()}, pages...)
}

// Section checks that the page holding the line "<!-- begin name -->"
// (exactly one of Files) holds text between it and "<!-- end name -->";
// with go test -update it writes text there.
func Section(t *testing.T, name, text string) {
	t.Helper()
	begin, end := []byte("<!-- begin "+name+" -->\n"), []byte("<!-- end "+name+" -->")
	path, page := find(t, name)
	i, j := bytes.Index(page, begin)+len(begin), bytes.Index(page, end)
	if j < i {
		t.Fatalf("%s has no line %q after %q: put it where the section ends, then run go test -update", rel(path), end, begin)
	}
	if string(page[i:j]) == text {
		return
	}
	if !*update {
		t.Fatalf("%s's section %q is not what the code says: run go test -update in this package and review the diff.\n--- %s:\n%s\n--- code:\n%s", rel(path), name, rel(path), page[i:j], text)
	}
	out := append(append(append([]byte(nil), page[:i]...), text...), page[j:]...)
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// find returns the one page of Files that holds begin, and its text.
func find(t *testing.T, name string) (string, []byte) {
	t.Helper()
	pages := map[string][]byte{}
	for _, path := range Files() {
		page, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		pages[path] = page
	}
	path, err := holder(pages, name)
	if err != nil {
		t.Fatal(err)
	}
	return path, pages[path]
}

// holder returns the path of the one page that holds section name's
// begin line.
func holder(pages map[string][]byte, name string) (string, error) {
	begin := []byte("<!-- begin " + name + " -->\n")
	var paths []string
	for path, page := range pages {
		if bytes.Contains(page, begin) {
			paths = append(paths, rel(path))
		}
	}
	sort.Strings(paths)
	switch len(paths) {
	case 0:
		return "", fmt.Errorf("no page has section %q: put the lines %q and %q where it goes in README.md or a docs/ page, then run go test -update", name, "<!-- begin "+name+" -->", "<!-- end "+name+" -->")
	case 1:
		return filepath.Join(filepath.Dir(Path()), filepath.FromSlash(paths[0])), nil
	}
	return "", fmt.Errorf("section %q is on %d pages, %s: keep it on one", name, len(paths), strings.Join(paths, " and "))
}

// rel names a page from the repository's root, as a user finds it.
func rel(path string) string {
	if r, err := filepath.Rel(filepath.Dir(Path()), path); err == nil {
		return filepath.ToSlash(r)
	}
	return path
}
