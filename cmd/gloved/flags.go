package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gloved/gloved/contact"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/internal/userfile"
	"github.com/gloved/gloved/session"
)

// errHelp is -h or --help: the usage was printed, and that is all.
var errHelp = errors.New("help")

// parseInterleaved parses flags that may come before, between or after the
// positional arguments, and returns the positionals.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := parseQuietly(fs, args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fs.Usage()
				return nil, errHelp
			}
			return nil, fmt.Errorf("%w: %v (`gloved %s -h` lists the flags)", errUsage, err, fs.Name())
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// parseQuietly is fs.Parse printing nothing: the flag package prints a
// parse error, then the whole usage, and main says the error again, where
// the user wants one line; the usage is printed for -h alone.
func parseQuietly(fs *flag.FlagSet, args []string) error {
	out := fs.Output()
	fs.SetOutput(io.Discard)
	defer fs.SetOutput(out)
	return fs.Parse(args)
}

// parseFlagsOnly parses args, which must hold flags alone.
func parseFlagsOnly(fs *flag.FlagSet, args []string) error {
	pos, err := parseInterleaved(fs, args)
	if err == nil && len(pos) > 0 {
		err = fmt.Errorf("%w: unexpected argument %q", errUsage, pos[0])
	}
	return err
}

// pipelineFlags checks --proximity and --workers against the ranges a
// config's frame.proximity_m and frame.workers take.
func pipelineFlags(proximity float64, workers int) error {
	if !session.ProximityInRange(proximity) {
		return fmt.Errorf("%w: --proximity %v: want 0 to %g m", errUsage, proximity, session.MaxProximity)
	}
	if !session.WorkersInRange(workers) {
		return fmt.Errorf("%w: --workers %d: want 0 (one per CPU, at most %d) to %d", errUsage, workers, contact.MaxWorkers, contact.MaxWorkers)
	}
	return nil
}

// atLeast checks that flag --name's value v is at least least.
func atLeast(name string, v, least int) error {
	if v < least {
		return fmt.Errorf("%w: --%s %d: want at least %d", errUsage, name, v, least)
	}
	return nil
}

// between checks that flag --name's value v is lo to hi: a count that
// sizes what a command holds has a ceiling, so that a mistyped one is
// refused at once rather than running out of memory an hour later.
func between(name string, v, lo, hi int) error {
	if v < lo || v > hi {
		return fmt.Errorf("%w: --%s %d: want %d to %d", errUsage, name, v, lo, hi)
	}
	return nil
}

// limitFlag is a duration flag whose 0 means no limit (run --for, watch
// --for and --timeout). It keeps the text given, because a positive
// duration shorter than a nanosecond ("0.5ns") parses as 0 and would run
// without a limit, the opposite of what was asked.
type limitFlag struct {
	name string
	d    time.Duration
	text string
}

// minLimit is the shortest limit a limitFlag takes: shorter ones are
// typing mistakes (no command does anything useful within it).
const minLimit = time.Millisecond

// addLimitFlag adds --name, a limitFlag of default def.
func addLimitFlag(fs *flag.FlagSet, name string, def time.Duration, usage string) *limitFlag {
	l := &limitFlag{name: name, d: def, text: def.String()}
	fs.Var(l, name, fmt.Sprintf("%s; a `duration` such as 90s or 1m30s, at least %v", usage, minLimit))
	return l
}

func (l *limitFlag) String() string {
	if l == nil {
		return "0s"
	}
	return l.d.String()
}

func (l *limitFlag) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	l.d, l.text = d, s
	return nil
}

