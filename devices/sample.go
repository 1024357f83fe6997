package devices

import "time"

// MaxSensors is the most sensors any supported glove reports.
const MaxSensors = 22

// Status is the glove status byte's content.
type Status uint8

const (
	// StatusValid is set when the sample carried a status byte at all.
	StatusValid Status = 1 << 7
	// StatusGloveIn: the glove is plugged into the interface unit.
	StatusGloveIn Status = 1 << 0
	// StatusSwitch: the wrist switch is pressed.
	StatusSwitch Status = 1 << 1
	// StatusLight: the unit's light is on.
	StatusLight Status = 1 << 2
)

// Sample is one reading of the glove.
type Sample struct {
	// Time is monotonic: time since the device was opened (or, replayed,
	// since the recording started).
	Time time.Duration
	// Seq counts samples from 0 without gaps; a dropped or rejected record
	// does not consume a number.
	Seq uint64
	// N is the number of sensors in Raw: 18 or 22.
	N int
	// Raw holds the sensor values as sent: 1..254 for CyberGlove I/II
	// (8-bit), 1..4094 for CyberGlove III (12-bit).
	Raw [MaxSensors]uint16
	// GloveTime is the glove's own timestamp when the unit sends one
	// (protocol command D), else 0. Its unit is unconfirmed.
	GloveTime uint32
	// Status is the status byte when the unit appends one (command U).
	Status Status
}

// Sensors returns the sensor values actually present.
func (s *Sample) Sensors() []uint16 { return s.Raw[:s.N] }
