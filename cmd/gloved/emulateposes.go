package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/gloved/gloved/devices/cyberglove/layout"
	"github.com/gloved/gloved/devices/emulator"
	"github.com/gloved/gloved/devices/opengloves"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/internal/userfile"
)

// input is where commands read what the user types: the emulator's pose
// names, the calibration's answers (a variable so that tests can set it).
var input io.Reader = os.Stdin

// posesFlags are emulate's flags for a glove held in the calibration
// poses (handmodel.CalPoses) by a wearer whose glove has a known
// calibration: each pose's readings are that calibration inverted, raw =
// offset + angle/gain, with noise, rounded to the 8-bit range.
type posesFlags struct {
	calibration, pose, file string
	noise                   float64
}

func (p *posesFlags) add(fs *flag.FlagSet) {
	fs.StringVar(&p.calibration, "calibration", "", "play the calibration poses through this (linear) calibration; pose names on stdin switch the pose")
	fs.StringVar(&p.pose, "pose", "flat", "with --calibration: the pose held first ("+handmodel.CalPoseNames()+")")
	fs.StringVar(&p.file, "script", "", `with --calibration: play a script of "pose seconds" lines (the last may hold)`)
	fs.Float64Var(&p.noise, "noise", 0, "with --calibration: standard deviation of the noise on every reading, counts")
}

// scriptFile is what a --script may be: a few lines a pose.
var scriptFile = userfile.Kind{Name: "a script of \"pose seconds\" lines", MaxBytes: 1_000_000}

// script makes the poses' source; it names each pose as it starts on out.
func (p *posesFlags) script(out io.Writer, seed uint64) (*emulator.Script, int, error) {
	cal, err := handmodel.LoadCalibration(p.calibration)
	if err != nil {
		return nil, 0, err
	}
	poses := map[string][layout.Slots]float64{}
	for i := range handmodel.CalPoses {
		var slots [layout.Slots]float64
		if err := cal.Readings(&handmodel.CalPoses[i].Angle, &slots); err != nil {
			return nil, 0, fmt.Errorf("--calibration %s: %w", p.calibration, err)
		}
		poses[handmodel.CalPoses[i].Name] = slots
	}
	s, err := p.play(out, poses, p.noise, seed)
	return s, cal.Sensors, err
}

// openGloves makes an OpenGloves glove's poses: the wearer of --calibration
// (the glove's calibration) holding the pose the script plays, with
// --noise on each reading.
func (p *posesFlags) openGloves(out io.Writer, seed uint64, o *emulator.OpenGlovesOpts) (*emulator.Script, error) {
	cal, err := handmodel.LoadCalibrationFor(p.calibration, opengloves.Layout)
	if err != nil {
		return nil, err
	}
	poses := map[string][layout.Slots]float64{} // the emulator reads the pose itself
	for i := range handmodel.CalPoses {
		poses[handmodel.CalPoses[i].Name] = [layout.Slots]float64{}
	}
	s, err := p.play(out, poses, 0, seed)
	if err != nil {
		return nil, err
	}
	o.Cal, o.Noise = cal, p.noise
	o.Pose = func(t time.Duration) *handmodel.CalPose {
		pose, _ := handmodel.FindCalPose(s.Playing(t)) // the script's poses are CalPoses
		return pose
	}
	return s, nil
}

// play makes the script of poses, each a reading per slot, with noise,
// starting with --pose and playing --script; it names each pose as it
// starts on out.
func (p *posesFlags) play(out io.Writer, poses map[string][layout.Slots]float64, noise float64, seed uint64) (*emulator.Script, error) {
	s, err := emulator.NewScript(poses, p.pose, noise, seed)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	if p.file != "" {
		f, err := userfile.Open(p.file, scriptFile)
		if err != nil {
			return nil, fmt.Errorf("--script: %w", err)
		}
		err = s.Load(p.file, f)
		f.Close()
		if err != nil {
			return nil, err
		}
	}
	s.OnChange = func(t time.Duration, pose string) { fmt.Fprintf(out, "%.2f s: %s\n", t.Seconds(), pose) }
	return s, nil
}

// readPoses queues each line of in, "pose [seconds]", until in ends; a
// bad line is warned of and skipped.
func readPoses(in io.Reader, s *emulator.Script) {
	r := bufio.NewReaderSize(in, maxPoseLine)
	for n := 1; ; n++ {
		line, long, err := r.ReadLine()
		if err != nil {
			return // the end of stdin (or its error): the poses so far hold
		}
		if long { // longer than any step: skipped, to its end
			for long && err == nil {
				_, long, err = r.ReadLine()
			}
			warn("emulate: stdin line %d: longer than %d bytes, no pose: skipped", n, maxPoseLine)
			continue
		}
		st, ok, err := emulator.ParseStep(string(line))
		if err == nil && ok {
			err = s.Play(st)
		}
		if err != nil {
			warn("emulate: stdin line %d: %v", n, err)
		}
	}
}

// maxPoseLine bounds a pose line on stdin: a step is a few dozen bytes.
// A longer line is skipped with a warning, and the lines after it read
// (one over 64 KiB ended the reading, without a word).
const maxPoseLine = 4096
