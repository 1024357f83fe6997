package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/session"
)

// errHelp is -h or --help: the usage was printed, and that is all.
var errHelp = errors.New("help")

// parseInterleaved parses flags that may come before, between or after the
// positional arguments, and returns the positionals.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, errHelp
			}
			return nil, fmt.Errorf("%w: %v", errUsage, err)
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// parseFlagsOnly parses args, which must hold flags alone.
func parseFlagsOnly(fs *flag.FlagSet, args []string) error {
	pos, err := parseInterleaved(fs, args)
	if err == nil && len(pos) > 0 {
		err = fmt.Errorf("%w: unexpected argument %q", errUsage, pos[0])
	}
	return err
}

// atLeast checks that flag --name's value v is at least least.
func atLeast(name string, v, least int) error {
	if v < least {
		return fmt.Errorf("%w: --%s %d: want at least %d", errUsage, name, v, least)
	}
	return nil
}

// inRange checks that flag --name's value v is finite and lo to hi;
// want says the range to the user.
func inRange(name string, v, lo, hi float64, want string) error {
	if !(v >= lo && v <= hi) {
		return fmt.Errorf("%w: --%s %v: want %s", errUsage, name, v, want)
	}
	return nil
}

func newFlagSet(name, usage string, out io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(out)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: %s\n", usage)
		if strings.Contains(usage, "[") {
			fs.PrintDefaults()
		}
	}
	return fs
}

// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string { return strings.Join(*s, ",") }

func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// parsePose reads a pose flag, "qw qx qy qz tx ty tz".
func parsePose(s string) (geom.Transform, error) {
	v, err := session.ParsePose(s)
	if err != nil {
		return geom.Transform{}, err
	}
	return session.PoseFrom(v)
}
