package sim

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/cyberglove/layout"
)

// Motion is a deterministic glove motion, for the demo and the emulator.
type Motion string

const (
	Grasp Motion = "grasp" // all fingers close around an object and open, 3 s cycle
	Tap   Motion = "tap"   // the index finger taps at 2 Hz, the others rest
	Pinch Motion = "pinch" // thumb and index meet and part, 2 s cycle
	Fist  Motion = "fist"  // the hand closes into a fist and opens, 3 s cycle
	Cross Motion = "cross" // the index finger crosses over the middle finger and back, 2 s cycle
	// Spread: the fingers spread apart and close together, straight, 2 s cycle.
	Spread Motion = "spread"
	// Handshake: the fingers and thumb close around another hand's palm
	// and open, 3 s cycle; two simulated hands, one left, with wrists
	// placed palm to palm, close on each other.
	Handshake Motion = "handshake"
)

// Motions lists the simulated motions.
var Motions = []Motion{Grasp, Tap, Pinch, Fist, Cross, Spread, Handshake}

// MotionNames lists the motions for messages and usage: "grasp, tap,
// ... or handshake".
func MotionNames() string {
	var b strings.Builder
	for i, m := range Motions {
		switch {
		case i == len(Motions)-1:
			b.WriteString(" or ")
		case i > 0:
			b.WriteString(", ")
		}
		b.WriteString(string(m))
	}
	return b.String()
}

// MotionStrings returns the Motions' names, in order, as a flag's
// usage lists them.
func MotionStrings() []string {
	names := make([]string, len(Motions))
	for i, m := range Motions {
		names[i] = string(m)
	}
	return names
}

// Valid reports whether m is one of the Motions.
func (m Motion) Valid() bool { return slices.Contains(Motions, m) }

// Resting raw values (8-bit) of the simulated glove: flexion sensors read
// about 40 with the hand flat, abduction and wrist sensors sit mid-scale.
func restRaw(slot int) float64 {
	switch slot {
	case layout.ThumbRoll, layout.ThumbAbduction, layout.MiddleIndexAbduction, layout.RingMiddleAbduction,
		layout.LittleRingAbduction, layout.WristPitch, layout.WristYaw:
		return 128
	case layout.PalmArch:
		return 60
	}
	return 40
}

// Raw fills raw (22-sensor slot order) with the motion's 8-bit sensor
// values at time t. It is a pure function of (motion, t).
func Raw(m Motion, t time.Duration, raw *[layout.Slots]uint16) error {
	s := t.Seconds()
	var amount [layout.Slots]float64 // 0 rest .. 1 fully bent
	switch m {
	case Grasp:
		c := 0.5 - 0.5*math.Cos(2*math.Pi*s/3)
		for _, k := range []int{layout.IndexMCP, layout.MiddleMCP, layout.RingMCP, layout.LittleMCP} {
			amount[k] = 0.55 * c
			amount[k+1] = 0.75 * c
			amount[k+2] = 0.5 * c
		}
		amount[layout.ThumbMCP], amount[layout.ThumbIP], amount[layout.ThumbRoll] = 0.4*c, 0.5*c, 0.35*c
		amount[layout.PalmArch] = 0.3 * c
	case Tap:
		c := math.Max(0, math.Sin(2*math.Pi*2*s))
		amount[layout.IndexMCP], amount[layout.IndexPIP], amount[layout.IndexDIP] = 0.45*c, 0.25*c, 0.15*c
	case Pinch:
		c := 0.5 - 0.5*math.Cos(2*math.Pi*s/2)
		amount[layout.IndexMCP], amount[layout.IndexPIP], amount[layout.IndexDIP] = 0.4*c, 0.5*c, 0.3*c
		amount[layout.ThumbRoll], amount[layout.ThumbMCP], amount[layout.ThumbIP] = 0.7*c, 0.35*c, 0.4*c
		amount[layout.ThumbAbduction] = -0.2 * c
	case Fist:
		c := 0.5 - 0.5*math.Cos(2*math.Pi*s/3)
		for _, k := range []int{layout.IndexMCP, layout.MiddleMCP, layout.RingMCP, layout.LittleMCP} {
			amount[k], amount[k+1], amount[k+2] = c, c, 0.8*c
		}
		amount[layout.ThumbRoll], amount[layout.ThumbMCP], amount[layout.ThumbIP] = 0.5*c, 0.4*c, 0.5*c
		amount[layout.PalmArch] = 0.4 * c
	case Cross:
		c := 0.5 - 0.5*math.Cos(2*math.Pi*s/2)
		amount[layout.MiddleIndexAbduction] = -0.6 * c
		amount[layout.IndexMCP], amount[layout.IndexPIP] = 0.25*c, 0.1*c
	case Spread:
		c := 0.5 - 0.5*math.Cos(2*math.Pi*s/2)
		amount[layout.MiddleIndexAbduction] = 0.4 * c
		amount[layout.RingMiddleAbduction] = 0.35 * c
		amount[layout.LittleRingAbduction] = 0.45 * c
		amount[layout.ThumbAbduction] = 0.4 * c
	case Handshake:
		c := 0.5 - 0.5*math.Cos(2*math.Pi*s/3)
		for _, k := range []int{layout.IndexMCP, layout.MiddleMCP, layout.RingMCP, layout.LittleMCP} {
			amount[k], amount[k+1], amount[k+2] = 0.45*c, 0.55*c, 0.35*c
		}
		amount[layout.ThumbRoll], amount[layout.ThumbMCP], amount[layout.ThumbIP] = 0.2*c, 0.25*c, 0.2*c
		amount[layout.ThumbAbduction] = 0.3
		amount[layout.PalmArch] = 0.2 * c
	default:
		return fmt.Errorf("sim: unknown motion %q (have %s)", m, MotionNames())
	}
	for k := range layout.Slots {
		v := restRaw(k) + amount[k]*200
		raw[k] = uint16(math.Round(math.Min(254, math.Max(1, v))))
	}
	// A slow wrist sway so the hand moves as a whole too.
	raw[layout.WristPitch] = uint16(128 + math.Round(20*math.Sin(2*math.Pi*s/5)))
	return nil
}

