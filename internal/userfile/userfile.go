package userfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/gloved/gloved/internal/bytesize"
)

// A Kind is what a file is for: how messages name it and how large it
// may be.
type Kind struct {
	// Name is the kind with its article, as in "give the path of a
	// calibration file".
	Name string
	// MaxBytes bounds the file; 0 leaves it unbounded, for a file read
	// in pieces that are bounded themselves (a recording, record by
	// record).
	MaxBytes int64
}

// Sentinel errors, wrapped with the path and what to do.
var (
	ErrNotRegular = errors.New("not a regular file")
	// ErrTooBig is package gltfdoc's and package env's too: a file, or
	// what it expands to, beyond its limit.
	ErrTooBig = errors.New("too big")
)

// Open opens path for reading if it is a regular file of at most
// k.MaxBytes. It never blocks on a named pipe.
func Open(path string, k Kind) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0) // a tty named by mistake never becomes the daemon's terminal
	if err != nil {
		// A socket cannot be opened (ENXIO), nor a directory without
		// read permission: say what the path is rather than why the
		// open failed.
		if st, serr := os.Stat(path); serr == nil && !st.Mode().IsRegular() {
			return nil, notRegular(path, st.Mode(), k)
		}
		return nil, Named(err, path)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, notRegular(path, st.Mode(), k)
	}
	if k.MaxBytes > 0 && st.Size() > k.MaxBytes {
		f.Close()
		return nil, tooBig(path, bytesize.Format(st.Size()), k)
	}
	return f, nil
}

// ReadFile reads the whole file at path as Open allows it. A file that
// grows past the limit while it is read is refused too.
func ReadFile(path string, k Kind) ([]byte, error) {
	f, err := Open(path, k)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	r := io.Reader(f)
	if k.MaxBytes > 0 {
		r = io.LimitReader(f, k.MaxBytes+1)
	}
	// Room for the size read and the read that finds the end, so that a
	// file that keeps its size is read without growing the buffer.
	b := bytes.NewBuffer(make([]byte, 0, st.Size()+bytes.MinRead))
	if _, err := b.ReadFrom(r); err != nil {
		return nil, Named(err, path) // an *fs.PathError, naming the file
	}
	if k.MaxBytes > 0 && int64(b.Len()) > k.MaxBytes {
		return nil, tooBig(path, "more than "+bytesize.Format(k.MaxBytes), k)
	}
	return b.Bytes(), nil
}

// DirFS is os.DirFS(dir) with each file opened as Open opens it, for the
// files a document names beside itself (a glTF's buffers).
func DirFS(dir string, k Kind) fs.FS { return dirFS{dir, k} }

type dirFS struct {
	dir  string
	kind Kind
}

func (d dirFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	return Open(filepath.Join(d.dir, filepath.FromSlash(name)), d.kind)
}

// Named is err, an *fs.PathError about path, with the path as Name
// shows it: the message stays one line. Any other err is as it is.
func Named(err error, path string) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path == path {
		pe.Path = Name(path)
	}
	return err
}

func notRegular(path string, m fs.FileMode, k Kind) error {
	return fmt.Errorf("%s is %w (%s): give the path of %s", Name(path), ErrNotRegular, Describe(m), k.Name)
}

func tooBig(path, size string, k Kind) error {
	return fmt.Errorf("%s: %s: %w for %s (the limit is %s)", Name(path), size, ErrTooBig, k.Name, bytesize.Format(k.MaxBytes))
}

// Describe names the type of a file: "a file", "a directory", "a
// symbolic link" (of an Lstat), "a socket", ...
func Describe(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m.IsRegular():
		return "a file"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	}
	return "of type " + m.Type().String()
}
