package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"

	"github.com/gloved/gloved/calibrator"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/session"
)

func runCalibrate(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("calibrate", "gloved calibrate --port PATH [--device cyberglove|cyberglove3] [--sensors 18|22] [--side right|left] [--hold S] [--still COUNTS] [--baud B] [--view ADDR] [--force] -o FILE", out)
	port := fs.String("port", "/dev/ttyUSB0", "serial port of the glove's interface unit")
	device := fs.String("device", session.DeviceCyberGlove, "cyberglove (I/II) or cyberglove3 (III)")
	sensors := fs.Int("sensors", 0, "18 or 22: the sensor count the glove must report (0: whatever it reports)")
	side := fs.String("side", "", "right or left: the side of a CyberGlove III that answers no queries")
	hold := fs.Float64("hold", calibrator.DefaultHold.Seconds(), "seconds each pose is recorded")
	still := fs.Float64("still", calibrator.DefaultStill, "a hold is still when the middle 90% of every sensor's readings lie within this many counts")
	baud := fs.Int("baud", session.DefaultBaud, "baud rate")
	force := fs.Bool("force", false, "overwrite the -o file if it exists")
	outPath := fs.String("o", "", "calibration file to write")
	viewAt := fs.String("view", "", "also guide the session on the live page served at this address (127.0.0.1:8080)")
	if pos, err := parseInterleaved(fs, args); err != nil {
		return err
	} else if len(pos) > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, pos[0])
	}
	switch {
	case *outPath == "":
		return fmt.Errorf("%w: calibrate needs -o FILE, the calibration to write", errUsage)
	case *device != session.DeviceCyberGlove && *device != session.DeviceCyberGlove3:
		return fmt.Errorf("%w: --device %q: want cyberglove or cyberglove3", errUsage, *device)
	case *sensors != 0 && *sensors != 18 && *sensors != 22:
		return fmt.Errorf("%w: --sensors %d: want 18 or 22", errUsage, *sensors)
	case !(*hold >= 0.1 && *hold <= 60):
		return fmt.Errorf("%w: --hold %v: want 0.1 to 60 seconds", errUsage, *hold)
	case !(*still > 0):
		return fmt.Errorf("%w: --still %v: want a positive number of counts", errUsage, *still)
	}
	dest, err := calibrator.CreateOutput(*outPath, *force)
	if errors.Is(err, iofs.ErrExist) {
		return fmt.Errorf("calibrate: -o %s exists: give --force to overwrite it", *outPath)
	} else if err != nil {
		return err
	}
	defer dest.Abort()
	spec := session.Spec{Device: *device, Port: *port, Baud: *baud, Sensors: *sensors, Side: *side}
	if err := spec.Normalize(); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	g, err := session.OpenGlove(spec)
	if err != nil {
		return err
	}
	defer g.Close()
	fmt.Fprintf(out, "Calibrating the %d-sensor %s-hand glove on %s: %d poses, each held %.1f s.\n",
		g.Info.Sensors, g.Info.Hand(), *port, len(handmodel.CalPoses), *hold)
	fallback, err := handmodel.DefaultCalibration(g.Info.Sensors)
	if err != nil {
		return fmt.Errorf("calibrate: %w", err)
	}
	o := calibrator.Opts{Hold: seconds(*hold), Still: *still, Fallback: fallback}
	var ui calibrator.UI = calibrator.NewTerminal(input, out)
	var page *calibrator.Page
	if *viewAt != "" {
		v, err := listenView(*viewAt)
		if err != nil {
			return err
		}
		defer v.Close()
		if page, err = calibrator.NewPage(v, g.Info, fallback); err != nil {
			return err
		}
		ui = calibrator.Both(ui, page)
		fmt.Fprintf(out, "The calibration is also on the live page at %s: answer here or there.\n", v.URL())
	}
	r, err := calibrator.Run(ctx, g, g.Info, ui, o)
	if err == nil {
		err = write(dest, r, *outPath, out)
	}
	if page != nil {
		if err != nil {
			page.Done(stopped(err, *outPath).Error(), false)
		} else {
			page.Done("Wrote "+*outPath+".", true)
		}
	}
	if err != nil {
		return stopped(err, *outPath)
	}
	return nil
}

// write writes the confirmed calibration and says how to use it.
func write(dest *calibrator.Output, r *calibrator.Result, path string, out io.Writer) error {
	text, err := r.File()
	if err != nil {
		return err
	}
	if err := dest.Commit(text); err != nil {
		return err
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
	return fmt.Errorf("calibrate: %s; nothing written to %s", why, path)
}
