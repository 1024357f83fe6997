package session

import (
	"fmt"

	"github.com/gloved/gloved/devices/driver"
	"github.com/gloved/gloved/devices/recording"
	"github.com/gloved/gloved/devices/replay"
	"github.com/gloved/gloved/handmodel"
)

// storedCalibration is the calibration text a recording carries, and the
// recording it came from.
type storedCalibration struct{ from, text string }

// stored returns the calibration a replayed recording at path stores
// (none for a live glove, r nil).
func stored(r *replay.Glove, path string) storedCalibration {
	if r == nil {
		return storedCalibration{}
	}
	return storedCalibration{from: path, text: r.Header().Calibration}
}

// chooseCalibration returns the calibration for the glove a recording
// header describes (a replay's: the recorded glove), for its driver's
// layouts: the named file if there is one, else the one the recording
// stored, else the one the driver ships. Whichever it is must be for the
// glove's sensor count.
func chooseCalibration(file string, stored storedCalibration, h recording.Header) (*handmodel.Calibration, error) {
	d, err := driver.Lookup(h.Model)
	if err != nil {
		return nil, fmt.Errorf("a %s glove: %w", h.Model, err)
	}
	var c *handmodel.Calibration
	switch {
	case file != "":
		c, err = handmodel.LoadCalibrationFor(file, d.Layouts...)
	case stored.text != "":
		c, err = handmodel.ParseCalibrationFor(stored.from+" (stored calibration)", []byte(stored.text), d.Layouts...)
	default:
		l, lerr := d.Layout(h.Sensors)
		if lerr != nil {
			return nil, lerr
		}
		return handmodel.DefaultCalibrationFor(l)
	}
	if err != nil {
		return nil, err
	}
	if c.Sensors != h.Sensors {
		return nil, fmt.Errorf("%s is for %d sensors, the glove has %d", c.Name, c.Sensors, h.Sensors)
	}
	return c, nil
}
