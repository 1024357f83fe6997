package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"github.com/gloved/gloved/internal/userfile"
)

// benchFlags are the flags every `gloved bench` experiment shares, and
// what it does with them: --json prints one JSON value instead of the
// tables, --plot (for an experiment that draws) writes an SVG file beside
// them, and no positional argument is taken.
type benchFlags struct {
	*flag.FlagSet
	json bool
	plot string
}

// maxBenchFrames bounds every experiment's --frames: each holds a time
// or more per frame (bench latency some 110 bytes), so a million stay well
// under 1 GB, and a million frames are hours of most experiments already.
const maxBenchFrames = 1_000_000

// newBenchFlags is the flag set of `gloved bench name`, with --json, whose
// help says what the JSON value holds.
func newBenchFlags(name, usage, jsonHelp string, out io.Writer) *benchFlags {
	b := &benchFlags{FlagSet: newFlagSet("bench "+name, usage, out)}
	b.BoolVar(&b.json, "json", false, jsonHelp)
	return b
}

// addPlot adds --plot, the SVG file to write (def "" for none).
func (b *benchFlags) addPlot(def, help string) { b.StringVar(&b.plot, "plot", def, help) }

// parse parses args, flags only, and checks --plot's path before the
// experiment runs, rather than once its minutes of work are done.
func (b *benchFlags) parse(args []string) error {
	if err := parseFlagsOnly(b.FlagSet, args); err != nil {
		return err
	}
	return ownKindOnly("--plot", b.plot, svgOutput)
}

// report writes the plot, if --plot named a file, with plot (nil for an
// experiment without --plot); then v as one JSON value with --json, or
// else calls print (nil: nothing more to say) and says where the plot
// went.
func (b *benchFlags) report(out io.Writer, v any, plot func(path string) error, print func()) error {
	if b.plot != "" {
		if err := plot(b.plot); err != nil {
			return fmt.Errorf("--plot %s: %w", userfile.Name(b.plot), err)
		}
	}
	if b.json {
		return json.NewEncoder(out).Encode(v)
	}
	if print != nil {
		print()
	}
	if b.plot != "" {
		fmt.Fprintf(out, "plot written to %s\n", userfile.Name(b.plot))
	}
	return nil
}

// addNoAccel adds --no-accel, which the pipeline's options take as NoAccel.
func addNoAccel(fs *flag.FlagSet) *bool {
	return fs.Bool("no-accel", false, "turn the contact methods' accelerations off (warm starts, frame coherence, what is built at load): the same answers, slower")
}

// addWorkers adds --workers, the pipeline's Workers.
func addWorkers(fs *flag.FlagSet) *int {
	return fs.Int("workers", 0, "goroutines that may answer a costly frame's contacts, each taking (link, object) pairs (0: one per CPU, at most 4; 1: never split): the same answers")
}

// addNoTris adds --no-tris, which the pipeline's options take as SkipTris.
func addNoTris(fs *flag.FlagSet) *bool {
	return fs.Bool("no-tris", false, "do not count the triangles each contact touches")
}
