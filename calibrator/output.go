package calibrator

import (
	"fmt"
	"io/fs"
	"os"

	"github.com/gloved/gloved/internal/userfile"
)

// Output is the file a calibration will be written to, made ready before
// the session so that nobody calibrates for nothing: a file already there
// is refused unless it may be replaced, and a scratch file next to it
// proves the directory writable. Commit puts the calibration in place
// whole, or not at all (userfile.Output); Abort leaves no trace.
type Output struct {
	Path    string
	replace bool
	out     *userfile.Output
}

// CreateOutput readies path. Unless replace, a file at path is refused
// with an error that wraps fs.ErrExist.
func CreateOutput(path string, replace bool) (*Output, error) {
	if !replace {
		if _, err := os.Lstat(path); err == nil {
			return nil, fmt.Errorf("calibrator: %s: %w", path, fs.ErrExist)
		}
	}
	out, err := userfile.CreateOutput(path)
	if err != nil {
		return nil, fmt.Errorf("calibrator: %w", err)
	}
	return &Output{Path: path, replace: replace, out: out}, nil
}

// Commit writes text and puts it at the path: replacing a file there
// when it may, else only if no file appeared there meanwhile.
func (o *Output) Commit(text []byte) error {
	if _, err := o.out.Write(text); err != nil {
		return fmt.Errorf("calibrator: %w", o.out.Abort(err))
	}
	commit := o.out.CommitNew
	if o.replace {
		commit = o.out.Commit
	}
	if err := commit(); err != nil {
		return fmt.Errorf("calibrator: %w", err)
	}
	return nil
}

// Abort removes the scratch file; the path is left as it was.
func (o *Output) Abort() { o.out.Abort(nil) }
