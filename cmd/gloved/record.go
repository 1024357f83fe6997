package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/driver"
	"github.com/gloved/gloved/devices/replay"
	"github.com/gloved/gloved/devices/sim"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/internal/userfile"
	"github.com/gloved/gloved/session"
)

func runRecord(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("record", "gloved record --device "+strings.Join(driver.Select((*driver.Driver).Records), "|")+" [--port PATH] [--sensors N] [--side right|left] [--baud B] [--rate HZ] [--poll] [--motion M] [--option KEY=VALUE] [--calibration FILE] [--wrist-pose POSE] --seconds S -o FILE", out)
	device := fs.String("device", session.DeviceCyberGlove, "the glove's driver: "+driver.OrList((*driver.Driver).Records))
	port := fs.String("port", "/dev/ttyUSB0", "serial port of the glove's interface unit")
	sensors := fs.Int("sensors", 0, "the glove's sensor count, 18 or 22 for a CyberGlove (0: ask the unit; the simulator defaults to 22)")
	side := fs.String("side", "", "right or left: the simulator's hand, or a CyberGlove III's that answers no queries")
	baud := fs.Int("baud", 115200, "baud rate")
	rate := fs.Float64("rate", 100, "samples per second when streaming (a cyberglove3 streams at its own 90)")
	poll := fs.Bool("poll", false, "poll each record with G instead of streaming (cyberglove only)")
	motion := fs.String("motion", "grasp", "the simulator's motion: "+sim.MotionNames())
	calib := fs.String("calibration", "", "calibration file to store with the recording (default: the shipped one for the sensor count)")
	wrist := addPoseFlag(fs, "wrist-pose", "wrist", "fixed wrist pose to store (default: the identity)")
	var options driver.Options
	fs.Var(&options, "option", "KEY=VALUE: one of the driver's own keys (its options table); repeatable")
	secs := fs.Float64("seconds", 0, "how long to record")
	outPath := fs.String("o", "", "recording file to write")
	if pos, err := parseInterleaved(fs, args); err != nil {
		return err
	} else if len(pos) > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, pos[0])
	}
	// At most a billion seconds (some 31 years): more would overflow a
	// duration and record nothing.
	if *outPath == "" || !(*secs > 0 && *secs <= 1e9) {
		return fmt.Errorf("%w: record needs --seconds S (0 < S <= 1e9) and -o FILE", errUsage)
	}
	if err := notAnInput("-o", *outPath, []string{*outPath}, []inputFile{{"--calibration", *calib}}); err != nil {
		return err
	}
	wristPose, err := wrist.pose()
	if err != nil {
		return err
	}
	if wristPose == nil {
		wristPose = session.PoseValues(geom.Identity())
	}
	if !(*rate > 1 && *rate <= 500) {
		return fmt.Errorf("%w: --rate %v: want 1 < rate <= 500", errUsage, *rate)
	}
	// A recording shorter than one sample period would hold none, a file
	// every reader refuses.
	if period := 1 / *rate; *secs < period {
		return fmt.Errorf("%w: --seconds %v: shorter than one sample period (%v s at --rate %v): want at least %v", errUsage, *secs, period, *rate, period)
	}
	spec := session.Spec{Device: *device, Port: *port, Sensors: *sensors, Side: *side, Baud: *baud, Poll: *poll, Motion: *motion,
		Options: options, Calibration: *calib, Recording: *outPath, Wrist: wristPose}
	if flagSet(fs, "rate") {
		spec.Period = time.Duration(float64(time.Second) / *rate)
	}
	if d, err := spec.Driver(); err != nil || !d.Records() {
		return fmt.Errorf("%w: --device %q: want %s", errUsage, *device, driver.OrList((*driver.Driver).Records))
	}
	if err := flagSpec(spec.NormalizeWritten(flagsWritten(fs))); err != nil {
		return err
	}
	g, err := session.OpenGlove(spec)
	if err != nil {
		return err
	}
	tally, err := recordFor(ctx, g, seconds(*secs))
	if cerr := g.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		if rerr := g.RecordingFailed(); rerr != nil { // one that never started, when nothing was read
			err = recordingStoppedError{rerr}
		}
	}
	// Where the file is: another session recording to the same path
	// meanwhile kept it aside, and the path is that one's file now.
	to := g.RecordedTo()
	if to == "" {
		to = *outPath
	}
	if tally.samples == 0 {
		return recordedNothing(to, tally, err)
	}
	var stopped recordingStoppedError
	if errors.As(err, &stopped) {
		return recordingKept(to, stopped.err)
	}
	if err != nil {
		return err
	}
	if tally.interrupted {
		fmt.Fprintf(out, "interrupted after %.1f s: recorded %d samples", tally.took.Seconds(), tally.samples)
	} else {
		fmt.Fprintf(out, "recorded %d samples in %.1f s", tally.samples, tally.took.Seconds())
	}
	if g.Info.Sensors > 0 {
		fmt.Fprintf(out, " to %s (%d-sensor %s glove)", userfile.Name(to), g.Info.Sensors, g.Info.Hand())
	} else { // a tracker, or a glove that measures joint angles itself
		fmt.Fprintf(out, " to %s (%s hand, joint angles)", userfile.Name(to), g.Info.Hand())
	}
	if to != *outPath {
		fmt.Fprintf(out, " (another session recording to %s meanwhile kept this one aside)", userfile.Name(*outPath))
	}
	if fc, ok := g.Device().(devices.FaultCounter); ok {
		fmt.Fprintf(out, "; faults: %s", faultWords(fc.Faults()))
	}
	if tally.transient > 0 {
		fmt.Fprintf(out, "; %d reads without a sample", tally.transient)
	}
	fmt.Fprintln(out)
	return nil
}

