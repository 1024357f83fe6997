package userfile

import (
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

var calibration = Kind{Name: "a calibration file", MaxBytes: 1000}

// within runs f and fails the test if it has not returned within a
// generous deadline: what is tested is that it does not block forever.
func within[T any](t *testing.T, f func() (T, error)) (T, error) {
	t.Helper()
	type answer struct {
		v   T
		err error
	}
	done := make(chan answer, 1)
	go func() {
		v, err := f()
		done <- answer{v, err}
	}()
	select {
	case a := <-done:
		return a.v, a.err
	case <-time.After(20 * time.Second):
		t.Fatal("still blocked after 20 s")
	}
	var zero T
	return zero, nil
}

// TestOpenRefusesWhatIsNotARegularFile: a directory, a named pipe, a
// character device and a socket are each refused with one line naming
// the path, what it is and what to give, and a named pipe without a
// writer does not block.
func TestOpenRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	tests := []struct {
		path, is string
	}{
		{dir, "(a directory)"},
		{fifo, "(a named pipe)"},
		{"/dev/zero", "(a character device)"},
		{sock, "(a socket)"},
	}
	for _, tc := range tests {
		for name, read := range map[string]func() ([]byte, error){
			"Open":     func() ([]byte, error) { f, err := Open(tc.path, calibration); closeIf(f); return nil, err },
			"ReadFile": func() ([]byte, error) { return ReadFile(tc.path, calibration) },
		} {
			_, err := within(t, read)
			want := tc.path + " is not a regular file " + tc.is + ": give the path of a calibration file"
			if !errors.Is(err, ErrNotRegular) || err.Error() != want {
				t.Errorf("%s(%s): got %v, want %q", name, tc.path, err, want)
			}
		}
	}
}

func closeIf(f *os.File) {
	if f != nil {
		f.Close()
	}
}

// TestReadFileBoundsTheSize: a file of the kind's limit is read whole;
// one byte more is refused before it is read, naming the size and the
// limit; a kind without a limit reads any size.
func TestReadFileBoundsTheSize(t *testing.T) {
	dir := t.TempDir()
	at := filepath.Join(dir, "at.toml")
	if err := os.WriteFile(at, []byte(strings.Repeat("x", 1000)), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := ReadFile(at, calibration)
	if err != nil || len(b) != 1000 {
		t.Fatalf("a file at the limit: got %d bytes, %v; want 1000", len(b), err)
	}
	over := filepath.Join(dir, "over.toml")
	f, err := os.Create(over)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(300e6); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	f.Close()
	_, err = ReadFile(over, calibration)
	want := over + ": 300.0 MB: too big for a calibration file (the limit is 1.0 kB)"
	if !errors.Is(err, ErrTooBig) || err.Error() != want {
		t.Errorf("300 MB: got %v, want %q", err, want)
	}
	b, err = ReadFile(at, Kind{Name: "a recording"})
	if err != nil || len(b) != 1000 {
		t.Errorf("no limit: got %d bytes, %v; want 1000", len(b), err)
	}
}

// TestOpenOfAMissingFileSaysSo: a missing file is fs.ErrNotExist, with
// the path.
func TestOpenOfAMissingFileSaysSo(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nowhere.toml")
	_, err := ReadFile(missing, calibration)
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), missing) {
		t.Errorf("got %v, want fs.ErrNotExist naming %s", err, missing)
	}
}

// TestDirFSOpensAsOpenDoes: files beside a document open as Open opens
// them (a named pipe is refused without blocking), and a name that
// leaves the directory is invalid.
func TestDirFSOpensAsOpenDoes(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "buf.bin"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ok.bin"), []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	fsys := DirFS(dir, Kind{Name: "a glTF buffer"})
	if _, err := within(t, func() (fs.File, error) { return fsys.Open("buf.bin") }); !errors.Is(err, ErrNotRegular) {
		t.Errorf("a named pipe: got %v, want ErrNotRegular", err)
	}
	if b, err := fs.ReadFile(fsys, "ok.bin"); err != nil || string(b) != "abc" {
		t.Errorf("a regular file: got %q, %v", b, err)
	}
	if _, err := fsys.Open("../ok.bin"); !errors.Is(err, fs.ErrInvalid) {
		t.Errorf("../ok.bin: got %v, want fs.ErrInvalid", err)
	}
}
