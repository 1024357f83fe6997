package drivertest

import (
	_ "embed"
	"fmt"
	"math"
	"sync/atomic"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/driver"
	"github.com/gloved/gloved/devices/recording"
)

// Name is the test glove's device key value.
const Name = "testglove"

// The test glove's readings: 10 bits, 100 open to 900 curled.
const (
	Bits      = 10
	Open      = 100
	Curled    = 900
	Period    = 10 * time.Millisecond
	wristSway = 0.3 // radians of wrist pitch at the wave's crest (yaw: a third)
)

//go:embed calibration.toml
var calibration []byte

// curl shares a finger's curl among its joints, the knuckle most.
func curl(finger string) []devices.Share {
	return []devices.Share{{Joint: finger + "_mcp", Gain: 0.4}, {Joint: finger + "_pip", Gain: 0.35}, {Joint: finger + "_dip", Gain: 0.25}}
}

// Layout is the test glove's: a curl sensor per finger, read at 10 bits,
// and the wrist's pitch and yaw, which it measures as angles itself.
var Layout = &devices.Layout{
	Name: "testglove-5",
	Bits: Bits,
	Sensors: []devices.Channel{
		{Name: "thumb_curl", Joints: []devices.Share{{Joint: "thumb_mcp", Gain: 0.5}, {Joint: "thumb_ip", Gain: 0.5}}},
		{Name: "index_curl", Joints: curl("index")},
		{Name: "middle_curl", Joints: curl("middle")},
		{Name: "ring_curl", Joints: curl("ring")},
		{Name: "little_curl", Joints: curl("little")},
	},
	Angles: []devices.Channel{
		{Name: "wrist_pitch", Joints: devices.Moves("wrist_pitch")},
		{Name: "wrist_yaw", Joints: devices.Moves("wrist_yaw")},
	},
	Calibration:     calibration,
	CalibrationName: "testglove.toml",
}

// Driver is the test glove's registry entry.
var Driver = &driver.Driver{
	Name:    Name,
	Summary: "a test glove: five finger curls and the wrist's angles, moved by a wave",
	Keys: []driver.Key{
		{Name: "side", Doc: "right (the default) or left"},
		{Name: "speed", Doc: `"1": in real time, at 100 Hz (the default); "max": as fast as it is read`},
		{Name: "recording", Doc: "record the session's samples to this file"},
		{Name: "options.wave", Doc: "ramp (the default) or sine: how the fingers curl and open"},
		{Name: "options.hz", Doc: "curls per second, more than 0 and at most 50 (default 1)"},
	},
	Check:   func(c *driver.Config) error { _, err := parseOptions(c.Options); return err },
	Open:    open,
	Layouts: []*devices.Layout{Layout},
	Sensors: len(Layout.Sensors),
}

// The one registration line.
func init() { driver.Register(Driver) }

// Options are the test glove's own keys.
type Options struct {
	Wave string  `toml:"wave"`
	Hz   float64 `toml:"hz"`
}

// parseOptions reads and checks the options table; its errors name the
// key.
func parseOptions(o driver.Options) (Options, error) {
	opts := Options{Wave: "ramp", Hz: 1}
	if err := o.Decode(&opts); err != nil {
		return opts, err
	}
	if opts.Wave != "ramp" && opts.Wave != "sine" {
		return opts, fmt.Errorf("options.wave = %q: want ramp or sine", opts.Wave)
	}
	if !(opts.Hz > 0 && opts.Hz <= 50) {
		return opts, fmt.Errorf("options.hz = %v: want more than 0 and at most 50", opts.Hz)
	}
	return opts, nil
}

func open(c driver.Config) (*driver.Opened, error) {
	opts, err := parseOptions(c.Options)
	if err != nil {
		return nil, err
	}
	g := &Glove{Options: opts, Fast: c.Speed == "max", start: time.Now()}
	info := devices.GloveInfo{Model: Name, Sensors: len(Layout.Sensors), Right: c.Side != "left"}
	h := recording.Header{Model: Name, Sensors: info.Sensors, Hand: info.Hand(), Source: opts.Wave}
	return &driver.Opened{Device: g, Info: info, Header: h}, nil
}

// Glove is the test glove: its fingers curl and open, and its wrist
// sways, as the wave goes; each finger a fifth of a cycle after the last.
type Glove struct {
	Options
	Fast   bool // samples as fast as they are read, not at 100 Hz
	start  time.Time
	seq    uint64
	closed atomic.Bool
}

var _ devices.Device = (*Glove)(nil)

// Read fills s with the next sample.
func (g *Glove) Read(s *devices.Sample) error {
	if g.closed.Load() {
		return devices.ErrClosed
	}
	t := time.Duration(g.seq) * Period
	if wait := time.Until(g.start.Add(t)); !g.Fast && wait > 0 {
		time.Sleep(wait)
	}
	*s = Sample(g.Options, t)
	s.Seq = g.seq
	g.seq++
	return nil
}

// Sample is the test glove's sample at time t.
func Sample(o Options, t time.Duration) devices.Sample {
	s := devices.Sample{Time: t, N: len(Layout.Sensors), Bits: Bits, NAngles: len(Layout.Angles)}
	phase := t.Seconds() * o.Hz
	for i := range s.N {
		s.Raw[i] = uint16(math.Round(Open + (Curled-Open)*o.wave(phase-float64(i)/5)))
	}
	s.Angles[0] = wristSway * math.Sin(2*math.Pi*phase)
	s.Angles[1] = wristSway / 3 * math.Cos(2*math.Pi*phase)
	return s
}

// wave is 0 open .. 1 curled at phase (cycles).
func (o Options) wave(phase float64) float64 {
	phase -= math.Floor(phase)
	if o.Wave == "sine" {
		return 0.5 - 0.5*math.Cos(2*math.Pi*phase)
	}
	return 1 - math.Abs(2*phase-1) // a triangle: a ramp up and back down
}

// Close ends the glove; a Read after it returns ErrClosed.
func (g *Glove) Close() error {
	g.closed.Store(true)
	return nil
}
