package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"strings"
	"time"

	"github.com/gloved/gloved/calibrator"
	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/driver"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/internal/userfile"
	"github.com/gloved/gloved/session"
	"github.com/gloved/gloved/view"
)

// calibrateArgs are `gloved calibrate`'s flags.
type calibrateArgs struct {
	spec        session.Spec
	hold, still float64
	force       bool
	out, viewAt string
}

func runCalibrate(ctx context.Context, args []string, out io.Writer) error {
	a, err := parseCalibrate(args, out)
	if err != nil {
		return err
	}
	// The page is served before the glove opens: an address it cannot
	// serve is said at once, not after the glove's handshake.
	var v *view.Server
	if a.viewAt != "" {
		if v, err = listenView(a.viewAt); err != nil {
			return err
		}
		defer v.Close()
	}
	dest, err := calibrator.CreateOutput(a.out, a.force)
	if errors.Is(err, iofs.ErrExist) {
		return fmt.Errorf("calibrate: %w", existsError("-o", a.out))
	} else if err != nil {
		return err
	}
	defer dest.Abort()
	g, err := session.OpenGlove(a.spec)
	if err != nil {
		return err
	}
	defer g.Close()
	if err := firstSample(ctx, g, a.spec, firstSampleWithin); err != nil {
		return stopped(err, a.out)
	}
	fmt.Fprintf(out, "Calibrating the %d-sensor %s-hand glove on %s: %d poses, each held %.1f s.\n",
		g.Info.Sensors, g.Info.Hand(), a.spec.Port, len(handmodel.CalPoses), a.hold)
	fallback := g.Cal // the driver's shipped calibration: the spec names no file
	ui, page, err := calibrateUI(v, g, fallback, out)
	if err != nil {
		return err
	}
	r, err := calibrator.Run(ctx, g, g.Info, ui, calibrator.Opts{Hold: seconds(a.hold), Still: a.still, Fallback: fallback})
	if err == nil {
		err = write(dest, r, a.out, out)
	}
	if err != nil {
		err = stopped(err, a.out)
	}
	if page != nil {
		tellPage(page, err, a.out)
	}
	return err
}

// parseCalibrate reads and checks `gloved calibrate`'s flags.
func parseCalibrate(args []string, out io.Writer) (calibrateArgs, error) {
	fs := newFlagSet("calibrate", "gloved calibrate --port PATH [--device "+strings.Join(driver.Select(calibrates), "|")+"] [--sensors 18|22] [--side right|left] [--hold S] [--still COUNTS] [--baud B] [--option KEY=VALUE] [--view ADDR] [--force] -o FILE", out)
	port := fs.String("port", "/dev/ttyUSB0", "serial port of the glove's interface unit")
	device := fs.String("device", session.DeviceCyberGlove, "the glove's driver: "+driver.OrList(calibrates))
	sensors := fs.Int("sensors", 0, "18 or 22: the sensor count the glove must report (0: whatever it reports)")
	side := fs.String("side", "", "right or left: the side of a CyberGlove III that answers no queries")
	hold := fs.Float64("hold", calibrator.DefaultHold.Seconds(), "seconds each pose is recorded")
	still := fs.Float64("still", calibrator.DefaultStill, "a hold is still when the middle 90% of every sensor's readings lie within this many counts")
	baud := fs.Int("baud", session.DefaultBaud, "baud rate")
	var options driver.Options
	fs.Var(&options, "option", "KEY=VALUE: one of the driver's own keys (its options table, as the [[hand]] will have it: max=1023 for an OpenGloves AVR board); repeatable")
	force := fs.Bool("force", false, "overwrite the -o file if it exists")
	outPath := fs.String("o", "", "calibration file to write")
	viewAt := fs.String("view", "", `also guide the session on the live page served at this address (127.0.0.1:8080); "off" (as for run): no page`)
	if pos, err := parseInterleaved(fs, args); err != nil {
		return calibrateArgs{}, err
	} else if len(pos) > 0 {
		return calibrateArgs{}, fmt.Errorf("%w: unexpected argument %q", errUsage, pos[0])
	}
	if *viewAt == "off" {
		*viewAt = ""
	}
	a := calibrateArgs{spec: session.Spec{Device: *device, Port: *port, Baud: *baud, Sensors: *sensors, Side: *side, Options: options},
		hold: *hold, still: *still, force: *force, out: *outPath, viewAt: *viewAt}
	return a, a.check(flagsWritten(fs))
}

