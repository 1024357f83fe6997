package session

import (
	"fmt"
	"maps"
	"net/netip"
	"slices"
	"strings"
	"time"

	"github.com/gloved/gloved/devices/cyberglove"
	"github.com/gloved/gloved/devices/driver"
	"github.com/gloved/gloved/devices/replay"
	"github.com/gloved/gloved/devices/sim"
	"github.com/gloved/gloved/handmodel"
)

// The shipped drivers' names (a Spec's device names any registered
// driver: driver.Names).
const (
	DeviceCyberGlove  = string(cyberglove.ModelII)  // a CyberGlove I/II on a serial port
	DeviceCyberGlove3 = string(cyberglove.ModelIII) // a CyberGlove III on a serial port (its 16-bit USB stream)
	DeviceReplay      = replay.Name                 // a recording played back
	DeviceSim         = sim.Name                    // the simulated glove
)

// Speeds of a replay or simulated glove.
const (
	SpeedRealTime = "1"   // samples at the pace they were (or would be) taken
	SpeedMax      = "max" // every sample, as fast as they are read
)

// Spec describes one hand: its glove, the calibration that turns the
// glove's readings into joint angles, the hand's size, and where the
// session is recorded. The daemon's [[hand]] tables decode into it (the
// TOML keys are the tags), and the offline commands fill it from flags.
// Its errors name the key at fault, for the caller to prefix.
type Spec struct {
	Device      string    `toml:"device"`      // a registered driver: cyberglove | cyberglove3 | replay | sim | ...
	Port        string    `toml:"port"`        // a serial glove's port
	Baud        int       `toml:"baud"`        // a serial glove's baud rate: 115200 by default
	Sensors     int       `toml:"sensors"`     // one of the driver's layouts' counts (0: the glove says, or the driver's default)
	Side        string    `toml:"side"`        // sim: right | left; cyberglove3: the side of a III that answers no queries (a glove that answers, and a recording, say)
	Calibration string    `toml:"calibration"` // file (default: the recording's stored one, else the driver's shipped one)
	Recording   string    `toml:"recording"`   // replay: the file to play; any other glove: record the session to this file
	Wrist       []float64 `toml:"wrist"`       // fixed wrist pose qw qx qy qz tx ty tz, as PoseFrom reads it (default: the recording's, else the identity); in a config, the old form of wrist_pose
	WristPose   []float64 `toml:"wrist_pose"`  // the fixed wrist pose as a config writes it, tx ty tz qx qy qz qw like the OSC wrist message; Normalize moves it to Wrist
	Motion      string    `toml:"motion"`      // sim: grasp | tap | pinch | fist | cross | spread | handshake
	Length      float64   `toml:"length"`      // hand length, m
	Breadth     float64   `toml:"breadth"`     // hand breadth, m
	Speed       string    `toml:"speed"`       // replay and sim: "1" (real time, default) or "max"
	// Mesh is a skinned hand (glTF/GLB with the WebXR joints) to use
	// instead of the procedural hand: the links take its bones and shape,
	// and its size replaces length and breadth.
	Mesh string `toml:"mesh"`
	// Joints renames another rig's joints to the WebXR names: WebXR
	// joint name = the file's joint name.
	Joints map[string]string `toml:"joints"`
	// Options are the driver's own keys, the [hand.options] table.
	Options driver.Options `toml:"options"`
	// Period is the sample period of a CyberGlove I/II or the simulation
	// (0: the driver's, 10 ms), as gloved record --rate asks; a CyberGlove
	// III streams at its own rate.
	Period time.Duration `toml:"-"`
	// Poll asks a CyberGlove I/II for each record instead of streaming.
	Poll bool `toml:"-"`
	// Allow is osc.allow: the sources besides loopback a hand tracker
	// takes poses from.
	Allow []netip.Prefix `toml:"-"`
}

// Serial reports whether the spec names a glove on a serial port (its
// driver's Serial: a CyberGlove I/II or III): opened by its reader,
// possibly absent at first.
func (s *Spec) Serial() bool {
	d, err := driver.Lookup(s.Device)
	return err == nil && d.Serial
}

// Replays reports whether the spec's glove is a recording played back
// (its driver's Replays): it ends, and may loop.
func (s *Spec) Replays() bool {
	d, err := driver.Lookup(s.Device)
	return err == nil && d.Replays
}

// Records reports whether the session records: a recording named for a
// glove that does not replay one.
func (s *Spec) Records() bool { return s.Recording != "" && !s.Replays() }

// Listens returns the UDP address the spec's glove listens on (a hand
// tracker's options.listen, driver.Driver.Listens), if it listens on one.
func (s *Spec) Listens() (netip.AddrPort, bool) {
	d, err := driver.Lookup(s.Device)
	if err != nil || d.Listens == nil {
		return netip.AddrPort{}, false
	}
	c := s.config()
	a, err := d.Listens(&c)
	return a, err == nil
}

// Driver returns the spec's glove's driver.
func (s *Spec) Driver() (*driver.Driver, error) { return driver.Lookup(s.Device) }

// config is what the spec gives its glove's driver.
func (s *Spec) config() driver.Config {
	return driver.Config{Port: s.Port, Baud: s.Baud, Sensors: s.Sensors, Side: s.Side, Motion: s.Motion, Speed: s.Speed,
		Recording: s.Recording, Options: s.Options, Period: s.Period, Poll: s.Poll, Allow: s.Allow, Length: s.Length, Breadth: s.Breadth}
}

// DefaultBaud is a serial glove's baud rate unless the spec says; the
// hand's size defaults to handmodel.DefaultParams.
const DefaultBaud = 115200

// Normalize fills the defaults and checks the spec.
func (s *Spec) Normalize() error { return s.NormalizeWritten(nil) }

