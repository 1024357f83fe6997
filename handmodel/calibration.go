package handmodel

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/gloved/gloved/configs"
	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/cyberglove/layout"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/internal/userfile"
)

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

// Calibration maps a glove's raw sensor values to angles, and through
// its layout's joint map to the hand's joints.
type Calibration struct {
	Glove   string      `toml:"glove"`
	Sensors int         `toml:"sensors"`
	Sensor  []SensorCal `toml:"sensor"`
	// Name is where it came from (a file, or "default-calibration-22.toml");
	// Text is the TOML it was read from, stored in recordings.
	Name string `toml:"-"`
	Text string `toml:"-"`
	jmap *JointMap
}

// Layout returns the glove layout the calibration is for.
func (c *Calibration) Layout() *devices.Layout { return c.jmap.Layout }

// DefaultCalibration returns the shipped calibration for an n-sensor
// CyberGlove (DefaultCalibrationFor its layout).
func DefaultCalibration(n int) (*Calibration, error) {
	l, err := layout.For(n, devices.Bits8)
	if err != nil {
		return nil, fmt.Errorf("handmodel: no default calibration for %d sensors", n)
	}
	return DefaultCalibrationFor(l)
}

// DefaultCalibrationFor returns the calibration a layout's driver ships
// for it; a layout without sensors (a glove that measures joint angles
// itself) needs none and gets an empty one.
func DefaultCalibrationFor(l *devices.Layout) (*Calibration, error) {
	if len(l.Sensors) == 0 && len(l.Calibration) == 0 {
		m, err := NewJointMap(l)
		if err != nil {
			return nil, err
		}
		return &Calibration{Glove: l.Name, Name: "none (" + l.Name + " measures joint angles)", jmap: m}, nil
	}
	return ParseCalibrationFor("default-"+l.CalibrationName, l.Calibration, l)
}

// LoadCalibration reads a CyberGlove's calibration file.
func LoadCalibration(path string) (*Calibration, error) {
	return LoadCalibrationFor(path, layout.Layouts(devices.Bits8)...)
}

// calibrationFile is what a calibration file may be: a recording stores
// the calibration in its header, which may hold 1 MiB (package
// recording); a 22-sensor glove with a 256-point table for every sensor
// takes under 150 kB.
var calibrationFile = userfile.Kind{Name: "a calibration file", MaxBytes: 256_000}

// LoadCalibrationFor reads a calibration file for a glove of one of the
// layouts.
func LoadCalibrationFor(path string, layouts ...*devices.Layout) (*Calibration, error) {
	text, err := userfile.ReadFile(path, calibrationFile)
	if err != nil {
		return nil, fmt.Errorf("handmodel: %w", err)
	}
	return ParseCalibrationFor(path, text, layouts...)
}

// ParseCalibration parses a CyberGlove's calibration TOML (18 or 22
// sensors); name labels errors.
func ParseCalibration(name string, text []byte) (*Calibration, error) {
	return ParseCalibrationFor(name, text, layout.Layouts(devices.Bits8)...)
}

// ParseCalibrationFor parses calibration TOML for a glove of one of the
// layouts, the one with as many sensors as the file has; name labels
// errors. Unknown keys, a sensor count no layout has, sensors missing,
// misnamed or out of order, non-finite numbers and tables whose raw
// values do not increase are all errors naming the key.
func ParseCalibrationFor(name string, text []byte, layouts ...*devices.Layout) (*Calibration, error) {
	var c Calibration
	if err := configs.Decode(name, text, &c); err != nil {
		return nil, fmt.Errorf("handmodel: %w", err)
	}
	c.Name, c.Text = name, string(text)
	l, err := c.validate(layouts)
	if err != nil {
		return nil, fmt.Errorf("handmodel: %s: %w", name, err)
	}
	if c.jmap, err = NewJointMap(l); err != nil {
		return nil, err
	}
	return &c, nil
}

// validate checks the calibration against the layout with its sensor
// count, and returns that layout.
func (c *Calibration) validate(layouts []*devices.Layout) (*devices.Layout, error) {
	var l *devices.Layout
	counts := make([]string, len(layouts))
	for i, x := range layouts {
		counts[i] = strconv.Itoa(len(x.Sensors))
		if len(x.Sensors) == c.Sensors && l == nil {
			l = x
		}
	}
	if l == nil {
		if err := c.otherGlove(layouts); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("sensors = %d: want %s", c.Sensors, strings.Join(counts, " or "))
	}
	if len(c.Sensor) != c.Sensors {
		return nil, fmt.Errorf("%d [[sensor]] entries for sensors = %d", len(c.Sensor), c.Sensors)
	}
	for i := range c.Sensor {
		if err := c.Sensor[i].check(i, c.Sensors, l.Sensors[i].Name); err != nil {
			return nil, err
		}
	}
	return l, nil
}

