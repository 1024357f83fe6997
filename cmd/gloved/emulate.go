package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gloved/gloved/configs"
	"github.com/gloved/gloved/devices/cyberglove"
	"github.com/gloved/gloved/devices/cyberglove/layout"
	"github.com/gloved/gloved/devices/emulator"
	"github.com/gloved/gloved/devices/opengloves"
	"github.com/gloved/gloved/devices/replay"
	"github.com/gloved/gloved/devices/sim"
	"github.com/gloved/gloved/internal/userfile"
)

// seconds parses a duration given in seconds (a float) for flags.
func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// emulateArgs are `gloved emulate`'s flags.
type emulateArgs struct {
	model, source, motion, link, stamps string
	servoLog                            string
	sensors, max                        int
	left, splay, joints, forceFeedback  bool
	controls, force                     bool
	garbage, lose                       float64
	unplugAt, unplugFor                 float64
	silentAt, silentFor                 float64
	hangupAt, hangupFor                 float64
	seed                                uint64
	poses                               posesFlags
	set                                 func(name string) bool // whether a flag was given
}

func runEmulate(ctx context.Context, args []string, out io.Writer) error {
	a, err := parseEmulate(args, out)
	if err != nil {
		return err
	}
	if a.link != "" {
		if err := linkError(a.link, emulator.CheckLink(a.link)); err != nil {
			return err
		}
	}
	if a.model == opengloves.Name {
		return a.emulateOpenGloves(ctx, out)
	}
	for _, f := range []string{"max", "splay", "joints", "force-feedback", "controls", "servo-log"} {
		if a.set(f) {
			return fmt.Errorf("%w: --%s: only for an emulated OpenGloves glove (--model opengloves)", errUsage, f)
		}
	}
	o := a.opts()
	what, err := a.setSource(&o, out)
	if err != nil {
		return err
	}
	var closeStamps func() error
	o.OnWrite, closeStamps, err = a.stampWriter()
	if err != nil {
		return err
	}
	e, err := emulator.New(o)
	if err == nil {
		hand := map[bool]string{true: "left", false: "right"}[a.left]
		err = emulator.Run(ctx, e, a.link, a.hangup(), func(path string) {
			fmt.Fprintf(out, "emulating a %d-sensor %s-hand %s (%s) on %s", o.Sensors, hand, unitName[o.Model], what, path)
			if a.link != "" {
				fmt.Fprintf(out, " (linked at %s)", userfile.Name(a.link))
			}
			fmt.Fprintln(out)
		})
	} else {
		err = fmt.Errorf("%w: %v", errUsage, err)
	}
	return errors.Join(linkError(a.link, err), closeStamps())
}

