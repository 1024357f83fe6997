package sim

import (
	"fmt"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/cyberglove/layout"
	"github.com/gloved/gloved/devices/driver"
	"github.com/gloved/gloved/devices/recording"
)

// Name is the device key's value for the simulated glove.
const Name = "sim"

// DefaultPeriod is the simulated glove's sample period unless asked
// otherwise: 100 Hz, a streaming CyberGlove's.
const DefaultPeriod = 10 * time.Millisecond

func init() {
	driver.Register(&driver.Driver{
		Name:    Name,
		Summary: "the simulated glove: a CyberGlove's sensors moved by a deterministic motion",
		Keys: []driver.Key{
			{Name: "motion", Doc: MotionNames() + " (default grasp)"},
			{Name: "sensors", Doc: "18 or 22 (default 22)"},
			{Name: "side", Doc: "right (the default) or left"},
			{Name: "speed", Doc: `"1": in real time, at 100 Hz (the default); "max": as fast as it is read`},
			{Name: "recording", Doc: "record the session's samples to this file"},
		},
		Check:   check,
		Open:    open,
		Layouts: layout.Layouts(devices.Bits8),
		Sensors: 22,
	})
}

func check(c *driver.Config) error {
	if !Motion(c.Motion).Valid() {
		return fmt.Errorf("motion = %q: want %s", c.Motion, MotionNames())
	}
	return nil
}

func open(c driver.Config) (*driver.Opened, error) {
	n := c.Sensors
	if n == 0 {
		n = 22
	}
	period := c.Period
	if period == 0 {
		period = DefaultPeriod
	}
	g, err := New(Motion(c.Motion), n, period, c.Speed == "max")
	if err != nil {
		return nil, err
	}
	info := devices.GloveInfo{Model: Name, Sensors: n, Right: c.Side != "left"}
	return &driver.Opened{Device: g, Info: info, Header: recording.Header{Model: Name, Sensors: n, Hand: info.Hand(), Source: c.Motion}}, nil
}
