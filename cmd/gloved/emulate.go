package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gloved/gloved/devices/cyberglove"
	"github.com/gloved/gloved/devices/cyberglove/layout"
	"github.com/gloved/gloved/devices/emulator"
	"github.com/gloved/gloved/devices/recording"
	"github.com/gloved/gloved/devices/sim"
)

// seconds parses a duration given in seconds (a float) for flags.
func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

func runEmulate(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("emulate", "gloved emulate [--model cyberglove|cyberglove3] [--sensors 18|22] [--source sim|RECORDING] [--motion grasp|tap|pinch|fist|cross] [--calibration FILE [--pose NAME] [--script FILE] [--noise SIGMA]] [--left] [--link PATH] [--garbage RATE] [--unplug-at S] [--unplug-for S] [--silent-at S] [--silent-for S] [--hangup-at S] [--hangup-for S] [--seed N] [--stamps FILE]", out)
	model := fs.String("model", string(cyberglove.ModelII), "the unit: cyberglove (I/II, 8-bit records) or cyberglove3 (III: also 1eu and 1S, its 16-bit stream at 90 Hz)")
	sensors := fs.Int("sensors", 22, "sensor count: 18 or 22 (with --calibration: the calibration's)")
	source := fs.String("source", "sim", `"sim", or a recording to play (looped)`)
	motion := fs.String("motion", "grasp", "simulated motion: "+sim.MotionNames())
	left := fs.Bool("left", false, "report a left-hand glove")
	link := fs.String("link", "", "also make PATH a symlink to the pty, kept pointing at it across hangups")
	garbage := fs.Float64("garbage", 0, "probability per record of a burst of garbage bytes (cyberglove3: one in four a spurious 1S or e1S fragment)")
	unplugAt := fs.Float64("unplug-at", 0, "seconds after start at which the glove is unplugged from the unit")
	unplugFor := fs.Float64("unplug-for", 2, "seconds the glove stays unplugged (with --unplug-at)")
	silentAt := fs.Float64("silent-at", 0, "seconds after start at which the unit goes silent (no records, no replies), as a hung unit")
	silentFor := fs.Float64("silent-for", 2, "seconds the unit stays silent (with --silent-at)")
	hangupAt := fs.Float64("hangup-at", 0, "seconds after start at which the port hangs up (as a USB unplug)")
	hangupFor := fs.Float64("hangup-for", 1, "seconds before the port comes back (with --hangup-at)")
	seed := fs.Uint64("seed", 1, "seed of the fault injection")
	stamps := fs.String("stamps", "", "write the time each streamed record is written (Unix ns, one per line) to FILE, for gloved bench latency")
	var poses posesFlags
	poses.add(fs)
	if pos, err := parseInterleaved(fs, args); err != nil {
		return err
	} else if len(pos) > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, pos[0])
	}
	o := emulator.Opts{Model: cyberglove.Model(*model), Sensors: *sensors, Right: !*left, Garbage: *garbage, Seed: *seed}
	if *unplugAt > 0 {
		o.UnplugAt, o.UnplugFor = seconds(*unplugAt), seconds(*unplugFor)
	}
	if *silentAt > 0 {
		o.SilentAt, o.SilentFor = seconds(*silentAt), seconds(*silentFor)
	}
	what := "simulated " + *motion
	switch {
	case poses.calibration != "":
		if flagSet(fs, "source") || flagSet(fs, "motion") {
			return fmt.Errorf("%w: --calibration plays the calibration poses: give --source and --motion only without it", errUsage)
		}
		script, n, err := poses.script(out, *seed)
		if err != nil {
			return err
		}
		if flagSet(fs, "sensors") && *sensors != n {
			return fmt.Errorf("%w: --sensors %d, but %s is for %d sensors", errUsage, *sensors, poses.calibration, n)
		}
		o.Source, o.Sensors = script.Source, n
		what = fmt.Sprintf("calibration poses through %s, noise %g counts; pose names on stdin: %s", poses.calibration, poses.noise, strings.Join(script.Names(), ", "))
		go readPoses(input, script)
	case *source == "sim":
		m := sim.Motion(*motion)
		var probe [layout.Slots]uint16
		if err := sim.Raw(m, 0, &probe); err != nil {
			return fmt.Errorf("%w: --motion: %v", errUsage, err)
		}
		o.Source = func(t time.Duration, s *[layout.Slots]uint16) { sim.Raw(m, t, s) }
	default:
		src, n, err := recordedSource(*source)
		if err != nil {
			return err
		}
		o.Source, o.Sensors, what = src, n, "recording "+*source
	}
	var h emulator.Hangup
	if *hangupAt > 0 {
		h = emulator.Hangup{At: seconds(*hangupAt), For: seconds(*hangupFor)}
	}
	var closeStamps func() error
	if *stamps != "" {
		f, err := os.Create(*stamps)
		if err != nil {
			return fmt.Errorf("--stamps: %w", err)
		}
		w := bufio.NewWriter(f)
		var line []byte
		o.OnWrite = func(t time.Time) {
			line = strconv.AppendInt(line[:0], t.UnixNano(), 10)
			w.Write(append(line, '\n')) // an error stays in w and is reported by Flush
		}
		closeStamps = func() error {
			if err := errors.Join(w.Flush(), f.Close()); err != nil {
				return fmt.Errorf("--stamps: %w", err)
			}
			return nil
		}
	}
	e, err := emulator.New(o)
	if err != nil {
		if closeStamps != nil {
			closeStamps()
		}
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	hand := map[bool]string{true: "left", false: "right"}[*left]
	err = emulator.Run(ctx, e, *link, h, func(path string) {
		fmt.Fprintf(out, "emulating a %d-sensor %s-hand %s (%s) on %s", o.Sensors, hand, unitName[o.Model], what, path)
		if *link != "" {
			fmt.Fprintf(out, " (linked at %s)", *link)
		}
		fmt.Fprintln(out)
	})
	if closeStamps != nil {
		err = errors.Join(err, closeStamps())
	}
	return err
}

// unitName names the emulated unit to the user.
var unitName = map[cyberglove.Model]string{"": "CyberGlove", cyberglove.ModelII: "CyberGlove", cyberglove.ModelIII: "CyberGlove III"}

// recordedSource loads a recording's samples and plays their values in a
// loop by time.
func recordedSource(path string) (emulator.Source, int, error) {
	samples, warning, err := recording.ReadSamples(path)
	if err != nil {
		return nil, 0, err
	}
	if warning != nil {
		warn("%s: %v; playing the %d samples before it", path, warning, len(samples))
	}
	src, err := emulator.LoopSamples(samples, 10*time.Millisecond)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", path, err)
	}
	return src, samples[0].N, nil
}