// parseEmulate reads `gloved emulate`'s flags.
func parseEmulate(args []string, out io.Writer) (*emulateArgs, error) {
	fs := newFlagSet("emulate", "gloved emulate [--model "+strings.Join(emulator.Models, "|")+"] [--sensors 18|22] [--max 4095|1023] [--splay] [--joints] [--force-feedback] [--controls] [--source sim|RECORDING] [--motion "+strings.Join(sim.MotionStrings(), "|")+"] [--calibration FILE [--pose NAME] [--script FILE] [--noise SIGMA]] [--left] [--link PATH] [--garbage RATE] [--lose RATE] [--unplug-at S] [--unplug-for S] [--silent-at S] [--silent-for S] [--hangup-at S] [--hangup-for S] [--seed N] [--stamps FILE] [--servo-log FILE] [--force]", out)
	a := &emulateArgs{set: func(name string) bool { return flagSet(fs, name) }}
	fs.StringVar(&a.model, "model", string(cyberglove.ModelII), "the unit: cyberglove (I/II, 8-bit records), cyberglove3 (III: also 1eu and 1S, its 16-bit stream at 90 Hz) or opengloves (a LucidGloves firmware's alpha-encoded lines at 100 Hz)")
	fs.IntVar(&a.max, "max", opengloves.MaxESP32, "opengloves: the firmware's full scale, 4095 (an ESP32) or 1023 (an AVR board)")
	fs.BoolVar(&a.splay, "splay", false, "opengloves: send the splays too (a firmware built with USING_SPLAY)")
	fs.BoolVar(&a.joints, "joints", false, "opengloves: send the per-joint curls (AAA)..(EAD) too, which the encoding has room for and no public firmware sends")
	fs.BoolVar(&a.forceFeedback, "force-feedback", false, "opengloves: after each line wait up to a second for the host's, as a firmware built with force feedback does")
	fs.BoolVar(&a.controls, "controls", false, fmt.Sprintf("opengloves: work the controls: the joystick turns round every %v, the A button pressed while it points right, B while left", emulator.ControlsTurn))
	fs.IntVar(&a.sensors, "sensors", 22, "sensor count: 18 or 22 (with --calibration: the calibration's)")
	fs.StringVar(&a.source, "source", "sim", `"sim", or a recording to play (looped)`)
	fs.StringVar(&a.motion, "motion", "grasp", "simulated motion: "+sim.MotionNames())
	fs.BoolVar(&a.left, "left", false, "report a left-hand glove")
	fs.StringVar(&a.link, "link", "", "also make PATH a symlink to the pty: removed while the port is hung up, then pointed at the new one")
	fs.Float64Var(&a.garbage, "garbage", 0, "probability per record of a burst of garbage bytes (cyberglove3: one in four a spurious 1S or e1S fragment)")
	fs.Float64Var(&a.lose, "lose", 0, "probability per streamed record that the line loses it (it is not sent), as a flaky adapter or a second reader of the port")
	fs.Float64Var(&a.unplugAt, "unplug-at", 0, "seconds after start at which the glove is unplugged from the unit")
	fs.Float64Var(&a.unplugFor, "unplug-for", 2, "seconds the glove stays unplugged (with --unplug-at)")
	fs.Float64Var(&a.silentAt, "silent-at", 0, "seconds after start at which the unit goes silent (no records, no replies), as a hung unit")
	fs.Float64Var(&a.silentFor, "silent-for", 2, "seconds the unit stays silent (with --silent-at)")
	fs.Float64Var(&a.hangupAt, "hangup-at", 0, "seconds after start at which the port hangs up (as a USB unplug)")
	fs.Float64Var(&a.hangupFor, "hangup-for", 1, "seconds before the port comes back (with --hangup-at)")
	fs.Uint64Var(&a.seed, "seed", 1, "seed of the fault injection")
	fs.StringVar(&a.stamps, "stamps", "", "write the time each streamed record is written (Unix ns, one per line) to FILE, for gloved bench latency")
	fs.StringVar(&a.servoLog, "servo-log", "", "opengloves --force-feedback: write each host line that set the servos to FILE, one a line: when it was read (Unix ns), then the five values thumb to little")
	fs.BoolVar(&a.force, "force", false, "overwrite the --stamps and --servo-log files if they exist")
	a.poses.add(fs)
	if pos, err := parseInterleaved(fs, args); err != nil {
		return nil, err
	} else if len(pos) > 0 {
		return nil, fmt.Errorf("%w: unexpected argument %q", errUsage, pos[0])
	}
	if !slices.Contains(emulator.Models, a.model) {
		return nil, fmt.Errorf("%w: --model %q: want %s", errUsage, a.model, configs.List(emulator.Models, "or"))
	}
	if err := a.checkNumbers(); err != nil {
		return nil, err
	}
	if err := a.checkFiles(); err != nil {
		return nil, err
	}
	// The calibration poses' flags shape those poses only: without them
	// the glove plays a motion or a recording, untouched by them.
	for _, f := range []string{"noise", "pose", "script"} {
		if a.set(f) && a.poses.calibration == "" {
			return nil, fmt.Errorf("%w: --%s shapes the calibration poses, played only with --calibration FILE: give --calibration, or leave --%s out", errUsage, f, f)
		}
	}
	return a, nil
}

// checkFiles refuses one path for two of emulate's files: each output
// (--link, --stamps, --servo-log) its own, and none an input (--source,
// --calibration, --script). Two outputs at one path wrote both streams
// into one file, or refused it only after creating it empty.
func (a *emulateArgs) checkFiles() error {
	outs := []inputFile{{"--link", a.link}, {"--stamps", a.stamps}, {"--servo-log", a.servoLog}}
	ins := []inputFile{{"--calibration", a.poses.calibration}, {"--script", a.poses.file}}
	if a.source != "sim" {
		ins = append(ins, inputFile{"--source", a.source})
	}
	for i, o := range outs {
		if o.path == "" {
			continue
		}
		for _, p := range outs[i+1:] {
			if p.path != "" && userfile.Same(o.path, p.path) {
				return fmt.Errorf("%w: %s and %s both name %s: give each its own file", errUsage, o.flag, p.flag, userfile.Name(p.path))
			}
		}
		if err := notAnInput(o.flag, o.path, []string{o.path}, ins); err != nil {
			return err
		}
	}
	return nil
}

