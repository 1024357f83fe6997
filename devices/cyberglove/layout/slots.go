package layout

import (
	"fmt"

	"github.com/gloved/gloved/devices"
)

// Slots is the number of sensor slots: the 22-sensor glove's sensors, the
// order in which both gloves' readings (and the simulation's motions, the
// emulator's sources and the calibration poses) are written.
const Slots = 22

// The slots, in the 22-sensor glove's order.
const (
	ThumbRoll = iota
	ThumbMCP
	ThumbIP
	ThumbAbduction
	IndexMCP
	IndexPIP
	IndexDIP
	MiddleMCP
	MiddlePIP
	MiddleDIP
	MiddleIndexAbduction
	RingMCP
	RingPIP
	RingDIP
	RingMiddleAbduction
	LittleMCP
	LittlePIP
	LittleDIP
	LittleRingAbduction
	PalmArch
	WristPitch
	WristYaw
)

// Names names the slots, as calibration files name the sensors.
var Names = [Slots]string{
	"thumb_roll", "thumb_mcp", "thumb_ip", "thumb_abduction",
	"index_mcp", "index_pip", "index_dip",
	"middle_mcp", "middle_pip", "middle_dip", "middle_index_abduction",
	"ring_mcp", "ring_pip", "ring_dip", "ring_middle_abduction",
	"little_mcp", "little_pip", "little_dip", "little_ring_abduction",
	"palm_arch", "wrist_pitch", "wrist_yaw",
}

// Sensors18 maps the 18-sensor order onto the slots: the 18-sensor glove
// has no DIP sensors.
var Sensors18 = [18]int{0, 1, 2, 3, 4, 5, 7, 8, 10, 11, 12, 14, 15, 16, 18, 19, 20, 21}

// Check reports a sensor count no CyberGlove has.
func Check(n int) error {
	if n != 18 && n != 22 {
		return fmt.Errorf("%d sensors: CyberGlove units have 18 or 22", n)
	}
	return nil
}

// Slot returns the slot of sensor i of an n-sensor glove.
func Slot(n, i int) int {
	if n == 18 {
		return Sensors18[i]
	}
	return i
}

// Name returns the name of sensor i of an n-sensor glove.
func Name(n, i int) string { return Names[Slot(n, i)] }

// FromSlots fills s with the readings of the slots as a glove of n
// sensors reports them (and no angles).
func FromSlots(slots *[Slots]uint16, n int, s *devices.Sample) {
	s.N, s.NAngles = n, 0
	s.Raw = [devices.MaxReadings]uint16{}
	for i := range n {
		s.Raw[i] = slots[Slot(n, i)]
	}
}

// ToSlots fills slots with s's readings, s being an n-sensor glove's: the
// inverse of FromSlots; an 18-sensor glove's DIP slots are 0.
func ToSlots(s *devices.Sample, slots *[Slots]uint16) {
	*slots = [Slots]uint16{}
	for i := range s.N {
		slots[Slot(s.N, i)] = s.Raw[i]
	}
}