// faultWords says a device's fault counts in words, those that are not
// zero ("3 bad frames, 1 resync"), or "none".
func faultWords(f devices.Faults) string {
	var words []string
	for _, c := range []struct {
		n           uint64
		one, plural string
	}{
		{f.BadFrames, "bad frame", "bad frames"},
		{f.Resyncs, "resync", "resyncs"},
		{f.SkippedBytes, "skipped byte", "skipped bytes"},
		{f.ErrorTails, "error tail", "error tails"},
		{f.NoGlove, "glove-unplugged tail", "glove-unplugged tails"},
		{f.Reconnects, "reconnect", "reconnects"},
		{f.OpenFailures, "failed open", "failed opens"},
		{f.Timeouts, "timeout", "timeouts"},
		{f.OutOfRange, "value out of range", "values out of range"},
		{f.UnknownKeys, "unknown key", "unknown keys"},
		{f.DroppedReplies, "dropped reply", "dropped replies"},
		{f.Denied, "denied datagram", "denied datagrams"},
	} {
		switch {
		case c.n == 1:
			words = append(words, "1 "+c.one)
		case c.n > 1:
			words = append(words, fmt.Sprintf("%d %s", c.n, c.plural))
		}
	}
	if len(words) == 0 {
		return "none"
	}
	return strings.Join(words, ", ")
}

// recordedNothing is the error of a recording that ended without a sample,
// for whatever reason (err, if any): its file, a header that every
// reader refuses, is removed. Only a recording without samples is
// removed: the recorder moved any earlier file at path aside, and a path
// it could not record to is left as it is.
func recordedNothing(path string, tally recordTally, err error) error {
	removed := ""
	var none *replay.NoSamplesError
	if errors.As(replay.HoldsSamples(path), &none) && os.Remove(path) == nil {
		removed = ": removed " + userfile.Name(path)
	}
	switch {
	case err != nil:
		return fmt.Errorf("%w (no sample recorded%s)", err, removed)
	case tally.interrupted:
		return fmt.Errorf("record: interrupted after %.1f s, before the first sample%s", tally.took.Seconds(), removed)
	}
	return fmt.Errorf("record: no sample in %.1f s%s: is the glove streaming? record for longer", tally.took.Seconds(), removed)
}

// recordingStoppedError is a recording that stopped, its file failing
// (a full disk), while the glove went on.
type recordingStoppedError struct{ err error }

func (e recordingStoppedError) Error() string { return e.err.Error() }
func (e recordingStoppedError) Unwrap() error { return e.err }

// recordingKept is the error of a recording at path that stopped (err,
// the session's "recording PATH stopped: ...") after some samples: what
// the file kept, which replays (the recorder cut off a record left
// short), and what to do; a file that kept no sample is as one that
// recorded none. A full disk is said in its words.
func recordingKept(path string, err error) error {
	samples, _, rerr := replay.ReadSamples(path)
	if rerr != nil && replay.HoldsSamples(path) == nil {
		return fmt.Errorf("%w (what %s kept could not be read again to count it: %v)", err, userfile.Name(path), rerr)
	}
	if rerr != nil || len(samples) == 0 {
		return recordedNothing(path, recordTally{}, err)
	}
	kept := fmt.Sprintf("%d samples, %.1f s, are in it and replay", len(samples), samples[len(samples)-1].Time.Seconds())
	switch {
	case errors.Is(err, syscall.ENOSPC):
		return fmt.Errorf("recording %s stopped: no space left on device (%s): free some space and record again", userfile.Name(path), kept)
	case errors.Is(err, syscall.EDQUOT):
		return fmt.Errorf("recording %s stopped: disk quota exceeded (%s): free some space and record again", userfile.Name(path), kept)
	}
	return fmt.Errorf("%w (%s)", err, kept)
}

// recordTally is what recordFor read: samples and reads without one, for
// how long (measured), and whether ctx ended it first.
type recordTally struct {
	samples, transient int
	took               time.Duration
	interrupted        bool
}

// recordFor reads the glove for d, or until ctx ends, counting samples and
// reads without one; it fails if the recording does.
func recordFor(ctx context.Context, g *session.Glove, d time.Duration) (recordTally, error) {
	start := time.Now()
	deadline := start.Add(d)
	var tally recordTally
	var s devices.Sample
	for time.Now().Before(deadline) && ctx.Err() == nil {
		err := g.Read(&s)
		switch {
		case err == nil:
			tally.samples++
		case devices.Transient(err):
			tally.transient++
		default:
			return tally, err
		}
		if err := g.RecordingFailed(); err != nil {
			return tally, recordingStoppedError{err}
		}
	}
	tally.took, tally.interrupted = time.Since(start), ctx.Err() != nil
	return tally, nil
}