// NormalizeWritten is Normalize for a spec decoded from a file: written
// reports whether the file wrote a key (nil: none). A key left out takes
// its default; a key written is checked as written, so a zero written
// (length = 0.0, speed = "", sensors = 0 for a simulation, side = "") is
// refused with its range, not quietly taken for the default.
func (s *Spec) NormalizeWritten(written func(key string) bool) error {
	left := func(key string) bool { return written == nil || !written(key) }
	if s.Baud == 0 && left("baud") {
		s.Baud = DefaultBaud
	}
	if s.Motion == "" && left("motion") {
		s.Motion = string(sim.Grasp)
	}
	if s.Length == 0 && left("length") {
		s.Length = handmodel.DefaultParams.Length
	}
	if s.Breadth == 0 && left("breadth") {
		s.Breadth = handmodel.DefaultParams.Breadth
	}
	if s.Speed == "" && left("speed") {
		s.Speed = SpeedRealTime
	}
	for _, k := range []struct{ key, value, want string }{
		{"device", s.Device, "a driver"}, {"port", s.Port, "the glove's device"}, {"side", s.Side, "right or left"},
		{"calibration", s.Calibration, "a calibration file"}, {"recording", s.Recording, "a recording file"}, {"mesh", s.Mesh, "a skinned hand's .glb"},
	} {
		if k.value == "" && !left(k.key) {
			return keyError(k.key, "", "empty: write %s, or leave the key out", k.want)
		}
	}
	if err := s.checkDevice(!left("sensors")); err != nil {
		return err
	}
	return s.checkHand()
}

// checkDevice checks the glove's keys: that the device names a driver,
// what that driver checks, a sensor count one of its layouts has, and the
// common keys' values. sensorsWritten is whether the sensor count was
// written: 0 written asks the glove, for a glove that says its count
// (driver.Driver.Sensors 0: a CyberGlove, as configs/cyberglove.toml
// writes it), and is refused where the driver has a default instead.
func (s *Spec) checkDevice(sensorsWritten bool) error {
	d, err := driver.Lookup(s.Device)
	if err != nil {
		return err
	}
	if err := checkNoOptions(d, s.Options); err != nil {
		return err
	}
	if d.Check != nil {
		c := s.config()
		if err := d.Check(&c); err != nil {
			return err
		}
	}
	if s.Speed != SpeedRealTime && s.Speed != SpeedMax {
		return keyError("speed", s.Speed, `want "1" or "max"`)
	}
	if s.Sensors == 0 && sensorsWritten && d.Sensors != 0 {
		return keyError("sensors", 0, "want %s (left out: %d)", d.SensorCounts(), d.Sensors)
	}
	if s.Sensors != 0 && !d.Replays {
		if _, err := d.Layout(s.Sensors); err != nil {
			return keyError("sensors", s.Sensors, "want %s", d.SensorCounts())
		}
	}
	if s.Baud <= 0 {
		return keyError("baud", s.Baud, "want a positive rate")
	}
	if s.Period < 0 {
		return fmt.Errorf("period %v: want a positive sample period", s.Period)
	}
	if d.Serial {
		return s.checkSerialLine()
	}
	return nil
}

func (s *Spec) checkHand() error {
	if len(s.Joints) > 0 && s.Mesh == "" {
		return fmt.Errorf("joints: a joint table renames a skinned hand's joints: set mesh too")
	}
	names := handmodel.WebXRJointNames()
	for _, k := range slices.Sorted(maps.Keys(s.Joints)) {
		if !slices.Contains(names, k) {
			// Its key is the WebXR name a rig's joint takes: a typo
			// renamed the rig's wrist away, and the skin was blamed.
			return keyError("joints."+k, s.Joints[k], "%q is not a WebXR joint name: the table's keys are (%s), each set to the name of the rig's joint", k, strings.Join(names, ", "))
		}
	}
	if s.Side != "" && s.Side != "right" && s.Side != "left" {
		return keyError("side", s.Side, "want right or left")
	}
	if !(s.Length >= 0.05 && s.Length <= 0.4) {
		return fmt.Errorf("length = %v m: want 0.05-0.4", s.Length)
	}
	if !(s.Breadth >= 0.02 && s.Breadth <= 0.2) {
		return fmt.Errorf("breadth = %v m: want 0.02-0.2", s.Breadth)
	}
	if s.WristPose != nil {
		if s.Wrist != nil {
			return fmt.Errorf("wrist and wrist_pose: give the pose once, as wrist_pose")
		}
		v, err := ReadPose(s.WristPose, PositionFirst)
		if err != nil {
			return fmt.Errorf("wrist_pose: %w", err)
		}
		s.Wrist, s.WristPose = v, nil
	}
	if s.Wrist != nil {
		if _, err := ReadPose(s.Wrist, RotationFirst); err != nil {
			return fmt.Errorf("wrist: %w", err)
		}
	}
	return nil
}

// HandParams is the hand the spec describes, for a glove of side right.
func (s *Spec) HandParams(right bool) handmodel.Params {
	return handmodel.Params{Length: s.Length, Breadth: s.Breadth, Right: right, Mesh: s.Mesh, JointNames: s.Joints}
}

// checkNoOptions refuses an options table for a driver that has no keys
// of its own (no options.* among its Keys): a driver that has them
// decodes its table strictly in its Check.
func checkNoOptions(d *driver.Driver, o driver.Options) error {
	if len(o) == 0 {
		return nil
	}
	for _, k := range d.Keys {
		if strings.HasPrefix(k.Name, "options.") {
			return nil
		}
	}
	return fmt.Errorf("options: unknown key %s: the %s driver has no options of its own", slices.Sorted(maps.Keys(o))[0], d.Name)
}
