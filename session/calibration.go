package session

import (
	"fmt"

	"github.com/gloved/gloved/handmodel"
)

// storedCalibration is the calibration text a recording carries, and the
// recording it came from.
type storedCalibration struct{ from, text string }

// chooseCalibration returns the calibration for a glove of the given
// sensor count: the named file if there is one, else the one the recording
// stored, else the shipped default. Whichever it is must be for that many
// sensors.
func chooseCalibration(file string, stored storedCalibration, sensors int) (*handmodel.Calibration, error) {
	var c *handmodel.Calibration
	var err error
	switch {
	case file != "":
		c, err = handmodel.LoadCalibration(file)
	case stored.text != "":
		c, err = handmodel.ParseCalibration(stored.from+" (stored calibration)", []byte(stored.text))
	default:
		return handmodel.DefaultCalibration(sensors)
	}
	if err != nil {
		return nil, err
	}
	if c.Sensors != sensors {
		return nil, fmt.Errorf("%s is for %d sensors, the glove has %d", c.Name, c.Sensors, sensors)
	}
	return c, nil
}
