package devices

import "fmt"

// Sensor slots of the CyberGlove's 22-sensor order, as its public drivers
// number them (package cyberglove names the drivers).
const (
	SensorThumbRoll = iota
	SensorThumbMCP
	SensorThumbIP
	SensorThumbAbduction
	SensorIndexMCP
	SensorIndexPIP
	SensorIndexDIP
	SensorMiddleMCP
	SensorMiddlePIP
	SensorMiddleDIP
	SensorMiddleIndexAbduction
	SensorRingMCP
	SensorRingPIP
	SensorRingDIP
	SensorRingMiddleAbduction
	SensorLittleMCP
	SensorLittlePIP
	SensorLittleDIP
	SensorLittleRingAbduction
	SensorPalmArch
	SensorWristPitch
	SensorWristYaw
)

// Sensors18 maps the 18-sensor order onto the 22-sensor slots: the 18-sensor
// glove has no DIP sensors.
var Sensors18 = [18]int{0, 1, 2, 3, 4, 5, 7, 8, 10, 11, 12, 14, 15, 16, 18, 19, 20, 21}

// CheckSensors reports a sensor count no supported glove has.
func CheckSensors(n int) error {
	if n != 18 && n != 22 {
		return fmt.Errorf("devices: %d sensors: CyberGlove units have 18 or 22", n)
	}
	return nil
}

// FromSlots fills s with the values of a 22-slot array as a glove of n
// sensors reports them.
func FromSlots(slots *[MaxSensors]uint16, n int, s *Sample) {
	s.N = n
	s.Raw = [MaxSensors]uint16{}
	if n == 22 {
		s.Raw = *slots
		return
	}
	for i, k := range Sensors18 {
		s.Raw[i] = slots[k]
	}
}

// Slots fills slots with s's values in the 22-sensor slot order, the
// inverse of FromSlots; an 18-sensor glove's DIP slots are 0.
func (s *Sample) Slots(slots *[MaxSensors]uint16) {
	*slots = [MaxSensors]uint16{}
	if s.N == 22 {
		*slots = s.Raw
		return
	}
	for k, slot := range Sensors18 {
		slots[slot] = s.Raw[k]
	}
}