// The fault flags' seconds: a fault lasts at least a millisecond
// (records are 10 ms apart), and no time is beyond a billion seconds
// (some 31 years), which would overflow a duration.
const (
	minFaultS = 0.001
	maxFaultS = 1e9
	faultAt   = "seconds after start, 0 (never) to 1e9"
	faultFor  = "seconds, 0.001 to 1e9"
)

// checkNumbers checks every number flag, given or not: finite and in
// its range. A fault starts at 0 (never) or later and lasts at least a
// millisecond (records are 10 ms apart).
func (a *emulateArgs) checkNumbers() error {
	for _, f := range []struct {
		name   string
		v      float64
		lo, hi float64
		want   string
	}{
		{"garbage", a.garbage, 0, 1, "a probability per record, 0 to 1"},
		{"lose", a.lose, 0, 1, "a probability per record, 0 to 1"},
		{"unplug-at", a.unplugAt, 0, maxFaultS, faultAt},
		{"unplug-for", a.unplugFor, minFaultS, maxFaultS, faultFor},
		{"silent-at", a.silentAt, 0, maxFaultS, faultAt},
		{"silent-for", a.silentFor, minFaultS, maxFaultS, faultFor},
		{"hangup-at", a.hangupAt, 0, maxFaultS, faultAt},
		{"hangup-for", a.hangupFor, minFaultS, maxFaultS, faultFor},
		{"noise", a.poses.noise, 0, emulator.MaxNoise, fmt.Sprintf("0 to %d counts", emulator.MaxNoise)},
	} {
		if err := inRange(f.name, f.v, f.lo, f.hi, f.want); err != nil {
			return err
		}
	}
	return nil
}

// opts are the emulator's options the flags give, but its source.
func (a *emulateArgs) opts() emulator.Opts {
	o := emulator.Opts{Model: cyberglove.Model(a.model), Sensors: a.sensors, Right: !a.left, Garbage: a.garbage, Lose: a.lose, Seed: a.seed}
	if a.unplugAt > 0 {
		o.UnplugAt, o.UnplugFor = seconds(a.unplugAt), seconds(a.unplugFor)
	}
	if a.silentAt > 0 {
		o.SilentAt, o.SilentFor = seconds(a.silentAt), seconds(a.silentFor)
	}
	return o
}

