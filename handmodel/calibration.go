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
func SensorName(n, i int) string { return SensorNames22[SensorSlot(n, i)] }

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

// Raw returns the reading at which the sensor's angle is angle: the
// inverse of Angle, for a linear calibration with a non-zero gain.
func (c *SensorCal) Raw(angle float64) (float64, error) {
	if len(c.Table) >= 2 || c.Gain == 0 {
		return 0, fmt.Errorf("handmodel: sensor %s: only a linear calibration with a non-zero gain can be inverted", c.Name)
	}
	return c.Offset + angle/c.Gain, nil
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

// Angles turns a sample into joint angles, clamped to lim: its readings
// in 8-bit counts (Sample.Counts: a CyberGlove III's are scaled, not
// truncated), calibrated
// sensor angles are mapped to joints (DIP synthesised as 2/3 of PIP on an
// 18-sensor glove; per-finger abduction derived from the between-finger
// sensors with the middle finger anchored). It allocates nothing.
func (c *Calibration) Angles(s *devices.Sample, lim *[NumJoints]Limit, q *Angles) error {
	if s.N != c.Sensors {
		return fmt.Errorf("handmodel: sample has %d sensors, calibration %s is for %d", s.N, c.Name, c.Sensors)
	}
	var raw [devices.MaxSensors]float64
	for i := range s.N {
		raw[i] = s.Counts(i) // a CyberGlove III's 12 bits as sixteenths of a count
	}
	c.AnglesOf(&raw, lim, q)
	return nil
}

// AnglesOf is Angles for readings that need not be whole counts (the
// median of a held pose), given in the glove's order for c.Sensors sensors.
func (c *Calibration) AnglesOf(raw *[devices.MaxSensors]float64, lim *[NumJoints]Limit, q *Angles) {
	var a [devices.MaxSensors]float64 // by 22-sensor slot
	for i := range c.Sensors {
		a[SensorSlot(c.Sensors, i)] = c.Sensor[i].Angle(raw[i])
	}
	if c.Sensors == 18 {
		synthesizeDIP(&a)
	}
	MapSensors(&a, q)
	q.Clamp(lim)
}

// Readings fills slots (22-sensor slot order) with the readings at which
// the glove's sensors show the sensor angles a (also by slot): the inverse
// of the calibration, for an emulated glove. An 18-sensor glove's DIP
// slots are left 0.
func (c *Calibration) Readings(a *[devices.MaxSensors]float64, slots *[devices.MaxSensors]float64) error {
	*slots = [devices.MaxSensors]float64{}
	for i := range c.Sensors {
		k := SensorSlot(c.Sensors, i)
		r, err := c.Sensor[i].Raw(a[k])
		if err != nil {
			return err
		}
		slots[k] = r
	}
	return nil
}

// SensorSlot returns the 22-sensor slot of sensor i of an n-sensor glove.
func SensorSlot(n, i int) int {
	if n == 18 {
		return devices.Sensors18[i]
	}
	return i
}

// synthesizeDIP sets each finger's DIP slot to 2/3 of its PIP, as drivers
// do for gloves without DIP sensors.
func synthesizeDIP(a *[devices.MaxSensors]float64) {
	for _, f := range [4]int{devices.SensorIndexPIP, devices.SensorMiddlePIP, devices.SensorRingPIP, devices.SensorLittlePIP} {
		a[f+1] = 2.0 / 3 * a[f]
	}
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
