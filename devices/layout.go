package devices

import (
	"errors"
	"fmt"
	"math"
)

// Layout is what a glove's samples carry, as its driver declares it: the
// sensors whose readings fill Sample.Raw and the joint angles that fill
// Sample.Angles, each in order, named, and mapped onto the hand's joints;
// the readings' resolution; and the calibration the driver ships for
// them. A driver has one layout per form its samples take (a CyberGlove
// has two, 18 and 22 sensors).
//
// The joints are the hand model's, by name (handmodel.Joint's String:
// "index_mcp", "little_abduction", ...), so that a driver says how its
// sensors move the hand without importing the hand model; the hand model
// resolves the names when it calibrates the glove.
type Layout struct {
	Name    string    // e.g. "cyberglove-22"
	Sensors []Channel // Sample.Raw, in order
	Angles  []Channel // Sample.Angles, in order (radians)
	Bits    uint8     // the readings' resolution (Sample.Bits)
	// Saturates: a reading at either end of the range says only that the
	// angle is somewhere beyond it (a CyberGlove's sensors), so a
	// calibration leaves it out. Without, the ends are readings like any
	// other: an OpenGloves firmware maps each sensor's own range onto the
	// full scale, its ends the open and the closed hand.
	Saturates bool
	// Calibration is the calibration the driver ships for the sensors (the
	// TOML handmodel.ParseCalibration reads; every sensor named, in
	// order), and CalibrationName names it in messages.
	Calibration     []byte
	CalibrationName string
}

// Channel is one sensor (or measured angle) of a layout.
type Channel struct {
	Name string
	// Joints are the hand joints the channel moves: each by Gain radians
	// per radian of the channel's calibrated angle. A joint that no
	// channel moves stays at 0; one that several move is their sum, in
	// the order of the layout's channels.
	Joints []Share
	// Control says the channel is one of the glove's own controls (a
	// joystick axis, a trigger, a button), which the daemon sends on OSC;
	// NotAControl for a sensor of the hand.
	Control Control
}

// Share is a channel's part in one joint.
type Share struct {
	Joint string  // the hand model's joint name
	Gain  float64 // radians of the joint per radian of the channel
}

// Moves returns a channel's joint list for one joint moved one to one.
func Moves(joint string) []Share { return []Share{{Joint: joint, Gain: 1}} }

// Check reports what is wrong with a layout: no name, too many or too few
// channels, a channel without a name or named twice, a share that is not
// a finite number, a resolution outside 1..16 bits, a control that is
// not a sensor, moves a joint, is unknown or comes twice. (That its
// joints are the hand model's is the hand model's to check.)
func (l *Layout) Check() error {
	if l.Name == "" {
		return errors.New("devices: a layout needs a name")
	}
	if len(l.Sensors) > MaxReadings || len(l.Angles) > MaxAngles || len(l.Sensors)+len(l.Angles) == 0 {
		return fmt.Errorf("devices: layout %s: %d sensors and %d angles: want 1 to %d and 0 to %d, at least one channel", l.Name, len(l.Sensors), len(l.Angles), MaxReadings, MaxAngles)
	}
	if l.Bits < 1 || l.Bits > 16 {
		return fmt.Errorf("devices: layout %s: %d bits: want 1 to 16", l.Name, l.Bits)
	}
	for _, c := range l.Angles {
		if c.Control != NotAControl {
			return fmt.Errorf("devices: layout %s: channel %s: a control is a sensor reading, not an angle", l.Name, c.Name)
		}
	}
	var controls [numControls]bool
	for _, c := range l.Sensors {
		switch {
		case c.Control == NotAControl:
		case c.Control >= numControls || controls[c.Control] || len(c.Joints) > 0:
			return fmt.Errorf("devices: layout %s: channel %s: control %d: a control is one of devices' own, once, and moves no joint", l.Name, c.Name, c.Control)
		default:
			controls[c.Control] = true
		}
	}
	seen := map[string]bool{}
	for _, c := range append(append([]Channel(nil), l.Sensors...), l.Angles...) {
		if c.Name == "" || seen[c.Name] {
			return fmt.Errorf("devices: layout %s: channel %q: every channel needs a name of its own", l.Name, c.Name)
		}
		seen[c.Name] = true
		for _, s := range c.Joints {
			if math.IsNaN(s.Gain) || math.IsInf(s.Gain, 0) {
				return fmt.Errorf("devices: layout %s: channel %s: joint %s's gain is %v", l.Name, c.Name, s.Joint, s.Gain)
			}
		}
	}
	return nil
}

// Controls returns the channels of l's sensors that are controls, each
// with its control, in the sensors' order; none for a glove without.
func (l *Layout) Controls() (channels []int, controls []Control) {
	for i, c := range l.Sensors {
		if c.Control != NotAControl {
			channels, controls = append(channels, i), append(controls, c.Control)
		}
	}
	return channels, controls
}
