package main

import (
	"fmt"

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
