package calibratortest

import (
	"fmt"
	"math"
	"strings"
	"testing"

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

// Check fails tb for every sensor of got whose offset or gain is further
// from known's than a least-squares fit can be when each held reading is
// within eps counts of the sensor's line (handmodel.FitError over the
// calibration poses that pin the sensor), and for every sensor where the
// shipped default would pass the same check (then writing the default
// would pass).
func Check(tb testing.TB, got, known *handmodel.Calibration, eps float64) {
	tb.Helper()
	def, err := handmodel.DefaultCalibration(known.Sensors)
	if err != nil {
		tb.Fatal(err)
	}
	if got.Sensors != known.Sensors {
		tb.Fatalf("%d sensors, want %d", got.Sensors, known.Sensors)
	}
	for i, w := range known.Sensor {
		k := layout.Slot(known.Sensors, i)
		var targets []float64
		for _, p := range handmodel.CalPoses {
			if p.Pinned(k) {
				targets = append(targets, p.Angle[k])
			}
		}
		dOff, dGain := handmodel.FitError(targets, w.Gain, eps)
		if g := got.Sensor[i]; g.Name != w.Name || math.Abs(g.Offset-w.Offset) > dOff || math.Abs(g.Gain/w.Gain-1) > dGain {
			tb.Errorf("%s: offset %.2f gain %.6f, want %.2f ± %.2f and %.6f ± %.1f%%", w.Name, g.Offset, g.Gain, w.Offset, dOff, w.Gain, 100*dGain)
		}
		if d := def.Sensor[i]; math.Abs(d.Offset-w.Offset) <= dOff && math.Abs(d.Gain/w.Gain-1) <= dGain {
			tb.Errorf("%s: the known calibration is within the tolerance of the shipped default", w.Name)
		}
	}
}