// emulateOpenGloves serves an emulated OpenGloves glove: the simulated
// motion, with garbage, silence and the port hung up (its USB unplugged)
// as the flags ask.
func (a *emulateArgs) emulateOpenGloves(ctx context.Context, out io.Writer) error {
	for _, f := range []struct{ flag, why string }{
		{"sensors", "its values are what its lines carry: --splay, --joints and --max choose them"},
		{"left", "its lines say no side: a hand's side is its [[hand]] side in the config"},
		{"lose", "its lines are damaged with --garbage"},
		{"unplug-at", "its USB is unplugged with --hangup-at"},
	} {
		if a.set(f.flag) {
			return fmt.Errorf("%w: --%s: not for an emulated OpenGloves glove (%s)", errUsage, f.flag, f.why)
		}
	}
	if a.source != "sim" {
		return fmt.Errorf("%w: --source: an emulated OpenGloves glove plays the simulated motions (--motion) or the calibration poses (--calibration)", errUsage)
	}
	if a.max != opengloves.MaxESP32 && a.max != opengloves.MaxAVR {
		return fmt.Errorf("%w: --max %d: want %d (an ESP32) or %d (an AVR board)", errUsage, a.max, opengloves.MaxESP32, opengloves.MaxAVR)
	}
	o := emulator.OpenGlovesOpts{Max: a.max, Form: opengloves.Form{Splay: a.splay, Joints: a.joints}, ForceFeedback: a.forceFeedback, Controls: a.controls, Garbage: a.garbage, Seed: a.seed}
	what := "simulated " + a.motion
	if a.poses.calibration != "" {
		if a.set("motion") {
			return fmt.Errorf("%w: --calibration plays the calibration poses: give --motion only without it", errUsage)
		}
		script, err := a.poses.openGloves(out, a.seed, &o)
		if err != nil {
			return err
		}
		go readPoses(input, script)
		what = fmt.Sprintf("calibration poses through %s, noise %g counts; pose names on stdin: %s", userfile.Name(a.poses.calibration), a.poses.noise, strings.Join(script.Names(), ", "))
	} else {
		m := sim.Motion(a.motion)
		if !m.Valid() {
			return fmt.Errorf("%w: --motion %q: want %s", errUsage, a.motion, sim.MotionNames())
		}
		o.Source = func(t time.Duration, s *[layout.Slots]uint16) { sim.Raw(m, t, s) }
	}
	if a.silentAt > 0 {
		o.SilentAt, o.SilentFor = seconds(a.silentAt), seconds(a.silentFor)
	}
	if a.servoLog != "" && !a.forceFeedback {
		return fmt.Errorf("%w: --servo-log: only with --force-feedback (a glove without servos reads no lines)", errUsage)
	}
	var closeStamps, closeServo func() error
	var err error
	if o.OnWrite, closeStamps, err = a.stampWriter(); err != nil {
		return err
	}
	if o.OnServo, closeServo, err = a.servoWriter(); err != nil {
		return errors.Join(err, closeStamps())
	}
	e, err := emulator.NewOpenGloves(o)
	if err != nil {
		return errors.Join(fmt.Errorf("%w: %v", errUsage, err), closeStamps(), closeServo())
	}
	err = emulator.Run(ctx, e, a.link, a.hangup(), func(path string) {
		worked := ""
		if a.controls {
			worked = ", controls worked"
		}
		fmt.Fprintf(out, "emulating an OpenGloves glove (full scale %d, %s%s) on %s", a.max, what, worked, path)
		if a.link != "" {
			fmt.Fprintf(out, " (linked at %s)", userfile.Name(a.link))
		}
		fmt.Fprintln(out)
	})
	err = linkError(a.link, err)
	if a.forceFeedback {
		st := e.Stats()
		fmt.Fprintf(out, "servos: %d lines set them; last values %v; lines held back per finger %v (thumb to little)\n", st.ServoLines, st.Servo, st.Stopped)
	}
	return errors.Join(err, closeStamps(), closeServo())
}

// hangup is the port's hangup the flags ask for.
func (a *emulateArgs) hangup() emulator.Hangup {
	if a.hangupAt > 0 {
		return emulator.Hangup{At: seconds(a.hangupAt), For: seconds(a.hangupFor)}
	}
	return emulator.Hangup{}
}

// setSource sets the emulator's source of sensor values (and, for the
// calibration poses or a recording, its sensor count), and says what it
// is.
func (a *emulateArgs) setSource(o *emulator.Opts, out io.Writer) (string, error) {
	switch {
	case a.poses.calibration != "":
		if a.set("source") || a.set("motion") {
			return "", fmt.Errorf("%w: --calibration plays the calibration poses: give --source and --motion only without it", errUsage)
		}
		script, n, err := a.poses.script(out, a.seed)
		if err != nil {
			return "", err
		}
		if a.set("sensors") && a.sensors != n {
			return "", fmt.Errorf("%w: --sensors %d, but %s is for %d sensors", errUsage, a.sensors, userfile.Name(a.poses.calibration), n)
		}
		o.Source, o.Sensors = script.Source, n
		go readPoses(input, script)
		return fmt.Sprintf("calibration poses through %s, noise %g counts; pose names on stdin: %s", userfile.Name(a.poses.calibration), a.poses.noise, strings.Join(script.Names(), ", ")), nil
	case a.source == "sim":
		m := sim.Motion(a.motion)
		var probe [layout.Slots]uint16
		if err := sim.Raw(m, 0, &probe); err != nil {
			return "", fmt.Errorf("%w: --motion: %v", errUsage, err)
		}
		o.Source = func(t time.Duration, s *[layout.Slots]uint16) { sim.Raw(m, t, s) }
		return "simulated " + a.motion, nil
	}
	src, n, err := recordedSource(a.source)
	if err != nil {
		return "", err
	}
	o.Source, o.Sensors = src, n
	return "recording " + userfile.Name(a.source), nil
}

