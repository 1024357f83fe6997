package devices

import (
	"math"
	"time"
)

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
	// Bits is Raw's resolution: Bits12 for a CyberGlove III, else Bits8
	// (0 reads as Bits8). Counts reads Raw in the one unit calibrations use.
	Bits uint8
	// GloveTime is the glove's own timestamp when the unit sends one
	// (protocol command D), else 0. Its unit is unconfirmed.
	GloveTime uint32
	// Status is the status byte when the unit appends one (command U).
	Status Status
}

// Sensors returns the sensor values actually present.
func (s *Sample) Sensors() []uint16 { return s.Raw[:s.N] }

// Resolutions of Sample.Raw.
const (
	Bits8  = 8  // CyberGlove I/II, the simulation, sample records: 1..254
	Bits12 = 12 // CyberGlove III: 1..4094
)

// Counts returns sensor i in 8-bit counts, the unit every calibration,
// the calibrator's thresholds and the shipped defaults are written in. A
// 12-bit reading is divided by 16: the same full-scale span read with
// four more bits, so 0..4095 maps onto 0..255.94 and a CyberGlove III keeps
// its resolution as sixteenths of a count (exact in a float64). Scaling
// rather than truncating keeps one calibration format and one set of
// defaults for both generations; a III's own calibration (gloved
// calibrate) then fits offsets to a sixteenth of a count.
func (s *Sample) Counts(i int) float64 {
	if s.Bits > Bits8 {
		return math.Ldexp(float64(s.Raw[i]), Bits8-int(s.Bits))
	}
	return float64(s.Raw[i])
}
