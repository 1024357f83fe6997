package calibrator

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Output is the file a calibration will be written to, made ready before
// the session so that nobody calibrates for nothing: a file already there
// is refused unless it may be replaced, and a scratch file next to it
// proves the directory writable. Commit puts the calibration in place
// whole, or not at all; Abort leaves no trace.
type Output struct {
	Path    string
	replace bool
	tmp     *os.File
}

// CreateOutput readies path. Unless replace, a file at path is refused
// with an error that wraps fs.ErrExist.
func CreateOutput(path string, replace bool) (*Output, error) {
	if !replace {
		if _, err := os.Lstat(path); err == nil {
			return nil, fmt.Errorf("calibrator: %s: %w", path, fs.ErrExist)
		}
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("calibrator: %s is a directory", path)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".calibrating-*")
	if err != nil {
		return nil, fmt.Errorf("calibrator: cannot write %s: %w", path, unwrapPath(err))
	}
	return &Output{Path: path, replace: replace, tmp: tmp}, nil
}

// unwrapPath drops the scratch file's name from an error about it.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Commit writes text to the scratch file and moves it to the path: by
// rename when replacing, else by a link (or an exclusive create) that
// fails if a file appeared there meanwhile.
func (o *Output) Commit(text []byte) error {
	tmp := o.tmp.Name()
	defer os.Remove(tmp)
	_, err := o.tmp.Write(text)
	err = errors.Join(err, o.tmp.Chmod(0o644), o.tmp.Sync(), o.tmp.Close())
	if err != nil {
		return fmt.Errorf("calibrator: writing %s: %w", o.Path, unwrapPath(err))
	}
	if o.replace {
		err = os.Rename(tmp, o.Path)
	} else if err = os.Link(tmp, o.Path); err != nil && !errors.Is(err, fs.ErrExist) {
		err = writeNew(o.Path, text) // a file system without hard links
	}
	if err != nil {
		return fmt.Errorf("calibrator: writing %s: %w", o.Path, unwrapPath(err))
	}
	return nil
}

// writeNew writes a file that must not exist yet.
func writeNew(path string, text []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(text)
	if err = errors.Join(err, f.Sync(), f.Close()); err != nil {
		os.Remove(path)
	}
	return err
}

// Abort removes the scratch file; the path is left as it was.
func (o *Output) Abort() {
	o.tmp.Close()
	os.Remove(o.tmp.Name())
}
