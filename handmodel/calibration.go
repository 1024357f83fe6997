package handmodel

import (
	"fmt"
	"os"
	"sort"

	"github.com/gloved/gloved/configs"
	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/geom"
)

// SensorNames22 names the 22 sensors in the glove's order; an 18-sensor
// glove has the same list without the four DIP sensors.
var SensorNames22 = [22]string{
	"thumb_roll", "thumb_mcp", "thumb_ip", "thumb_abduction",
	"index_mcp", "index_pip", "index_dip",
	"middle_mcp", "middle_pip", "middle_dip", "middle_index_abduction",
	"ring_mcp", "ring_pip", "ring_dip", "ring_middle_abduction",
	"little_mcp", "little_pip", "little_dip", "little_ring_abduction",
	"palm_arch", "wrist_pitch", "wrist_yaw",
}

// SensorName returns the name of sensor i of an n-sensor glove.
func SensorName(n, i int) string {
	if n == 18 {
		return SensorNames22[devices.Sensors18[i]]
	}
	return SensorNames22[i]
}

// SensorCal turns one raw value into radians.
type SensorCal struct {
	Name   string       `toml:"name"`
	Offset float64      `toml:"offset"`
	Gain   float64      `toml:"gain"`
	Table  [][2]float64 `toml:"table"`
}

// Angle returns the sensor's angle for a raw value.
func (c *SensorCal) Angle(raw float64) float64 {
	t := c.Table
	if len(t) < 2 {
		return c.Gain * (raw - c.Offset)
	}
	i := sort.Search(len(t)-1, func(i int) bool { return t[i+1][0] >= raw })
	i = min(i, len(t)-2)
	a, b := t[i], t[i+1]
	return a[1] + (b[1]-a[1])*(raw-a[0])/(b[0]-a[0])
}

// Calibration maps a glove's raw sensor values to angles.
type Calibration struct {
	Glove   string      `toml:"glove"`
	Sensors int         `toml:"sensors"`
	Sensor  []SensorCal `toml:"sensor"`
	// Name is where it came from (a file, or "default-22"); Text is the
	// TOML it was read from, stored in recordings.
	Name string `toml:"-"`
	Text string `toml:"-"`
}

// DefaultCalibration returns the shipped calibration for an n-sensor glove.
func DefaultCalibration(n int) (*Calibration, error) {
	name := fmt.Sprintf("calibration-%d.toml", n)
	text, err := configs.Files.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("handmodel: no default calibration for %d sensors", n)
	}
	return ParseCalibration("default-"+name, text)
}

// LoadCalibration reads a calibration file.
func LoadCalibration(path string) (*Calibration, error) {
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("handmodel: %w", err)
	}
	return ParseCalibration(path, text)
}

// ParseCalibration parses calibration TOML; name labels errors. Unknown
// keys, a sensor count that is not 18 or 22, sensors missing, misnamed or
// out of order, non-finite numbers and tables whose raw values do not
// increase are all errors naming the key.
func ParseCalibration(name string, text []byte) (*Calibration, error) {
	var c Calibration
	if err := configs.Decode(name, text, &c); err != nil {
		return nil, fmt.Errorf("handmodel: %w", err)
	}
	c.Name, c.Text = name, string(text)
	if err := c.validate(); err != nil {
		return nil, fmt.Errorf("handmodel: %s: %w", name, err)
	}
	return &c, nil
}

func (c *Calibration) validate() error {
	if c.Sensors != 18 && c.Sensors != 22 {
		return fmt.Errorf("sensors = %d: want 18 or 22", c.Sensors)
	}
	if len(c.Sensor) != c.Sensors {
		return fmt.Errorf("%d [[sensor]] entries for sensors = %d", len(c.Sensor), c.Sensors)
	}
	for i := range c.Sensor {
		s := &c.Sensor[i]
		want := SensorName(c.Sensors, i)
		if s.Name != want {
			return fmt.Errorf("sensor[%d].name = %q: sensor %d of a %d-sensor glove is %q", i, s.Name, i+1, c.Sensors, want)
		}
		if !geom.Finite(s.Offset) || !geom.Finite(s.Gain) {
			return fmt.Errorf("sensor[%d] (%s): offset and gain must be finite numbers", i, s.Name)
		}
		if len(s.Table) == 1 {
			return fmt.Errorf("sensor[%d].table (%s): a table needs at least two points", i, s.Name)
		}
		for k, p := range s.Table {
			if !geom.Finite(p[0]) || !geom.Finite(p[1]) {
				return fmt.Errorf("sensor[%d].table[%d] (%s): not a finite number", i, k, s.Name)
			}
			if k > 0 && !(p[0] > s.Table[k-1][0]) {
				return fmt.Errorf("sensor[%d].table[%d] (%s): raw %v does not increase", i, k, s.Name, p[0])
			}
		}
	}
	return nil
}

// Angles turns a sample into joint angles, clamped to lim: calibrated
// sensor angles are mapped to joints (DIP synthesised as 2/3 of PIP on an
// 18-sensor glove; per-finger abduction derived from the between-finger
// sensors with the middle finger anchored). It allocates nothing.
func (c *Calibration) Angles(s *devices.Sample, lim *[NumJoints]Limit, q *Angles) error {
	if s.N != c.Sensors {
		return fmt.Errorf("handmodel: sample has %d sensors, calibration %s is for %d", s.N, c.Name, c.Sensors)
	}
	var a [devices.MaxSensors]float64 // by 22-sensor slot
	if c.Sensors == 22 {
		for i := range 22 {
			a[i] = c.Sensor[i].Angle(float64(s.Raw[i]))
		}
	} else {
		for i, slot := range devices.Sensors18 {
			a[slot] = c.Sensor[i].Angle(float64(s.Raw[i]))
		}
		for _, f := range [4]int{devices.SensorIndexPIP, devices.SensorMiddlePIP, devices.SensorRingPIP, devices.SensorLittlePIP} {
			a[f+1] = 2.0 / 3 * a[f]
		}
	}
	MapSensors(&a, q)
	q.Clamp(lim)
	return nil
}

// MapSensors maps sensor angles (22-sensor slot order, radians) to joints.
// The abduction sensors measure the angle between neighbouring fingers, so
// the middle finger is anchored and the others are placed relative to it:
// index radially by the middle-index angle, ring ulnarly by the
// ring-middle angle, little by that plus the little-ring angle.
func MapSensors(a *[devices.MaxSensors]float64, q *Angles) {
	q[WristPitch] = a[devices.SensorWristPitch]
	q[WristYaw] = a[devices.SensorWristYaw]
	q[PalmArch] = a[devices.SensorPalmArch]
	q[ThumbRoll] = a[devices.SensorThumbRoll]
	q[ThumbAbduction] = a[devices.SensorThumbAbduction]
	q[ThumbMCP] = a[devices.SensorThumbMCP]
	q[ThumbIP] = a[devices.SensorThumbIP]
	fingers := [4]int{devices.SensorIndexMCP, devices.SensorMiddleMCP, devices.SensorRingMCP, devices.SensorLittleMCP}
	for f, slot := range fingers {
		j := IndexAbduction + Joint(4*f)
		q[j+1], q[j+2], q[j+3] = a[slot], a[slot+1], a[slot+2]
	}
	q[IndexAbduction] = a[devices.SensorMiddleIndexAbduction]
	q[MiddleAbduction] = 0
	q[RingAbduction] = -a[devices.SensorRingMiddleAbduction]
	q[LittleAbduction] = -a[devices.SensorRingMiddleAbduction] - a[devices.SensorLittleRingAbduction]
}
