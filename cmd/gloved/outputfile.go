package main

import (
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gloved/gloved/internal/userfile"
)

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
		if w == "" {
			continue // the flag not given: nothing written there ("" would name the working directory)
		}
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

// outputKind is a kind of file a flag writes over a file of its own kind
// only: an SVG plot, a CPU profile. A bench re-run over its own previous
// output still works, while a recording, a config or anything else named
// by mistake is never destroyed.
type outputKind struct {
	what  string   // how the one line names the kind, "an SVG plot"
	ext   string   // the extension a path must end in ("" for any)
	magic []string // what a file of the kind may begin with
}

var (
	svgOutput     = outputKind{what: "an SVG plot", ext: ".svg", magic: []string{"<svg", "<?xml"}}
	profileOutput = outputKind{what: "a CPU profile", magic: []string{"\x1f\x8b"}} // gzip, as pprof writes
)

// ownKindOnly refuses, before any work, an output path that flag names
// and k could not be written to: the wrong extension, a directory that
// is not there, a directory or other non-file at the path, or a file
// there that is not of k's kind.
func ownKindOnly(flag, path string, k outputKind) error {
	if path == "" {
		return nil
	}
	if k.ext != "" && !strings.EqualFold(filepath.Ext(path), k.ext) {
		return fmt.Errorf("%w: %s %s: want a %s file, for %s", errUsage, flag, userfile.Name(path), k.ext, k.what)
	}
	if fi, err := os.Stat(filepath.Dir(path)); err != nil || !fi.IsDir() {
		return fmt.Errorf("%w: %s %s: its directory %s is missing or not a directory; create it or name a file elsewhere", errUsage, flag, userfile.Name(path), userfile.Name(filepath.Dir(path)))
	}
	fi, err := os.Stat(path)
	if errors.Is(err, iofs.ErrNotExist) {
		return nil
	} else if err != nil {
		return fmt.Errorf("%w: %s %s: %v; name another file", errUsage, flag, userfile.Name(path), err)
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%w: %s %s is %s; name a file", errUsage, flag, userfile.Name(path), userfile.Describe(fi.Mode()))
	}
	if fi.Size() > 0 && !k.begins(path) {
		return fmt.Errorf("%w: %s %s exists and is not %s gloved wrote; name another file, or remove it first", errUsage, flag, userfile.Name(path), k.what)
	}
	return nil
}

// begins reports whether the file at path begins as a file of k's kind
// does (an unreadable one does not).
func (k outputKind) begins(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 8)
	n, _ := io.ReadFull(f, head)
	for _, m := range k.magic {
		if strings.HasPrefix(string(head[:n]), m) {
			return true
		}
	}
	return false
}