// otherGlove says, for a calibration no layout takes, when the file
// names a glove none of the layouts is (an OpenGloves calibration given
// for a CyberGlove's recording): its sensor count alone said only "want
// 18 or 22".
func (c *Calibration) otherGlove(layouts []*devices.Layout) error {
	if c.Glove == "" {
		return nil
	}
	names := make([]string, len(layouts))
	for i, x := range layouts {
		if strings.HasPrefix(x.Name, c.Glove) {
			return nil
		}
		names[i] = x.Name
	}
	if len(layouts) > 0 && len(layouts[0].Sensors) == 0 {
		return fmt.Errorf("glove = %q: this calibration is for another glove, and this one (%s) measures joint angles itself: it takes no calibration, leave it out", c.Glove, strings.Join(names, " or "))
	}
	return fmt.Errorf("glove = %q: this calibration is for another glove than this one (%s): give one written for it, or none (its driver's shipped one is used)", c.Glove, strings.Join(names, " or "))
}

// check checks sensor i of an n-sensor glove, which should be want.
func (s *SensorCal) check(i, n int, want string) error {
	if s.Name != want {
		return fmt.Errorf("sensor[%d].name = %q: sensor %d of a %d-sensor glove is %q", i, s.Name, i+1, n, want)
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
	return nil
}

// Angles turns a sample into joint angles, clamped to lim: its readings
// in 8-bit counts (Sample.Counts: a CyberGlove III's are scaled, not
// truncated) are calibrated into sensor angles, and those and the angles
// the glove measured itself are mapped to joints by the layout's joint
// map (a CyberGlove's: DIP as 2/3 of PIP on an 18-sensor glove;
// per-finger abduction from the between-finger sensors with the middle
// finger anchored). It allocates nothing.
func (c *Calibration) Angles(s *devices.Sample, lim *[NumJoints]Limit, q *Angles) error {
	if s.N != c.Sensors {
		return fmt.Errorf("handmodel: sample has %d sensors, calibration %s is for %d", s.N, c.Name, c.Sensors)
	}
	if want := len(c.jmap.Layout.Angles); s.NAngles != want {
		return fmt.Errorf("handmodel: sample has %d joint angles, glove layout %s has %d", s.NAngles, c.jmap.Layout.Name, want)
	}
	var a [devices.MaxReadings]float64
	for i := range s.N {
		a[i] = c.Sensor[i].Angle(s.Counts(i)) // a CyberGlove III's 12 bits as sixteenths of a count
	}
	c.jmap.Joints(&a, &s.Angles, q)
	q.Clamp(lim)
	return nil
}

// AnglesOf is Angles for readings that need not be whole counts (the
// median of a held pose), given in the glove's order for c.Sensors
// sensors, of a glove that measures no angles itself.
func (c *Calibration) AnglesOf(raw *[devices.MaxReadings]float64, lim *[NumJoints]Limit, q *Angles) {
	var a [devices.MaxReadings]float64
	var none [devices.MaxAngles]float64
	for i := range c.Sensors {
		a[i] = c.Sensor[i].Angle(raw[i])
	}
	c.jmap.Joints(&a, &none, q)
	q.Clamp(lim)
}

// Readings fills slots (a CyberGlove's 22 sensor slots) with the readings
// at which its sensors show the sensor angles a (also by slot): the
// inverse of the calibration, for an emulated glove. An 18-sensor glove's
// DIP slots are left 0.
func (c *Calibration) Readings(a *[layout.Slots]float64, slots *[layout.Slots]float64) error {
	if err := layout.Check(c.Sensors); err != nil {
		return fmt.Errorf("handmodel: readings: %w", err)
	}
	*slots = [layout.Slots]float64{}
	for i := range c.Sensors {
		k := layout.Slot(c.Sensors, i)
		r, err := c.Sensor[i].Raw(a[k])
		if err != nil {
			return err
		}
		slots[k] = r
	}
	return nil
}
