package devices

import (
	"math"
	"time"
)

// Limits of a Sample: the most sensor readings and joint angles one
// carries. A CyberGlove sends 18 or 22 readings; an OpenGloves glove's
// curls, splays, per-joint curls and controls fit too.
const (
	MaxReadings = 48
	MaxAngles   = 32
)

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

// Sample is one reading of the glove: the readings of its sensors, the
// joint angles it measures itself, or both, in the order its Layout
// names them. It is a value: a device fills the caller's, and nothing of
// it is allocated per reading.
type Sample struct {
	// Time is monotonic: time since the device was opened (or, replayed,
	// since the recording started).
	Time time.Duration
	// Seq counts samples from 0 without gaps; a dropped or rejected record
	// does not consume a number.
	Seq uint64
	// N is the number of sensor readings in Raw: the glove layout's
	// Sensors, in their order (a CyberGlove's 18 or 22).
	N int
	// Raw holds the sensor readings as sent, 0..2^Bits-1: 1..254 for a
	// CyberGlove I/II (8-bit), 1..4094 for a CyberGlove III (12-bit).
	Raw [MaxReadings]uint16
	// Bits is Raw's resolution (0 reads as Bits8). Counts reads Raw in the
	// one unit calibrations use.
	Bits uint8
	// NAngles is the number of joint angles in Angles: the glove layout's
	// Angles, in their order. A glove that measures joint angles itself
	// (a tracker sending rotations) sends them here, in radians, past
	// any calibration.
	NAngles int
	Angles  [MaxAngles]float64
	// GloveTime is the glove's own timestamp when the unit sends one
	// (protocol command D), else 0. Its unit is unconfirmed.
	GloveTime uint32
	// Status is the status byte when the unit appends one (command U).
	Status Status
}

// Sensors returns the sensor readings actually present.
func (s *Sample) Sensors() []uint16 { return s.Raw[:s.N] }

// JointAngles returns the joint angles actually present.
func (s *Sample) JointAngles() []float64 { return s.Angles[:s.NAngles] }

// Resolutions of Sample.Raw.
const (
	Bits8  = 8  // CyberGlove I/II, the simulation, sample records: 1..254
	Bits12 = 12 // CyberGlove III: 1..4094
)

// Counts returns sensor i in 8-bit counts, the unit every calibration,
// the calibrator's thresholds and the shipped defaults are written in. A
// reading of more bits is scaled down, not truncated: a 12-bit one is
// divided by 16, the same full-scale span read with four more bits, so
// 0..4095 maps onto 0..255.94 and a CyberGlove III keeps its resolution as
// sixteenths of a count (exact in a float64); fewer bits scale up alike.
// Scaling keeps one calibration format and one set of defaults for every
// resolution; a glove's own calibration (gloved calibrate) then fits
// offsets to its own step.
func (s *Sample) Counts(i int) float64 {
	if s.Bits != 0 && s.Bits != Bits8 {
		return math.Ldexp(float64(s.Raw[i]), Bits8-int(s.Bits))
	}
	return float64(s.Raw[i])
}
