package devices

import (
	"fmt"
	"math"
	"sync/atomic"
	"time"
)

// Motion is a deterministic glove motion, for the demo and the emulator.
type Motion string

const (
	Grasp Motion = "grasp" // all fingers close around an object and open, 3 s cycle
	Tap   Motion = "tap"   // the index finger taps at 2 Hz, the others rest
	Pinch Motion = "pinch" // thumb and index meet and part, 2 s cycle
)

// Motions lists the simulated motions.
var Motions = []Motion{Grasp, Tap, Pinch}

// Sensor slots of the 22-sensor order (shared/reference/cyberglove-protocol.md).
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

// Resting raw values (8-bit) of the simulated glove: flexion sensors read
// about 40 with the hand flat, abduction and wrist sensors sit mid-scale.
func restRaw(slot int) float64 {
	switch slot {
	case SensorThumbRoll, SensorThumbAbduction, SensorMiddleIndexAbduction, SensorRingMiddleAbduction,
		SensorLittleRingAbduction, SensorWristPitch, SensorWristYaw:
		return 128
	case SensorPalmArch:
		return 60
	}
	return 40
}

// SimRaw fills raw (22-sensor slot order) with the motion's 8-bit sensor
// values at time t. It is a pure function of (motion, t).
func SimRaw(m Motion, t time.Duration, raw *[MaxSensors]uint16) error {
	s := t.Seconds()
	var amount [MaxSensors]float64 // 0 rest .. 1 fully bent
	switch m {
	case Grasp:
		c := 0.5 - 0.5*math.Cos(2*math.Pi*s/3)
		for _, k := range []int{SensorIndexMCP, SensorMiddleMCP, SensorRingMCP, SensorLittleMCP} {
			amount[k] = 0.55 * c
			amount[k+1] = 0.75 * c
			amount[k+2] = 0.5 * c
		}
		amount[SensorThumbMCP], amount[SensorThumbIP], amount[SensorThumbRoll] = 0.4*c, 0.5*c, 0.35*c
		amount[SensorPalmArch] = 0.3 * c
	case Tap:
		c := math.Max(0, math.Sin(2*math.Pi*2*s))
		amount[SensorIndexMCP], amount[SensorIndexPIP], amount[SensorIndexDIP] = 0.45*c, 0.25*c, 0.15*c
	case Pinch:
		c := 0.5 - 0.5*math.Cos(2*math.Pi*s/2)
		amount[SensorIndexMCP], amount[SensorIndexPIP], amount[SensorIndexDIP] = 0.35*c, 0.45*c, 0.3*c
		amount[SensorThumbRoll], amount[SensorThumbMCP], amount[SensorThumbIP] = 0.6*c, 0.3*c, 0.35*c
		amount[SensorThumbAbduction] = -0.2 * c
	default:
		return fmt.Errorf("devices: unknown motion %q (have grasp, tap, pinch)", m)
	}
	for k := range MaxSensors {
		v := restRaw(k) + amount[k]*200
		raw[k] = uint16(math.Round(math.Min(254, math.Max(1, v))))
	}
	// A slow wrist sway so the hand moves as a whole too.
	raw[SensorWristPitch] = uint16(128 + math.Round(20*math.Sin(2*math.Pi*s/5)))
	return nil
}

// SimGlove is a simulated glove: it produces the motion's samples at the
// sample period, in real time or, with Fast, as fast as they are read.
type SimGlove struct {
	Motion  Motion
	Sensors int // 18 or 22
	Period  time.Duration
	Fast    bool
	start   time.Time
	seq     uint64
	closed  atomic.Bool
}

var _ Device = (*SimGlove)(nil)
var _ Info = (*SimGlove)(nil)

// NewSimGlove returns a simulated glove.
func NewSimGlove(m Motion, sensors int, period time.Duration, fast bool) (*SimGlove, error) {
	if err := (Format{Sensors: sensors}).Validate(); err != nil {
		return nil, err
	}
	var probe [MaxSensors]uint16
	if err := SimRaw(m, 0, &probe); err != nil {
		return nil, err
	}
	if period <= 0 {
		return nil, fmt.Errorf("devices: sample period %v must be positive", period)
	}
	return &SimGlove{Motion: m, Sensors: sensors, Period: period, Fast: fast, start: time.Now()}, nil
}

// Epoch returns when Sample.Time was zero.
func (g *SimGlove) Epoch() time.Time { return g.start }

// GloveInfo describes the simulated glove (a right hand).
func (g *SimGlove) GloveInfo() GloveInfo {
	return GloveInfo{Model: "sim", Sensors: g.Sensors, Right: true}
}

// Read returns the next sample, sleeping until its time unless Fast.
func (g *SimGlove) Read(s *Sample) error {
	if g.closed.Load() {
		return ErrClosed
	}
	t := time.Duration(g.seq) * g.Period
	if !g.Fast {
		if wait := time.Until(g.start.Add(t)); wait > 0 {
			time.Sleep(wait)
		}
	}
	var raw [MaxSensors]uint16
	SimRaw(g.Motion, t, &raw) // the motion was checked at construction
	FromSlots(&raw, g.Sensors, s)
	s.Time, s.Seq = t, g.seq
	s.Status = StatusValid | StatusGloveIn
	g.seq++
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

// Close ends the simulation; a Read in progress returns ErrClosed after
// its sample (Close may be called from another goroutine).
func (g *SimGlove) Close() error {
	g.closed.Store(true)
	return nil
}
