package session

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/gloved/gloved/devices/replay"
	"github.com/gloved/gloved/handmodel"
)

// Check checks what can be checked of spec without opening its glove: its
// fields; that its skinned hand, if any, builds; that its calibration file loads (and, where the sensor count is
// known, is for that many sensors); that a replay's recording opens and
// holds a sample, with a calibration that fits it; and that the session's recording can be
// written where it is asked for. Errors name the key at fault.
func Check(spec Spec) error {
	if err := spec.Normalize(); err != nil {
		return err
	}
	if spec.Mesh != "" {
		if _, err := handmodel.New(spec.HandParams(true)); err != nil {
			return fmt.Errorf("mesh: %w", err)
		}
	}
	d, err := spec.Driver()
	if err != nil {
		return err
	}
	if d.Replays {
		r, err := replay.Open(spec.Recording, false)
		if err != nil {
			return fmt.Errorf("recording: %w", err)
		}
		defer r.Close()
		if _, err := chooseCalibration(spec.Calibration, stored(r, spec.Recording), r.Header()); err != nil {
			return fmt.Errorf("calibration: %w", err)
		}
		if err := replay.HoldsSamples(spec.Recording); err != nil {
			return fmt.Errorf("recording: %w", err)
		}
		return nil
	}
	if spec.Calibration != "" {
		c, err := handmodel.LoadCalibrationFor(spec.Calibration, d.Layouts...)
		if err != nil {
			return fmt.Errorf("calibration: %w", err)
		}
		n := spec.Sensors
		if n == 0 {
			n = d.Sensors
		}
		if n != 0 && c.Sensors != n {
			return fmt.Errorf("calibration: %s is for %d sensors, the glove has %d", spec.Calibration, c.Sensors, n)
		}
	}
	if spec.Recording != "" {
		if err := checkWritable(spec.Recording); err != nil {
			return fmt.Errorf("recording: %w", err)
		}
	}
	return nil
}

// checkWritable reports why a file could not be created at path.
func checkWritable(path string) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("%s is a directory: name a file in it", path)
	} else if err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file (a pipe or a device): name a file to record to", path)
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("%s: the directory does not exist", path)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s: %s is not a directory", path, dir)
	}
	f, err := os.CreateTemp(dir, ".gloved-check-*")
	if err != nil {
		return fmt.Errorf("%s: cannot write in %s (%v)", path, dir, err)
	}
	f.Close()
	return os.Remove(f.Name())
}