// Glove is a simulated glove: it produces the motion's samples at the
// sample period, in real time or, with Fast, as fast as they are read.
type Glove struct {
	Motion  Motion
	Sensors int // 18 or 22
	Period  time.Duration
	Fast    bool
	// start is when the first sample was read (or Epoch asked), not when
	// the glove was made: a daemon makes its gloves, then prepares their
	// pipelines, and a clock begun at New had the samples of that time
	// due at once, in a burst the first frames dropped.
	start   time.Time
	started sync.Once
	seq     uint64
	closed  atomic.Bool
}

var (
	_ devices.Device = (*Glove)(nil)
	_ devices.Info   = (*Glove)(nil)
	_ devices.Clock  = (*Glove)(nil)
)

// New returns a simulated glove.
func New(m Motion, sensors int, period time.Duration, fast bool) (*Glove, error) {
	if err := layout.Check(sensors); err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	var probe [layout.Slots]uint16
	if err := Raw(m, 0, &probe); err != nil {
		return nil, err
	}
	if period <= 0 {
		return nil, fmt.Errorf("sim: sample period %v must be positive", period)
	}
	return &Glove{Motion: m, Sensors: sensors, Period: period, Fast: fast}, nil
}

// Epoch returns when Sample.Time was zero: the first Read.
func (g *Glove) Epoch() time.Time {
	g.begin()
	return g.start
}

// begin starts the clock, once.
func (g *Glove) begin() { g.started.Do(func() { g.start = time.Now() }) }

// GloveInfo describes the simulated glove (a right hand).
func (g *Glove) GloveInfo() devices.GloveInfo {
	return devices.GloveInfo{Model: "sim", Sensors: g.Sensors, Right: true}
}

// Read returns the next sample, sleeping until its time unless Fast.
func (g *Glove) Read(s *devices.Sample) error {
	if g.closed.Load() {
		return devices.ErrClosed
	}
	g.begin()
	t := time.Duration(g.seq) * g.Period
	if !g.Fast {
		if wait := time.Until(g.start.Add(t)); wait > 0 {
			time.Sleep(wait)
		}
	}
	var raw [layout.Slots]uint16
	Raw(g.Motion, t, &raw) // the motion was checked at construction
	layout.FromSlots(&raw, g.Sensors, s)
	s.Bits = devices.Bits8
	s.Time, s.Seq = t, g.seq
	s.Status = devices.StatusValid | devices.StatusGloveIn
	g.seq++
	return nil
}

// Close ends the simulation; a Read in progress returns ErrClosed after
// its sample (Close may be called from another goroutine).
func (g *Glove) Close() error {
	g.closed.Store(true)
	return nil
}