// check checks the flags, each error naming its flag; written says which
// were given, so that a zero given (--baud 0) is refused, not taken for
// the default.
func (a *calibrateArgs) check(written func(flag string) bool) error {
	d, err := a.spec.Driver()
	if err == nil && a.spec.Sensors != 0 {
		_, err = d.Layout(a.spec.Sensors)
	}
	switch {
	case a.out == "":
		return fmt.Errorf("%w: calibrate needs -o FILE, the calibration to write", errUsage)
	case d == nil || !d.Calibrate:
		return fmt.Errorf("%w: --device %q: want %s", errUsage, a.spec.Device, driver.OrList(calibrates))
	case err != nil:
		return fmt.Errorf("%w: --sensors %d: want %s", errUsage, a.spec.Sensors, d.SensorCounts())
	case !(a.hold >= 0.1 && a.hold <= 60):
		return fmt.Errorf("%w: --hold %v: want 0.1 to 60 seconds", errUsage, a.hold)
	case !(a.still > 0):
		return fmt.Errorf("%w: --still %v: want a positive number of counts", errUsage, a.still)
	case a.spec.Side != "" && a.spec.Device == "cyberglove":
		// It was taken and ignored: the unit's own answer decides.
		return fmt.Errorf("%w: --side %s: a CyberGlove I/II says its side itself (its ?R query): leave --side out", errUsage, a.spec.Side)
	}
	return flagSpec(a.spec.NormalizeWritten(written))
}

// calibrates selects the drivers `gloved calibrate` can calibrate.
func calibrates(d *driver.Driver) bool { return d.Calibrate }

// calibrateUI is the terminal's dialogue, and with v (the live page's
// server, nil: none) also the page's.
func calibrateUI(v *view.Server, g *session.Glove, fallback *handmodel.Calibration, out io.Writer) (ui calibrator.UI, page *calibrator.Page, err error) {
	ui = calibrator.NewTerminal(input, out)
	if v == nil {
		return ui, nil, nil
	}
	if page, err = calibrator.NewPage(v, g.Info, fallback); err != nil {
		return nil, nil, err
	}
	fmt.Fprintf(out, "The calibration is also on the live page at %s: answer here or there.\n", v.URL())
	return calibrator.Both(ui, page), page, nil
}

// tellPage says on the live page how the session ended.
func tellPage(page *calibrator.Page, err error, path string) {
	if err != nil {
		page.Done(err.Error(), false)
	} else {
		page.Done("Wrote "+path+".", true)
	}
}

// write writes the confirmed calibration and says how to use it.
func write(dest *calibrator.Output, r *calibrator.Result, path string, out io.Writer) error {
	text, err := r.File()
	if err != nil {
		return err
	}
	if err := dest.Commit(text); err != nil {
		// The session is not lost with the file (a full disk, -o made a
		// directory meanwhile): the calibration is printed to be saved
		// by hand.
		fmt.Fprintf(out, "\nThe calibration could not be written to %s. Here it is, to save by hand into a file:\n%s\n%s%s\n", userfile.Name(path), scissors, text, scissors)
		return fmt.Errorf("calibrate: %w: the calibration is printed above, between the %s lines: save it into a file", err, scissors)
	}
	fallbacks := 0
	for _, f := range r.Fits {
		if f.Fallback != "" {
			fallbacks++
		}
	}
	fmt.Fprintf(out, "Wrote %s: %d sensors, %d fitted, %d kept the default gain. Use it with --calibration %s, or calibration = %q in a [[hand]].\n",
		path, len(r.Fits), len(r.Fits)-fallbacks, fallbacks, path, path)
	return nil
}

// scissors marks the calibration printed when its file cannot be
// written.
const scissors = "----- 8< -----"

// stopped says why a session ended before anything was written.
func stopped(err error, path string) error {
	why := ""
	switch {
	case errors.Is(err, calibrator.ErrQuit):
		why = "quit"
	case errors.Is(err, io.EOF):
		why = "the input ended before the calibration was confirmed"
	case errors.Is(err, context.Canceled):
		why = "interrupted"
	default:
		return err
	}
	return fmt.Errorf("calibrate: %s; nothing written to %s", why, userfile.Name(path))
}

// firstSampleWithin is how long calibrate waits for the glove's first
// sample before it starts the session.
const firstSampleWithin = 3 * time.Second

// firstSample reads until the glove's first sample, or fails once within
// has passed without one (or ctx ended: a signal). A driver that opens
// without a word from the glove (an OpenGloves glove's), on a port where
// no such glove streams, started a session of poses never to be held.
func firstSample(ctx context.Context, g *session.Glove, spec session.Spec, within time.Duration) error {
	var s devices.Sample
	deadline := time.Now().Add(within)
	for {
		if ctx.Err() != nil {
			return context.Canceled // a signal: stopped says so
		}
		err := g.Read(&s)
		if err == nil {
			return nil
		}
		if !devices.Transient(err) {
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("calibrate: no sample from %s within %v (%v): is a glove of --device %s there, and streaming? (gloved ports --probe tells which glove is on which port)", userfile.Name(spec.Port), within, err, spec.Device)
		}
	}
}
