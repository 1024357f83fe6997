package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/emulator"
	"github.com/gloved/gloved/devices/recording"
	"github.com/gloved/gloved/devices/sim"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/session"
)

// seconds parses a duration given in seconds (a float) for flags.
func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

func runEmulate(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("emulate", "gloved emulate [--sensors 18|22] [--source sim|RECORDING] [--motion grasp|tap|pinch] [--left] [--link PATH] [--garbage RATE] [--unplug-at S] [--unplug-for S] [--hangup-at S] [--hangup-for S] [--seed N]", out)
	sensors := fs.Int("sensors", 22, "sensor count: 18 or 22")
	source := fs.String("source", "sim", `"sim", or a recording to play (looped)`)
	motion := fs.String("motion", "grasp", "simulated motion: grasp, tap or pinch")
	left := fs.Bool("left", false, "report a left-hand glove")
	link := fs.String("link", "", "also make PATH a symlink to the pty, kept pointing at it across hangups")
	garbage := fs.Float64("garbage", 0, "probability per record of a burst of garbage bytes")
	unplugAt := fs.Float64("unplug-at", 0, "seconds after start at which the glove is unplugged from the unit")
	unplugFor := fs.Float64("unplug-for", 2, "seconds the glove stays unplugged (with --unplug-at)")
	hangupAt := fs.Float64("hangup-at", 0, "seconds after start at which the port hangs up (as a USB unplug)")
	hangupFor := fs.Float64("hangup-for", 1, "seconds before the port comes back (with --hangup-at)")
	seed := fs.Uint64("seed", 1, "seed of the fault injection")
	if pos, err := parseInterleaved(fs, args); err != nil {
		return err
	} else if len(pos) > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, pos[0])
	}
	o := emulator.Opts{Sensors: *sensors, Right: !*left, Garbage: *garbage, Seed: *seed}
	if *unplugAt > 0 {
		o.UnplugAt, o.UnplugFor = seconds(*unplugAt), seconds(*unplugFor)
	}
	what := "simulated " + *motion
	if *source == "sim" {
		m := sim.Motion(*motion)
		var probe [devices.MaxSensors]uint16
		if err := sim.Raw(m, 0, &probe); err != nil {
			return fmt.Errorf("%w: --motion: %v", errUsage, err)
		}
		o.Source = func(t time.Duration, s *[devices.MaxSensors]uint16) { sim.Raw(m, t, s) }
	} else {
		src, n, err := recordedSource(*source)
		if err != nil {
			return err
		}
		o.Source, o.Sensors, what = src, n, "recording "+*source
	}
	e, err := emulator.New(o)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	var h emulator.Hangup
	if *hangupAt > 0 {
		h = emulator.Hangup{At: seconds(*hangupAt), For: seconds(*hangupFor)}
	}
	hand := map[bool]string{true: "left", false: "right"}[*left]
	return emulator.Run(ctx, e, *link, h, func(path string) {
		fmt.Fprintf(out, "emulating a %d-sensor %s-hand CyberGlove (%s) on %s", o.Sensors, hand, what, path)
		if *link != "" {
			fmt.Fprintf(out, " (linked at %s)", *link)
		}
		fmt.Fprintln(out)
	})
}

// recordedSource loads a recording's samples and plays their values in a
// loop by time.
func recordedSource(path string) (func(time.Duration, *[devices.MaxSensors]uint16), int, error) {
	r, err := recording.OpenReplay(path, false)
	if err != nil {
		return nil, 0, err
	}
	var samples []devices.Sample
	var s devices.Sample
	for {
		err := r.Read(&s)
		if errors.Is(err, devices.ErrEnd) {
			break
		}
		if err == nil {
			samples = append(samples, s)
		}
	}
	if w := r.Warning(); w != nil {
		warn("%s: %v; playing the %d samples before it", path, w, len(samples))
	}
	if len(samples) == 0 {
		return nil, 0, fmt.Errorf("%s: no samples to play", path)
	}
	n := samples[0].N
	span := samples[len(samples)-1].Time + 10*time.Millisecond
	return func(t time.Duration, slots *[devices.MaxSensors]uint16) {
		t %= span
		i := 0
		for i+1 < len(samples) && samples[i+1].Time <= t {
			i++
		}
		*slots = [devices.MaxSensors]uint16{}
		if n == 22 {
			copy(slots[:], samples[i].Raw[:22])
			return
		}
		for k, slot := range devices.Sensors18 {
			slots[slot] = samples[i].Raw[k]
		}
	}, n, nil
}

