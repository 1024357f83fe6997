package cyberglove

import (
	"fmt"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/cyberglove/layout"
	"github.com/gloved/gloved/devices/driver"
	"github.com/gloved/gloved/devices/recording"
)

// The two generations register as two drivers, device = "cyberglove"
// (I/II) and "cyberglove3" (III): one serial driver, Glove, set to the
// model. Only the first probes ports: a III that answers at all answers
// the I/II's queries, so its probe finds both.
func init() {
	driver.Register(&driver.Driver{
		Name:      string(ModelII),
		Summary:   "a CyberGlove I/II on a serial port: 8-bit records, streamed (or polled, gloved record --poll)",
		Keys:      serialKeys,
		Check:     checkII,
		Open:      opener(ModelII),
		Serial:    true,
		Layouts:   layout.Layouts(devices.Bits8),
		Parser:    parserII,
		Probe:     Probe,
		Calibrate: true,
	})
	driver.Register(&driver.Driver{
		Name:    string(ModelIII),
		Summary: "a CyberGlove III on a serial port: its 16-bit USB stream (12-bit readings, 90 Hz)",
		Keys: append(serialKeys[:len(serialKeys):len(serialKeys)],
			driver.Key{Name: "side", Doc: "right or left: the side of a III that answers no queries (then sensors is needed too); one that answers says"}),
		Check:     checkIII,
		Open:      opener(ModelIII),
		Serial:    true,
		Layouts:   layout.Layouts(devices.Bits12),
		Parser:    parserIII,
		Calibrate: true,
	})
}

// serialKeys are the keys both generations read.
var serialKeys = []driver.Key{
	{Name: "port", Doc: "the serial port of the glove's interface unit (required): /dev/ttyUSB0, /dev/cyberglove"},
	{Name: "baud", Doc: "115200 (the default, current units) or 19200 or 38400 (old ones)"},
	{Name: "sensors", Doc: "18 or 22: the count the glove must report (left out: whatever it reports)"},
	{Name: "recording", Doc: "record the session's port bytes to this file"},
}

func checkII(c *driver.Config) error {
	if c.Port == "" {
		return fmt.Errorf("port: a %s needs its serial port", ModelII)
	}
	return nil
}

func checkIII(c *driver.Config) error {
	if c.Port == "" {
		return fmt.Errorf("port: a %s needs its serial port", ModelIII)
	}
	if c.Poll {
		return fmt.Errorf("poll: a cyberglove3 streams its 16-bit records; only a cyberglove (I/II) can be polled")
	}
	if c.Period != 0 {
		return fmt.Errorf("rate: a cyberglove3 streams at its own rate (90 Hz); leave --rate out")
	}
	return nil
}

// opener opens a glove of model m as a [[hand]] describes it, with the
// session's tap on its port.
func opener(m Model) func(driver.Config) (*driver.Opened, error) {
	return func(c driver.Config) (*driver.Opened, error) {
		o := DefaultOpts
		o.Port, o.Baud, o.Sensors, o.Side = c.Port, c.Baud, c.Sensors, c.Side
		o.Model, o.Tap, o.Open = m, c.Tap, c.Open
		if c.Period != 0 {
			o.Period = c.Period
		}
		if m == ModelIII {
			o.StatusByte = false // its records have none
		}
		mode := "stream"
		if c.Poll {
			o.Mode, mode = Poll, "poll"
		}
		g, err := Open(o)
		if err != nil {
			return nil, err
		}
		info := g.GloveInfo()
		h := recording.Header{Model: string(m), Sensors: info.Sensors, Hand: info.Hand(), Mode: mode, StatusByte: o.StatusByte, Source: c.Port}
		return &driver.Opened{Device: g, Info: info, Header: h}, nil
	}
}

// parserII reads a recording of an I/II: its records framed as the header
// says they were asked for.
func parserII(h recording.Header, faults *devices.Faults) (devices.Parser, error) {
	f := Format{Sensors: h.Sensors, Status: h.StatusByte, Timestamp: h.Timestamp}
	if err := f.Validate(); err != nil {
		return nil, err
	}
	return NewParser(f, h.Mode != "poll", faults), nil
}

// parserIII reads a recording of a III's 16-bit stream.
func parserIII(h recording.Header, faults *devices.Faults) (devices.Parser, error) {
	if err := layout.Check(h.Sensors); err != nil {
		return nil, err
	}
	return NewParser3(h.Sensors, faults), nil
}
