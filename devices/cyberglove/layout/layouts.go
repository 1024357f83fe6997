package layout

import (
	"fmt"

	"github.com/gloved/gloved/configs"
	"github.com/gloved/gloved/devices"
)

// shares says how each slot's calibrated angle moves the hand's joints.
// Most sensors are one joint's. The abduction sensors measure the angle
// between neighbouring fingers, so the middle finger is anchored (its
// abduction stays 0) and the others are placed relative to it: the index
// radially by the middle-index angle, the ring ulnarly by the ring-middle
// angle, the little finger by that plus the little-ring angle.
var shares = [Slots][]devices.Share{
	ThumbRoll: devices.Moves("thumb_roll"), ThumbMCP: devices.Moves("thumb_mcp"), ThumbIP: devices.Moves("thumb_ip"),
	ThumbAbduction: devices.Moves("thumb_abduction"),
	IndexMCP:       devices.Moves("index_mcp"), IndexPIP: devices.Moves("index_pip"), IndexDIP: devices.Moves("index_dip"),
	MiddleMCP: devices.Moves("middle_mcp"), MiddlePIP: devices.Moves("middle_pip"), MiddleDIP: devices.Moves("middle_dip"),
	MiddleIndexAbduction: devices.Moves("index_abduction"),
	RingMCP:              devices.Moves("ring_mcp"), RingPIP: devices.Moves("ring_pip"), RingDIP: devices.Moves("ring_dip"),
	RingMiddleAbduction: {{Joint: "ring_abduction", Gain: -1}, {Joint: "little_abduction", Gain: -1}},
	LittleMCP:           devices.Moves("little_mcp"), LittlePIP: devices.Moves("little_pip"), LittleDIP: devices.Moves("little_dip"),
	LittleRingAbduction: {{Joint: "little_abduction", Gain: -1}},
	PalmArch:            devices.Moves("palm_arch"), WristPitch: devices.Moves("wrist_pitch"), WristYaw: devices.Moves("wrist_yaw"),
}

// DIPofPIP is the DIP flexion an 18-sensor glove, which has no DIP
// sensors, is given per radian of its PIP sensor, as drivers do.
const DIPofPIP = 2.0 / 3

// dipOf names the DIP joint each PIP slot also moves on an 18-sensor
// glove.
var dipOf = map[int]string{IndexPIP: "index_dip", MiddlePIP: "middle_dip", RingPIP: "ring_dip", LittlePIP: "little_dip"}

// build returns the layout of an n-sensor glove whose readings have bits.
func build(n int, bits uint8) *devices.Layout {
	name := fmt.Sprintf("calibration-%d.toml", n)
	text, err := configs.Files.ReadFile(name)
	if err != nil {
		panic("layout: the shipped " + name + " is missing: " + err.Error())
	}
	l := &devices.Layout{Name: fmt.Sprintf("cyberglove-%d", n), Bits: bits, Saturates: true, Calibration: text, CalibrationName: name}
	for i := range n {
		k := Slot(n, i)
		c := devices.Channel{Name: Names[k], Joints: shares[k]}
		if dip, ok := dipOf[k]; ok && n == 18 {
			c.Joints = append(c.Joints[:len(c.Joints):len(c.Joints)], devices.Share{Joint: dip, Gain: DIPofPIP})
		}
		l.Sensors = append(l.Sensors, c)
	}
	return l
}

// The layouts: 18 and 22 sensors, read at 8 bits (a CyberGlove I/II and
// the simulation) and at 12 (a CyberGlove III). The two resolutions share
// names, joints and the shipped calibrations (written in 8-bit counts,
// which devices.Sample.Counts reads a III's readings in).
var (
	layouts8  = [2]*devices.Layout{build(18, devices.Bits8), build(22, devices.Bits8)}
	layouts12 = [2]*devices.Layout{build(18, devices.Bits12), build(22, devices.Bits12)}
)

// Layouts returns the 18- and 22-sensor layouts of a glove read at bits
// (devices.Bits8 or devices.Bits12).
func Layouts(bits uint8) []*devices.Layout {
	if bits == devices.Bits12 {
		return layouts12[:]
	}
	return layouts8[:]
}

// For returns the layout of an n-sensor glove read at bits.
func For(n int, bits uint8) (*devices.Layout, error) {
	if err := Check(n); err != nil {
		return nil, err
	}
	if n == 18 {
		return Layouts(bits)[0], nil
	}
	return Layouts(bits)[1], nil
}
