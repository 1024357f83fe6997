package userfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// Output is a file a command writes whole or not at all: into a scratch
// file in the same directory, which Commit syncs, closes and moves to
// the path only when every write succeeded. A full disk, a failed run or
// an interrupted command thus never leaves a truncated file, and a file
// that was at the path is left as it was.
type Output struct {
	*bufio.Writer
	Path string
	f    *os.File
}

// CreateOutput readies path, so that a path that cannot be written fails
// before the work that fills it.
func CreateOutput(path string) (*Output, error) {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("cannot write %s: it is a directory; name a file", Name(path))
	}
	f, err := os.CreateTemp(filepath.Dir(path), scratchPattern(path))
	if err != nil {
		return nil, OutputError(path, err)
	}
	// A file system without flock(2) fails the lock, and the sweep of
	// another process then fails to lock this file too, keeping it.
	lockScratch(f)
	sweepStale(path, f.Name())
	return &Output{Writer: bufio.NewWriter(f), Path: path, f: f}, nil
}

// Commit puts the file in place, replacing one at the path, or, if any
// write, the sync or the close failed, removes the scratch file and says
// why.
func (o *Output) Commit() error {
	return o.commit(func(tmp string) error { return os.Rename(tmp, o.Path) })
}

// CommitNew is Commit for a path that must not have a file: one that
// appeared there since CreateOutput is left as it is, and the error wraps
// fs.ErrExist.
func (o *Output) CommitNew() error {
	return o.commit(func(tmp string) error {
		err := os.Link(tmp, o.Path)
		if err != nil && !errors.Is(err, fs.ErrExist) {
			err = copyNew(tmp, o.Path) // a file system without hard links
		}
		if err == nil {
			err = os.Remove(tmp)
		}
		return err
	})
}

func (o *Output) commit(place func(tmp string) error) error {
	err := o.Flush()
	if err == nil {
		err = o.f.Chmod(0o644)
	}
	if err == nil {
		err = o.f.Sync()
	}
	if cerr := o.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = place(o.f.Name())
	}
	if err != nil {
		os.Remove(o.f.Name())
		return OutputError(o.Path, err)
	}
	return nil
}

// copyNew copies the file at from to a new file at path, which must not
// exist yet.
func copyNew(from, path string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = io.Copy(f, src)
	if err = errors.Join(err, f.Sync(), f.Close()); err != nil {
		os.Remove(path)
	}
	return err
}

// Abort removes the scratch file, leaving the path as it was, and
// returns err, the failure that ended the writing: one of the scratch
// file's own is said of the path.
func (o *Output) Abort(err error) error {
	o.f.Close()
	os.Remove(o.f.Name())
	if pe := (*fs.PathError)(nil); errors.As(err, &pe) && pe.Path == o.f.Name() {
		return OutputError(o.Path, err)
	}
	return err
}

// WriteFile writes the file path whole, with write, or not at all.
func WriteFile(path string, write func(w io.Writer) error) error {
	o, err := CreateOutput(path)
	if err != nil {
		return err
	}
	if err := write(o); err != nil {
		return o.Abort(err)
	}
	return o.Commit()
}

// OutputError says that path could not be written, in one line that
// names it (not a scratch file) and, for a full disk, what to do; it
// wraps err's cause.
func OutputError(path string, err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	if errors.As(err, &pe) {
		err = pe.Err
	} else if errors.As(err, &le) {
		err = le.Err
	}
	hint := "nothing written"
	if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) {
		hint = "nothing written; free some space or write elsewhere"
	}
	return fmt.Errorf("cannot write %s: %w (%s)", Name(path), err, hint)
}
