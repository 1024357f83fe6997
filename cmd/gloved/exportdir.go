package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/gloved/gloved/cab"
	"github.com/gloved/gloved/internal/userfile"
)

// exportDir is a directory an export writes (export --out, bench scenes
// --export): every file goes first to a staging directory inside it (a
// userfile.ScratchDir), and into place only once all are written. An export that fails (a full
// disk) leaves the directory as it was, an earlier export in it
// included, and removes the directories it made; one that succeeds, or
// that a signal ends after whole frames, replaces each file at once.
type exportDir struct {
	dir   string
	stage string // where the files are written: dir/.export.partial-PID-*
	// scratch is the staging directory, nil until made.
	scratch *userfile.ScratchDir
	made    []string // directories made for the export, the deepest last
}

// openExportDir makes dir (and its parents) as needed and a staging
// directory in it, for the flag that named dir. A dir/links that is there
// and is not a directory (a symbolic link to one elsewhere, say) is
// refused: gloved writes only inside the directory it is given.
func openExportDir(flag, dir string) (*exportDir, error) {
	links := filepath.Join(dir, "links")
	if fi, err := os.Lstat(links); err == nil && !fi.IsDir() {
		return nil, fmt.Errorf("%w: %s %s: %s is %s, and gloved writes only inside the directory it is given: remove it or name another directory", errUsage, flag, userfile.Name(dir), userfile.Name(links), userfile.Describe(fi.Mode()))
	}
	e := &exportDir{dir: dir}
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); !errors.Is(err, fs.ErrNotExist) || d == filepath.Dir(d) {
			break
		}
		e.made = append([]string{d}, e.made...)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("%s %s: %w", flag, userfile.Name(dir), err)
	}
	// A staging directory an export killed outright left is removed.
	scratch, err := userfile.CreateScratchDir(dir, "export")
	if err != nil {
		return nil, e.abandon(fmt.Errorf("%s %s: %w", flag, userfile.Name(dir), err))
	}
	e.scratch, e.stage = scratch, scratch.Path
	if err := os.Mkdir(filepath.Join(e.stage, "links"), 0o755); err != nil {
		return nil, e.abandon(fmt.Errorf("%s %s: %w", flag, userfile.Name(dir), err))
	}
	return e, nil
}

// abandon removes the staging directory and the directories made for the
// export (those still empty), and returns err.
func (e *exportDir) abandon(err error) error {
	if e.scratch != nil {
		e.scratch.Remove()
	}
	for i := len(e.made) - 1; i >= 0; i-- {
		os.Remove(e.made[i]) // fails, and keeps it, unless empty
	}
	return err
}

// commit moves the export's files, written under the staging directory
// (exportFiles, relative), into place, and removes the staging directory.
func (e *exportDir) commit(body *cab.Body) error {
	if err := os.MkdirAll(filepath.Join(e.dir, "links"), 0o755); err != nil {
		return e.abandon(err)
	}
	for _, f := range exportFiles("", body) {
		if err := os.Rename(filepath.Join(e.stage, f), filepath.Join(e.dir, f)); err != nil {
			return e.abandon(fmt.Errorf("%s: %w (the files before it are in place, those after it are not)", userfile.Name(filepath.Join(e.dir, f)), err))
		}
	}
	return e.scratch.Remove()
}