// check refuses a negative limit, and a positive one below minLimit,
// one given that rounds to 0 included, in one line naming the flag.
func (l *limitFlag) check() error {
	roundsToZero := l.d == 0 && strings.ContainsAny(l.text, "123456789")
	if l.d < 0 || roundsToZero || (l.d > 0 && l.d < minLimit) {
		return fmt.Errorf("%w: --%s %s: want 0 (no limit) or %v or more", errUsage, l.name, l.text, minLimit)
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

// poseFlag is a pose flag, written position first as the OSC wrist
// message writes it, beside its old name, rotation first, which is still
// read with a warning that gives the new flag to write. Both take seven
// numbers, so the new order needed a new name.
type poseFlag struct {
	name, old       string
	value, oldValue string
}

// addPoseFlag declares --name "tx ty tz qx qy qz qw" (usage says what the
// pose places) and its old form --old "qw qx qy qz tx ty tz".
func addPoseFlag(fs *flag.FlagSet, name, old, usage string) *poseFlag {
	p := &poseFlag{name: name, old: old}
	fs.StringVar(&p.value, name, "", fmt.Sprintf("%s: %q, metres (each within ±%g) then a unit quaternion, as the OSC wrist message", usage, "tx ty tz qx qy qz qw", geom.MaxPosition))
	fs.StringVar(&p.oldValue, old, "", fmt.Sprintf("the old form of --%s, %q (still read, with a warning)", name, session.RotationFirst.String()))
	return p
}

// pose returns the pose given, rotation first as session.PoseFrom reads
// it, or nil if neither flag was given.
func (p *poseFlag) pose() ([]float64, error) {
	switch {
	case p.value != "" && p.oldValue != "":
		return nil, fmt.Errorf("%w: --%s and --%s: give the pose once, as --%s", errUsage, p.old, p.name, p.name)
	case p.value != "":
		v, err := session.ParsePose(p.value, session.PositionFirst)
		if err != nil {
			return nil, fmt.Errorf("%w: --%s: %v", errUsage, p.name, err)
		}
		return v, nil
	case p.oldValue != "":
		v, err := session.ParsePose(p.oldValue, session.RotationFirst)
		if err != nil {
			return nil, fmt.Errorf("%w: --%s: %v", errUsage, p.old, err)
		}
		words := make([]string, 7)
		for i, x := range session.PositionFirstValues(v) {
			words[i] = strconv.FormatFloat(x, 'g', -1, 64)
		}
		warn("%s", session.OldOrder(fmt.Sprintf("--%s %q", p.old, p.oldValue), fmt.Sprintf("--%s %q", p.name, strings.Join(words, " "))))
		return v, nil
	}
	return nil, nil
}

// existsError is the one line for an output file a flag names that
// exists: the command refuses to overwrite it unless given --force.
func existsError(flag, path string) error {
	return existsErr(fmt.Sprintf("%s %s exists: give --force to overwrite it", flag, userfile.Name(path)))
}

// errExists is what every existsError is (errors.Is), so that a caller
// passes it on as it is, said once, not wrapped in the flag's name again.
var errExists = errors.New("output file exists")

// existsErr is existsError's one line.
type existsErr string

func (e existsErr) Error() string        { return string(e) }
func (e existsErr) Is(target error) bool { return target == errExists }

// refuseExisting is existsError for the output file a flag names when
// something other than a directory (which the writing refuses in its own
// words) is there and force is not given: checked before any work.
func refuseExisting(flag, path string, force bool) error {
	if path == "" || force {
		return nil
	}
	if fi, err := os.Lstat(path); err == nil && !fi.IsDir() {
		return existsError(flag, path)
	}
	return nil
}

// commitOutput puts o at its path, written whole: over a file there only
// if force, else a file that appeared there meanwhile is left as it is
// and refused as existsError.
func commitOutput(flag string, o *userfile.Output, force bool) error {
	if force {
		return o.Commit()
	}
	if err := o.CommitNew(); errors.Is(err, iofs.ErrExist) {
		return existsError(flag, o.Path)
	} else if err != nil {
		return err
	}
	return nil
}

// flagsWritten is Spec.NormalizeWritten's written for a command whose
// flags carry the config keys' names: a flag given is a key written, so
// one given empty (--motion "") is refused as the config refuses the key
// written empty, not taken for its default.
func flagsWritten(fs *flag.FlagSet) func(key string) bool {
	return func(key string) bool { return flagSet(fs, key) }
}

// flagSpec is a glove's Spec.Normalize error (nil for none) as a usage
// error of a command whose flags carry the config keys' names, naming the
// flag (`--baud 1: ...`) rather than the key (`baud = 1: ...`).
func flagSpec(err error) error {
	if err == nil {
		return nil
	}
	if ke, ok := errors.AsType[*session.KeyError](err); ok {
		return fmt.Errorf("%w: %s", errUsage, ke.Flag())
	}
	return fmt.Errorf("%w: %v", errUsage, err)
}
