package userfile

import (
	"os"
	"path/filepath"
)

// Same reports whether a and b name one file: the same inode if both
// exist (a hard link caught), else the same path once symlinks are
// followed as far as they exist. A command that writes a file checks its
// output against its inputs with it, so that it never writes over what
// it reads.
func Same(a, b string) bool {
	if fa, err := os.Stat(a); err == nil {
		if fb, err := os.Stat(b); err == nil {
			return os.SameFile(fa, fb)
		}
	}
	return canonical(a) == canonical(b)
}

// canonical is p absolute with its symlinks followed, or its directory's
// if p does not exist yet (an output to be created).
func canonical(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	if d, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
		return filepath.Join(d, filepath.Base(p))
	}
	return filepath.Clean(p)
}