func runRecord(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("record", "gloved record --device cyberglove|sim [--port PATH] [--sensors N] [--baud B] [--rate HZ] [--poll] [--motion M] [--calibration FILE] [--wrist POSE] --seconds S -o FILE", out)
	device := fs.String("device", "cyberglove", "cyberglove or sim")
	port := fs.String("port", "/dev/ttyUSB0", "serial port of the glove's interface unit")
	sensors := fs.Int("sensors", 0, "18 or 22 (0: ask the unit; the simulator defaults to 22)")
	baud := fs.Int("baud", 115200, "baud rate")
	rate := fs.Float64("rate", 100, "samples per second when streaming")
	poll := fs.Bool("poll", false, "poll each record with G instead of streaming")
	motion := fs.String("motion", "grasp", "the simulator's motion: grasp, tap or pinch")
	calib := fs.String("calibration", "", "calibration file to store with the recording (default: the shipped one for the sensor count)")
	wrist := fs.String("wrist", "1 0 0 0 0 0 0", "fixed wrist pose to store: qw qx qy qz tx ty tz")
	secs := fs.Float64("seconds", 0, "how long to record")
	outPath := fs.String("o", "", "recording file to write")
	if pos, err := parseInterleaved(fs, args); err != nil {
		return err
	} else if len(pos) > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, pos[0])
	}
	if *outPath == "" || !(*secs > 0) {
		return fmt.Errorf("%w: record needs --seconds S (> 0) and -o FILE", errUsage)
	}
	wristPose, err := parsePoseValues(*wrist)
	if err != nil {
		return fmt.Errorf("%w: --wrist: %v", errUsage, err)
	}
	if !(*rate > 1 && *rate <= 500) {
		return fmt.Errorf("%w: --rate %v: want 1 < rate <= 500", errUsage, *rate)
	}
	spec := session.Spec{Device: *device, Port: *port, Sensors: *sensors, Baud: *baud, Poll: *poll, Motion: *motion,
		Calibration: *calib, Recording: *outPath, Wrist: wristPose[:], Period: time.Duration(float64(time.Second) / *rate)}
	if *device != session.DeviceCyberGlove && *device != session.DeviceSim {
		return fmt.Errorf("%w: --device %q: want cyberglove or sim", errUsage, *device)
	}
	if err := spec.Normalize(); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	g, err := session.OpenGlove(spec)
	if err != nil {
		return err
	}
	samples, transient, err := recordFor(ctx, g, seconds(*secs))
	if cerr := g.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "recorded %d samples in %.1f s to %s (%d-sensor %s glove)", samples, *secs, *outPath, g.Info.Sensors, g.Info.Hand())
	if fc, ok := g.Device().(devices.FaultCounter); ok {
		fmt.Fprintf(out, "; faults %+v", fc.Faults())
	}
	if transient > 0 {
		fmt.Fprintf(out, "; %d reads without a sample", transient)
	}
	fmt.Fprintln(out)
	return nil
}

// recordFor reads the glove for d, or until ctx ends, counting samples and
// reads without one; it fails if the recording does.
func recordFor(ctx context.Context, g *session.Glove, d time.Duration) (samples, transient int, err error) {
	deadline := time.Now().Add(d)
	var s devices.Sample
	for time.Now().Before(deadline) && ctx.Err() == nil {
		err := g.Read(&s)
		switch {
		case err == nil:
			samples++
		case devices.Transient(err):
			transient++
		default:
			return samples, transient, err
		}
		if err := g.RecordingFailed(); err != nil {
			return samples, transient, err
		}
	}
	return samples, transient, nil
}

type dumpLine struct {
	T      float64   `json:"t"`
	Seq    uint64    `json:"seq"`
	Raw    []uint16  `json:"raw"`
	Angles []float64 `json:"angles"`
}

func runDump(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("dump", "gloved dump FILE [--calibration FILE]", out)
	calib := fs.String("calibration", "", "calibration to apply instead of the recording's own")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: dump takes one recording file", errUsage)
	}
	g, err := session.OpenGlove(session.Spec{Device: session.DeviceReplay, Recording: pos[0], Calibration: *calib, Speed: session.SpeedMax})
	if err != nil {
		return err
	}
	defer g.Close()
	cal := g.Cal
	enc := json.NewEncoder(out)
	var s devices.Sample
	var q handmodel.Angles
	line := dumpLine{Angles: make([]float64, handmodel.NumJoints)}
	for ctx.Err() == nil {
		err := g.Read(&s)
		if errors.Is(err, devices.ErrEnd) {
			break
		}
		if devices.Transient(err) {
			continue // a recorded glove error tail: no sample
		}
		if err != nil {
			return err
		}
		if err := cal.Angles(&s, &handmodel.DefaultLimits, &q); err != nil {
			return err
		}
		line.T, line.Seq, line.Raw = s.Time.Seconds(), s.Seq, s.Sensors()
		for j := range q {
			line.Angles[j] = round6(q[j])
		}
		if err := enc.Encode(&line); err != nil {
			return err
		}
	}
	if w := g.Warning(); w != nil {
		warn("%s: %v; dumped the samples before it", pos[0], w)
	}
	return nil
}

func round6(x float64) float64 {
	const k = 1e6
	if x >= 0 {
		return float64(int64(x*k+0.5)) / k
	}
	return -float64(int64(-x*k+0.5)) / k
}
