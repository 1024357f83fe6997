package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/gloved/gloved/internal/userfile"
)

// outputFile is a file an offline command writes (export, hand -o, a
// bench's plot), written whole or not at all: into a scratch file in the
// same directory, which Commit syncs, closes and renames over the path
// only when every write succeeded. A full disk, a failed run or an
// interrupted command thus never leaves a truncated file, and a file
// that was at the path is left as it was.
type outputFile struct {
	*bufio.Writer
	path string
	f    *os.File
}

// createOutput readies path, so that a path that cannot be written fails
// before the work that fills it.
func createOutput(path string) (*outputFile, error) {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("cannot write %s: it is a directory; name a file", userfile.Name(path))
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".partial-*")
	if err != nil {
		return nil, outputError(path, err)
	}
	return &outputFile{Writer: bufio.NewWriter(f), path: path, f: f}, nil
}

// Commit puts the file in place, or, if any write, the sync or the close
// failed, removes the scratch file and says why.
func (o *outputFile) Commit() error {
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
		err = os.Rename(o.f.Name(), o.path)
	}
	if err != nil {
		os.Remove(o.f.Name())
		return outputError(o.path, err)
	}
	return nil
}

// Abort removes the scratch file, leaving the path as it was, and
// returns err, the failure that ended the writing: one of the scratch
// file's own is said of the path.
func (o *outputFile) Abort(err error) error {
	o.f.Close()
	os.Remove(o.f.Name())
	if pe := (*fs.PathError)(nil); errors.As(err, &pe) && pe.Path == o.f.Name() {
		return outputError(o.path, err)
	}
	return err
}

// writeFile writes the file path whole, with write, or not at all.
func writeFile(path string, write func(w io.Writer) error) error {
	o, err := createOutput(path)
	if err != nil {
		return err
	}
	if err := write(o); err != nil {
		return o.Abort(err)
	}
	return o.Commit()
}

// outputError says that path could not be written, in one line that
// names it (not the scratch file) and, for a full disk, what to do.
func outputError(path string, err error) error {
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
	return fmt.Errorf("cannot write %s: %w (%s)", userfile.Name(path), err, hint)
}

// inputFile is a file a command reads, and the flag that names it.
type inputFile struct{ flag, path string }

// notAnInput refuses an output, flag arg, that would write over one of
// the command's inputs: writes are the files it would write (arg itself
// for a file; for --out DIR, each file in DIR).
func notAnInput(flag, arg string, writes []string, inputs []inputFile) error {
	what := "directory"
	if len(writes) == 1 && writes[0] == arg {
		what = "file"
	}
	for _, w := range writes {
		for _, in := range inputs {
			if in.path == "" || !userfile.Same(w, in.path) {
				continue
			}
			if what == "file" {
				return fmt.Errorf("%w: %s %s is the file %s reads; name another file", errUsage, flag, userfile.Name(arg), in.flag)
			}
			return fmt.Errorf("%w: %s %s would write over %s, the file %s reads; name another directory", errUsage, flag, userfile.Name(arg), userfile.Name(w), in.flag)
		}
	}
	return nil
}
