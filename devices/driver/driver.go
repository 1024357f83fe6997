package driver

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/recording"
	"github.com/gloved/gloved/devices/serialport"
)

// Driver is one kind of glove: what a [[hand]]'s device key names, and
// everything gloved needs to check its keys, open it, record it, replay
// its recordings, find it on a port and calibrate it. A driver package
// fills one in and registers it from its init; nothing else in gloved
// names the glove.
type Driver struct {
	// Name is the device key's value, and the model a recording of the
	// glove stores ("cyberglove").
	Name string
	// Summary says what the glove is, in a line.
	Summary string
	// Keys are the [[hand]] keys the driver reads besides the ones every
	// hand has (name, device, calibration, wrist, length, breadth, mesh,
	// joints), in the order the docs list them; its own keys beyond the
	// common ones go in the hand's options table (Options).
	Keys []Key
	// Check checks the keys' values, the defaults filled; its errors name
	// the key ("port: a cyberglove needs its serial port"). Nil: nothing
	// to check beyond the sensor count.
	Check func(c *Config) error
	// Open opens the glove.
	Open func(c Config) (*Opened, error)
	// Serial: the glove is on a serial port. The daemon opens it from its
	// hand's reader, which waits for a glove that is absent at first and
	// retries; a failed open is a session.DeviceError.
	Serial bool
	// Layouts are the forms the glove's samples take (devices.Layout: the
	// sensors and angles, their joint map, the shipped calibration), one
	// per sensor count.
	Layouts []*devices.Layout
	// Sensors is the sensor count when the sensors key is left out; 0:
	// the glove says when it is opened.
	Sensors int
	// Parser returns the parser a recording of the glove is replayed
	// through: the one the live driver reads its port with, set up as the
	// recording's header says. A driver without one records its samples
	// instead of its port's bytes.
	Parser func(h recording.Header, faults *devices.Faults) (devices.Parser, error)
	// Probe, if set, asks a serial port whether the glove is on it
	// (`gloved ports --probe`).
	Probe serialport.Identify
	// Calibrate: `gloved calibrate` can calibrate the glove: its layouts'
	// sensors are those the guided calibration's poses are written for
	// (the CyberGlove's), or channels that each move one joint, which the
	// poses pin where they pin the joint (handmodel.CalPose.Targets).
	Calibrate bool
	// Replays: the glove is a recording played back, the recording key
	// the file it plays; it is not itself recorded.
	Replays bool
	// Listens, if set, returns the UDP address the glove listens on (a
	// hand tracker's options.listen, its default filled), for gloved to
	// keep its own sockets and frames off that port.
	Listens func(c *Config) (netip.AddrPort, error)
}

// Key is a [[hand]] key a driver reads, and what it means to it.
type Key struct {
	Name string // as in the TOML: "port", or "options.wave"
	Doc  string // "the serial port (required)"
}

// Config is what a driver is opened with: the hand's keys, and what the
// session gives it.
type Config struct {
	Port    string
	Baud    int
	Sensors int
	Side    string // "right", "left" or ""
	// Length and Breadth are the hand's size, m: a hand tracker reads
	// its bones on a hand of that size.
	Length, Breadth float64
	Motion          string
	Speed           string // "1" (real time) or "max"
	Recording       string // the file a replay plays
	Options         Options
	// Period and Poll come from `gloved record`'s flags: the sample
	// period, and whether a CyberGlove I/II is polled.
	Period time.Duration
	Poll   bool
	// Tap, set by the session, receives every chunk of bytes a serial
	// glove's port gave, with the time it arrived, before parsing: what
	// its recording stores. An empty chunk means the port was (re)opened
	// and the parser reset.
	Tap func(t time.Duration, b []byte)
	// Open, if set, opens a serial glove's port instead of
	// serialport.Open (a test's scripted line).
	Open serialport.Opener
	// Allow lists the sources besides loopback a glove on the network (a
	// hand tracker) takes datagrams from: osc.allow.
	Allow []netip.Prefix
}

// Opened is an open glove.
type Opened struct {
	Device devices.Device
	Info   devices.GloveInfo
	// Header is what a recording of the glove stores (Model is the
	// driver's name; for a replay, the recorded glove's header).
	Header recording.Header
}

// Records reports whether the driver's gloves are recorded (all but a
// replay's).
func (d *Driver) Records() bool { return !d.Replays }

// Layout returns the driver's layout of n sensors.
func (d *Driver) Layout(n int) (*devices.Layout, error) {
	for _, l := range d.Layouts {
		if len(l.Sensors) == n {
			return l, nil
		}
	}
	return nil, fmt.Errorf("a %s has no layout of %d sensors: it has %s", d.Name, n, d.SensorCounts())
}

// SensorCounts says how many sensors the driver's layouts have: "18 or
// 22".
func (d *Driver) SensorCounts() string {
	counts := make([]string, len(d.Layouts))
	for i, l := range d.Layouts {
		counts[i] = strconv.Itoa(len(l.Sensors))
	}
	if len(counts) == 0 {
		return "the recording's"
	}
	return strings.Join(counts, " or ")
}
