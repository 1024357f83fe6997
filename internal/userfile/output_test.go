package userfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestAnOutputIsWrittenWholeOrNotAtAll: Commit replaces the file at the
// path with what was written; a write that failed (Abort), or CommitNew
// onto a file that appeared meanwhile, leaves the old file as it was;
// no scratch file is ever left beside it.
func TestAnOutputIsWrittenWholeOrNotAtAll(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	read := func() string {
		t.Helper()
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if err := WriteFile(path, func(w io.Writer) error { _, err := io.WriteString(w, "first"); return err }); err != nil || read() != "first" {
		t.Fatalf("WriteFile: %v, %q", err, read())
	}
	failed := errors.New("the run failed")
	if err := WriteFile(path, func(w io.Writer) error { io.WriteString(w, "half"); return failed }); !errors.Is(err, failed) || read() != "first" {
		t.Fatalf("a failed write: %v, the file now %q", err, read())
	}
	o, err := CreateOutput(path)
	if err != nil {
		t.Fatal(err)
	}
	o.WriteString("second")
	if err := o.CommitNew(); !errors.Is(err, fs.ErrExist) || read() != "first" {
		t.Fatalf("CommitNew onto a file: %v, the file now %q", err, read())
	}
	fresh := filepath.Join(dir, "new.txt")
	if o, err = CreateOutput(fresh); err != nil {
		t.Fatal(err)
	}
	o.WriteString("new")
	if err := o.CommitNew(); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Fatalf("left in the directory: %v, want out.txt and new.txt", entries)
	}
	if _, err := CreateOutput(dir); err == nil {
		t.Fatalf("a directory taken as an output")
	}
}
