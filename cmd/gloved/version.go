package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// version, commit and modified ("true": built from a tree with
// uncommitted changes) are stamped at link time by packaging/build-deb.sh
// (-ldflags "-X main.version=... -X main.commit=... -X main.modified=...");
// a plain `go build`, `go run` or `go install` leaves them empty and the
// build's own record (runtime/debug.ReadBuildInfo) is used instead.
var version, commit, modified string

// build is what `gloved version` says of the binary.
type build struct {
	Version  string // 0.3.0, v0.3.0 (go install module@version), or (devel)
	Commit   string // the git commit, or "" when unknown
	Modified bool   // built from a tree with uncommitted changes
	Go       string // go1.26.0 linux/amd64
}

// describeBuild returns the stamped version and commit, or else what the
// Go toolchain recorded: the module version and the VCS settings (which
// `go build` records from a git checkout unless -buildvcs=false).
func describeBuild(version, commit, modified string, bi *debug.BuildInfo, ok bool) build {
	b := build{Version: version, Commit: commit, Modified: modified == "true", Go: runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH}
	if !ok {
		bi = &debug.BuildInfo{}
	}
	if bi.GoVersion != "" {
		b.Go = bi.GoVersion + " " + runtime.GOOS + "/" + runtime.GOARCH
	}
	if b.Version == "" {
		b.Version = bi.Main.Version
		if b.Version == "" {
			b.Version = "(devel)"
		}
	}
	if b.Commit == "" {
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				b.Commit = s.Value
			case "vcs.modified":
				b.Modified = s.Value == "true"
			}
		}
	}
	return b
}

func (b build) print(out io.Writer) {
	fmt.Fprintf(out, "gloved %s\n", b.Version)
	switch {
	case b.Commit == "":
		fmt.Fprintln(out, "commit unknown (built without VCS information: not from a git checkout, or with -buildvcs=false)")
	case b.Modified:
		fmt.Fprintf(out, "commit %s, with uncommitted changes\n", b.Commit)
	default:
		fmt.Fprintf(out, "commit %s\n", b.Commit)
	}
	fmt.Fprintf(out, "built with %s\n", b.Go)
}

func runVersion(_ context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("version", "gloved version", out)
	if pos, err := parseInterleaved(fs, args); err != nil {
		return err
	} else if len(pos) > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, pos[0])
	}
	bi, ok := debug.ReadBuildInfo()
	describeBuild(version, commit, modified, bi, ok).print(out)
	return nil
}
