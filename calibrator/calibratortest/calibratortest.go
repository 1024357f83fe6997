package calibratortest

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/cyberglove/layout"
	"github.com/gloved/gloved/handmodel"
)

// Known returns the calibration of a test glove of n sensors: the shipped
// default with each offset moved 9 counts up or down and each gain 1.3
// times larger, or as much larger as keeps every calibration pose's
// readings, with noise of sigma counts (six standard deviations), inside
// the 8-bit range 1..254. A left glove's abduction and wrist yaw sensors
// read backwards (negative gains): the protocol reference says left
// gloves mirror them.
func Known(n int, left bool, sigma float64) (*handmodel.Calibration, error) {
	c, err := handmodel.DefaultCalibration(n)
	if err != nil {
		return nil, err
	}
	c.Name = fmt.Sprintf("known-%d", n)
	margin := 1 + 6*sigma
	for i := range c.Sensor {
		s, k := &c.Sensor[i], layout.Slot(n, i)
		s.Offset += []float64{9, -9}[i%2]
		sign := 1.0
		if left && Mirrored(k) {
			sign = -1
		}
		g := 1.3 * math.Abs(s.Gain)
		for _, p := range handmodel.CalPoses {
			switch a := sign * p.Angle[k]; { // the reading is offset + a/g
			case a > 0:
				g = max(g, 1.05*a/(254-margin-s.Offset))
			case a < 0:
				g = max(g, 1.05*-a/(s.Offset-1-margin))
			}
		}
		s.Gain = sign * g
	}
	return c, nil
}

// Mirrored reports whether a left glove's sensor in 22-sensor slot k
// reads backwards: the abductions and wrist yaw.
func Mirrored(k int) bool {
	switch k {
	case layout.ThumbAbduction, layout.MiddleIndexAbduction, layout.RingMiddleAbduction,
		layout.LittleRingAbduction, layout.WristYaw:
		return true
	}
	return false
}

// TOML writes c as a calibration file, every number exact.
func TOML(c *handmodel.Calibration) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s: a test glove's known calibration\nglove = %q\nsensors = %d\n", c.Name, c.Glove, c.Sensors)
	for _, s := range c.Sensor {
		fmt.Fprintf(&b, "\n[[sensor]]\nname = %q\noffset = %.17e\ngain = %.17e\n", s.Name, s.Offset, s.Gain)
	}
	return []byte(b.String())
}

// ReadingError is the most a held reading, the median of at least m
// samples, can be off its sensor's line: half a count of rounding (the
// median of rounded readings is within half a count of the median of the
// readings) plus six standard deviations of the median of m samples of
// Gaussian noise sigma, about 1.2533 sigma / sqrt(m).
func ReadingError(sigma float64, m int) float64 {
	return 0.5 + 6*1.2533*sigma/math.Sqrt(float64(m))
}

// KnownFor returns the calibration of a test glove of layout l (not a
// CyberGlove's: Known is): the driver's shipped calibration with each
// channel the calibration poses pin moved: its offset 9 counts up or down
// (at least 1 + 6 sigma from 0) and, where the poses pin it at two angles
// or more, its gain 1.3 times larger, or as much larger as keeps every
// pose's readings, with noise of sigma counts, inside the 8-bit counts'
// range 0..255. A channel pinned at one angle only keeps its gain (a fit
// can only find its offset), and one no pose pins is the shipped one.
func KnownFor(l *devices.Layout, sigma float64) (*handmodel.Calibration, error) {
	c, err := handmodel.DefaultCalibrationFor(l)
	if err != nil {
		return nil, err
	}
	c.Name = "known-" + l.Name
	margin := 1 + 6*sigma
	for i := range c.Sensor {
		targets := Targets(l, i)
		if len(targets) == 0 {
			continue
		}
		s := &c.Sensor[i]
		s.Offset = min(max(s.Offset+[]float64{9, -9}[i%2], margin), 255-margin)
		if slices.Min(targets) == slices.Max(targets) {
			continue
		}
		g := 1.3 * math.Abs(s.Gain)
		for _, a := range targets { // the reading is offset + a/gain
			switch a *= math.Copysign(1, s.Gain); {
			case a > 0:
				g = max(g, 1.05*a/(255-margin-s.Offset))
			case a < 0:
				g = max(g, 1.05*-a/(s.Offset-margin))
			}
		}
		s.Gain = math.Copysign(g, s.Gain)
	}
	return c, nil
}

// Targets returns the angles at which the calibration poses pin channel
// i of a glove of layout l, in the poses' order.
func Targets(l *devices.Layout, i int) []float64 {
	var out []float64
	for _, p := range handmodel.CalPoses {
		if a, pins := p.Targets(l); pins&(1<<i) != 0 {
			out = append(out, a[i])
		}
	}
	return out
}

// Check fails tb for every sensor of got whose offset or gain is further
// from known's than a least-squares fit can be when each held reading is
// within eps counts of the sensor's line (handmodel.FitError over the
// calibration poses that pin the sensor), and for every sensor where the
// shipped default would pass the same check (then writing the default
// would pass). A sensor the poses pin at one angle only must have kept
// the default's gain, its offset within eps; one they do not pin, the
// default's offset and gain.
func Check(tb testing.TB, got, known *handmodel.Calibration, eps float64) {
	tb.Helper()
	l := known.Layout()
	def, err := handmodel.DefaultCalibrationFor(l)
	if err != nil {
		tb.Fatal(err)
	}
	if got.Sensors != known.Sensors {
		tb.Fatalf("%d sensors, want %d", got.Sensors, known.Sensors)
	}
	for i, w := range known.Sensor {
		g, d, targets := got.Sensor[i], def.Sensor[i], Targets(l, i)
		dOff, dGain := eps, 1e-6
		switch {
		case len(targets) == 0:
			dOff = 1e-3
		case slices.Min(targets) < slices.Max(targets):
			dOff, dGain = handmodel.FitError(targets, w.Gain, eps)
		}
		if g.Name != w.Name || math.Abs(g.Offset-w.Offset) > dOff || math.Abs(g.Gain-w.Gain) > dGain*math.Abs(w.Gain) {
			tb.Errorf("%s: offset %.2f gain %.6f, want %.2f ± %.2f and %.6f ± %.1f%%", w.Name, g.Offset, g.Gain, w.Offset, dOff, w.Gain, 100*dGain)
		}
		if len(targets) > 0 && math.Abs(d.Offset-w.Offset) <= dOff && math.Abs(d.Gain-w.Gain) <= dGain*math.Abs(w.Gain) {
			tb.Errorf("%s: the known calibration is within the tolerance of the shipped default", w.Name)
		}
	}
}