// stampWriter writes, with --stamps, the time each streamed record is
// written to the file: write is the emulator's OnWrite (nil without
// --stamps); close flushes and closes the file (a no-op without).
func (a *emulateArgs) stampWriter() (write func(time.Time), close func() error, err error) {
	w, close, err := logFile("--stamps", a.stamps, a.force)
	if w == nil {
		return nil, close, err
	}
	var line []byte
	return func(t time.Time) {
		line = strconv.AppendInt(line[:0], t.UnixNano(), 10)
		w.Write(append(line, '\n')) // an error stays in w and is reported by Flush
	}, close, nil
}

// servoWriter writes, with --servo-log, each host line that set the
// servos: when it was read (Unix ns) and the five values. Like
// stampWriter.
func (a *emulateArgs) servoWriter() (write func(time.Time, *[5]int), close func() error, err error) {
	w, close, err := logFile("--servo-log", a.servoLog, a.force)
	if w == nil {
		return nil, close, err
	}
	var line []byte
	return func(t time.Time, v *[5]int) {
		line = strconv.AppendInt(line[:0], t.UnixNano(), 10)
		for _, x := range v {
			line = strconv.AppendInt(append(line, ' '), int64(x), 10)
		}
		w.Write(append(line, '\n')) // an error stays in w and is reported by Flush
	}, close, nil
}

// logFile creates the file a flag names for a log the emulator writes; w
// is nil (and close a no-op) when the flag is empty. An existing file is
// refused unless force: a log is never emptied by mistake. close flushes
// and closes it, its error naming the flag.
func logFile(flag, path string, force bool) (w *bufio.Writer, close func() error, err error) {
	if path == "" {
		return nil, func() error { return nil }, nil
	}
	mode := os.O_WRONLY | os.O_CREATE | os.O_EXCL
	if force {
		mode = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	}
	f, err := os.OpenFile(path, mode, 0o644)
	if errors.Is(err, iofs.ErrExist) {
		return nil, nil, existsError(flag, path)
	} else if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", flag, err)
	}
	w = bufio.NewWriter(f)
	return w, func() error {
		if err := errors.Join(w.Flush(), f.Close()); err != nil {
			return fmt.Errorf("%s: %w", flag, err)
		}
		return nil
	}, nil
}

// linkError is err as the user reads it when --link's path is taken:
// a usage error that says what to do.
func linkError(link string, err error) error {
	if errors.Is(err, emulator.ErrLinkTaken) {
		return fmt.Errorf("%w: --link %s %v: choose another path or remove it", errUsage, userfile.Name(link), emulator.ErrLinkTaken)
	}
	return err
}

// unitName names the emulated unit to the user.
var unitName = map[cyberglove.Model]string{"": "CyberGlove", cyberglove.ModelII: "CyberGlove", cyberglove.ModelIII: "CyberGlove III"}

// recordedSource loads a recording's samples and plays their values in a
// loop by time.
func recordedSource(path string) (emulator.Source, int, error) {
	g, err := replay.Open(path, false)
	if err != nil {
		return nil, 0, err
	}
	h := g.Header()
	g.Close()
	if h.Sensors != 18 && h.Sensors != 22 {
		// A tracker's joint angles, or an OpenGloves glove's 41 values:
		// "0 sensors: CyberGlove units have 18 or 22" said only half.
		return nil, 0, fmt.Errorf("%w: --source %s is a recording of a %s glove (%d sensors): emulate plays a CyberGlove's sensor readings (18 or 22): give a recording of one, or --source sim", errUsage, userfile.Name(path), h.Model, h.Sensors)
	}
	samples, warning, err := replay.ReadSamples(path)
	if err != nil {
		return nil, 0, err
	}
	if warning != nil {
		warn("%s: %v; playing the %d samples before it", userfile.Name(path), warning, len(samples))
	}
	src, err := emulator.LoopSamples(samples, 10*time.Millisecond)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", userfile.Name(path), err)
	}
	return src, samples[0].N, nil
}
