package opengloves

import (
	"fmt"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/driver"
	"github.com/gloved/gloved/devices/recording"
	"github.com/gloved/gloved/devices/serialport"
)

// Name is the device key's value for an OpenGloves glove.
const Name = "opengloves"

func init() {
	driver.Register(&driver.Driver{
		Name:    Name,
		Summary: "an OpenGloves glove (LucidGloves and others of its firmware) on a serial port, USB or Bluetooth: alpha-encoded lines at 115200 baud",
		Keys: []driver.Key{
			{Name: "port", Doc: "the glove's serial port (required): /dev/ttyUSB0, /dev/ttyACM0, /dev/rfcomm0"},
			{Name: "baud", Doc: "115200, the firmware's (the default)"},
			{Name: "side", Doc: "right (the default) or left: the firmware does not say"},
			{Name: "options.max", Doc: "the values' full scale: 4095 (an ESP32, the default) or 1023 (an AVR board such as an Arduino Nano)"},
			{Name: "recording", Doc: "record the session's port bytes to this file"},
		},
		Check:  check,
		Open:   open,
		Serial: true,
		// gloved calibrate's poses pin each channel that moves one joint
		// (handmodel.CalPose.Targets).
		Calibrate: true,
		Layouts:   []*devices.Layout{Layout},
		Sensors:   Channels,
		Parser:    parser,
		Probe:     Probe,
	})
}

// options are the driver's own keys, the hand's options table.
type options struct {
	Max int `toml:"max"`
}

// decodeOptions reads the options table, the default filled in.
func decodeOptions(o driver.Options) (options, error) {
	v := options{Max: MaxESP32}
	if err := o.Decode(&v); err != nil {
		return v, err
	}
	if _, err := bitsOf(v.Max); err != nil {
		return v, fmt.Errorf("options.max = %d: want %d (an ESP32) or %d (an AVR board such as an Arduino Nano)", v.Max, MaxESP32, MaxAVR)
	}
	return v, nil
}

func check(c *driver.Config) error {
	if c.Port == "" {
		return fmt.Errorf("port: an %s glove needs its serial port", Name)
	}
	if c.Poll {
		return fmt.Errorf("poll: an %s glove streams its lines; it cannot be polled", Name)
	}
	if c.Period != 0 {
		return fmt.Errorf("rate: an %s glove streams at its firmware's rate; leave --rate out", Name)
	}
	_, err := decodeOptions(c.Options)
	return err
}

func open(c driver.Config) (*driver.Opened, error) {
	v, err := decodeOptions(c.Options)
	if err != nil {
		return nil, err
	}
	o := DefaultOpts
	o.Port, o.Baud, o.Max, o.Right, o.Tap, o.Open = c.Port, c.Baud, v.Max, c.Side != "left", c.Tap, c.Open
	g, err := Open(o)
	if err != nil {
		return nil, err
	}
	info := g.GloveInfo()
	h := recording.Header{Model: Name, Sensors: Channels, Hand: info.Hand(), Mode: "stream", Source: c.Port, Max: v.Max}
	return &driver.Opened{Device: g, Info: info, Header: h}, nil
}

// parser reads a recording of a glove: its lines at the full scale the
// header stores.
func parser(h recording.Header, faults *devices.Faults) (devices.Parser, error) {
	if h.Sensors != Channels {
		return nil, fmt.Errorf("opengloves: the recording has %d sensors: an %s glove's samples have %d", h.Sensors, Name, Channels)
	}
	return NewParser(h.Max, faults)
}

// Probe is the driver's serialport.Identify, for `gloved ports --probe`:
// it asks for the info reply (Z, which the LucidGloves firmware ignores)
// and reads what the glove streams, answering each line with an empty
// one (what the driver does, and what a firmware built with force
// feedback waits for), until a line is a sample or an info reply, within
// three reply timeouts. Its values are read up to 4095, which a glove of
// either scale fits.
func Probe(c serialport.Conn, reply time.Duration) (string, error) {
	if reply <= 0 {
		return "", fmt.Errorf("opengloves: reply timeout %v: want > 0", reply)
	}
	p, _ := NewParser(MaxESP32, nil)
	if _, err := c.Write([]byte("Z\n")); err != nil {
		return "", fmt.Errorf("opengloves: Z: %w", err)
	}
	var buf [256]byte
	var s devices.Sample
	for deadline := time.Now().Add(3 * reply); time.Now().Before(deadline); {
		n, err := c.Read(buf[:])
		if err != nil && n == 0 {
			break
		}
		p.Feed(buf[:n])
		for {
			ev, _ := p.Next(&s)
			if info := p.Info(); info.Seen {
				return describe(info), nil
			}
			if ev == devices.GotSample {
				return "OpenGloves glove (alpha encoding)", nil
			}
			if ev == devices.NeedMore {
				break
			}
		}
		if n > 0 {
			if _, err := c.Write([]byte("\n")); err != nil {
				return "", fmt.Errorf("opengloves: %w", err)
			}
		}
	}
	return "", fmt.Errorf("opengloves: %w: no alpha-encoded line within %v", serialport.ErrNoReply, 3*reply)
}

// describe says what an info reply said.
func describe(i Info) string {
	s := "OpenGloves glove (alpha encoding"
	if i.Firmware >= 0 {
		s += fmt.Sprintf(", firmware %d", i.Firmware)
	}
	switch i.Hand {
	case 0:
		s += ", left"
	case 1:
		s += ", right"
	}
	return s + ")"
}
