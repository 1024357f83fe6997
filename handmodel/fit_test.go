package handmodel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gloved/gloved/devices/cyberglove/layout"
)

// heldThrough returns what a glove calibrated by c reads in each pose,
// exactly (no quantisation), plus jitter(pose, sensor) counts.
func heldThrough(t *testing.T, c *Calibration, jitter func(p, i int) float64) []Held {
	t.Helper()
	held := make([]Held, len(CalPoses))
	for p := range CalPoses {
		var slots [layout.Slots]float64
		if err := c.Readings(&CalPoses[p].Angle, &slots); err != nil {
			t.Fatal(err)
		}
		held[p].Pose = &CalPoses[p]
		for i := range c.Sensors {
			held[p].Raw[i] = slots[layout.Slot(c.Sensors, i)] + jitter(p, i)
		}
	}
	return held
}

// randomCalibration is the default with every offset moved by up to ±20
// counts and every gain scaled by 0.7-1.4, its sign flipped where flip says.
func randomCalibration(t *testing.T, r *rand.Rand, n int, flip func(k int) bool) *Calibration {
	t.Helper()
	c, err := DefaultCalibration(n)
	if err != nil {
		t.Fatal(err)
	}
	for i := range c.Sensor {
		s := &c.Sensor[i]
		s.Offset += 40*r.Float64() - 20
		s.Gain *= 0.7 + 0.7*r.Float64()
		if flip(layout.Slot(n, i)) {
			s.Gain = -s.Gain
		}
	}
	return c
}

func noFlip(int) bool { return false }

// isSpreadOrYaw: the sensors whose sign a left glove may flip.
func isSpreadOrYaw(k int) bool {
	switch k {
	case layout.ThumbAbduction, layout.MiddleIndexAbduction, layout.RingMiddleAbduction,
		layout.LittleRingAbduction, layout.WristYaw:
		return true
	}
	return false
}

// TestFitRecoversAnExactCalibration: readings made through a random
// calibration (gains of either sign, as a left glove's may be) give it
// back, for 18 and 22 sensors, with no residual and no fallback.
func TestFitRecoversAnExactCalibration(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for trial := range 50 {
		n := []int{18, 22}[trial%2]
		flip := noFlip
		if trial%4 >= 2 {
			flip = isSpreadOrYaw
		}
		want := randomCalibration(t, r, n, flip)
		def, _ := DefaultCalibration(n)
		got, fits, err := FitCalibration(heldThrough(t, want, func(int, int) float64 { return 0 }), def, DefaultMinSpan)
		if err != nil {
			t.Fatal(err)
		}
		for i, w := range want.Sensor {
			g, f := got.Sensor[i], fits[i]
			if g.Name != w.Name || math.Abs(g.Offset-w.Offset) > 1e-9 || math.Abs(g.Gain/w.Gain-1) > 1e-9 || f.Fallback != "" || f.RMS > 1e-9 {
				t.Fatalf("trial %d, %s: got %+v (%s, rms %g), want offset %v gain %v", trial, w.Name, g, f.Fallback, f.RMS, w.Offset, w.Gain)
			}
			if f.Reversed(&def.Sensor[i]) != (w.Gain < 0) {
				t.Errorf("trial %d, %s: reversed %v for gain %v", trial, w.Name, f.Reversed(&def.Sensor[i]), w.Gain)
			}
		}
		if _, err := ParseCalibration("fitted.toml", []byte(calibrationTOML(got))); err != nil {
			t.Fatal(err)
		}
	}
}

// calibrationTOML writes c plainly, to check it loads.
func calibrationTOML(c *Calibration) string {
	var b strings.Builder
	fmt.Fprintf(&b, "glove = %q\nsensors = %d\n", c.Glove, c.Sensors)
	for _, s := range c.Sensor {
		fmt.Fprintf(&b, "[[sensor]]\nname = %q\noffset = %.17e\ngain = %.17e\n", s.Name, s.Offset, s.Gain)
	}
	return b.String()
}

// TestFitIsLeastSquares: with noisy readings the fitted line's count
// residuals e = raw - (offset + angle/gain) are orthogonal to 1 and to the
// angles (the normal equations), the defining property of least squares,
// and the reported angle residuals are the fitted angle minus the target.
func TestFitIsLeastSquares(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	for trial := range 20 {
		n := []int{18, 22}[trial%2]
		want := randomCalibration(t, r, n, noFlip)
		def, _ := DefaultCalibration(n)
		_, fits, err := FitCalibration(heldThrough(t, want, func(int, int) float64 { return 6*r.Float64() - 3 }), def, DefaultMinSpan)
		if err != nil {
			t.Fatal(err)
		}
		for i, f := range fits {
			var sum, sumT, ss float64
			for _, p := range f.Points {
				e := p.Raw - (f.Cal.Offset + p.Target/f.Cal.Gain)
				sum, sumT = sum+e, sumT+e*p.Target
				if d := f.Cal.Gain*(p.Raw-f.Cal.Offset) - p.Target; math.Abs(d-p.Residual) > 1e-12 {
					t.Fatalf("%s %s: residual %v, want %v", want.Sensor[i].Name, p.Pose, p.Residual, d)
				}
				ss += p.Residual * p.Residual
			}
			if math.Abs(sum) > 1e-9 || math.Abs(sumT) > 1e-9 || math.Abs(f.RMS-math.Sqrt(ss/float64(len(f.Points)))) > 1e-12 {
				t.Fatalf("%s: normal equations %g, %g (want 0), rms %v", want.Sensor[i].Name, sum, sumT, f.RMS)
			}
			if w := f.Points[f.Worst].Residual; math.Abs(w) < f.RMS-1e-12 {
				t.Fatalf("%s: worst residual %v below the rms %v", want.Sensor[i].Name, w, f.RMS)
			}
		}
	}
}

// TestFitFallsBackOnASensorThatDidNotMove: a dead sensor (the same reading
// in every pose) keeps the fallback gain, is fitted the offset that best
// explains its readings with it, and says why; a sensor no pose pins keeps
// the fallback altogether.
func TestFitFallsBackOnASensorThatDidNotMove(t *testing.T) {
	def, _ := DefaultCalibration(22)
	held := heldThrough(t, def, func(int, int) float64 { return 0 })
	for p := range held {
		held[p].Raw[layout.IndexPIP] = 77
	}
	got, fits, err := FitCalibration(held, def, DefaultMinSpan)
	if err != nil {
		t.Fatal(err)
	}
	f := fits[layout.IndexPIP]
	var mean float64
	for _, p := range f.Points {
		mean += 77 - p.Target/def.Sensor[layout.IndexPIP].Gain
	}
	mean /= float64(len(f.Points))
	if got.Sensor[layout.IndexPIP].Gain != def.Sensor[layout.IndexPIP].Gain || math.Abs(f.Cal.Offset-mean) > 1e-9 ||
		!strings.Contains(f.Fallback, "moved 0.0 counts over 100 degrees") {
		t.Errorf("dead index PIP: %+v, fallback %q; want the default gain, offset %v", f.Cal, f.Fallback, mean)
	}
	for i, f := range fits {
		if i != layout.IndexPIP && f.Fallback != "" {
			t.Errorf("%s fell back: %s", f.Cal.Name, f.Fallback)
		}
	}
	// Flat alone pins everything at one angle: offsets only.
	_, fits, _ = FitCalibration(held[:1], def, DefaultMinSpan)
	if f := fits[layout.WristYaw]; !strings.Contains(f.Fallback, "at 0 degrees only") || f.Cal.Offset != def.Sensor[layout.WristYaw].Offset {
		t.Errorf("flat only: wrist yaw %+v, %q", f.Cal, f.Fallback)
	}
	_, fits, _ = FitCalibration(nil, def, DefaultMinSpan)
	if f := fits[0]; !strings.Contains(f.Fallback, "no pose pins it") || f.Cal.Offset != def.Sensor[0].Offset || f.Worst != -1 {
		t.Errorf("no poses: %+v", f)
	}
}

func TestFitRefusesWhatItCannotUse(t *testing.T) {
	def, _ := DefaultCalibration(22)
	held := heldThrough(t, def, func(int, int) float64 { return 0 })
	held[1].Raw[3] = math.NaN()
	if _, _, err := FitCalibration(held, def, DefaultMinSpan); err == nil || !strings.Contains(err.Error(), "pose fist: sensor thumb_abduction read NaN") {
		t.Errorf("NaN reading: %v", err)
	}
	if _, _, err := FitCalibration(nil, &Calibration{Sensors: 20}, DefaultMinSpan); err == nil {
		t.Error("a 20-sensor fallback was accepted")
	}
}

// TestReadingsInvertsTheCalibration: the readings Readings gives turn back
// into the angles they were made from, and a table calibration is refused.
func TestReadingsInvertsTheCalibration(t *testing.T) {
	c, _ := DefaultCalibration(18)
	fist, _ := FindCalPose("fist")
	var slots [layout.Slots]float64
	if err := c.Readings(&fist.Angle, &slots); err != nil {
		t.Fatal(err)
	}
	for i := range c.Sensors {
		k := layout.Slot(18, i)
		if got := c.Sensor[i].Angle(slots[k]); math.Abs(got-fist.Angle[k]) > 1e-12 {
			t.Errorf("%s: %v back as %v", c.Sensor[i].Name, fist.Angle[k], got)
		}
	}
	if slots[layout.IndexDIP] != 0 {
		t.Errorf("an 18-sensor glove's DIP slot was filled: %v", slots[layout.IndexDIP])
	}
	c.Sensor[2].Table = [][2]float64{{0, 0}, {100, 1}}
	if err := c.Readings(&fist.Angle, &slots); err == nil || !strings.Contains(err.Error(), "thumb_ip") {
		t.Errorf("table: %v", err)
	}
}

// A glove read flat, in a fist and so on: each sensor's offset and gain
// are the line through its held readings against the poses' angles.
func ExampleFitCalibration() {
	def, _ := DefaultCalibration(22)
	var held []Held
	for i := range CalPoses {
		p := &CalPoses[i]
		h := Held{Pose: p}
		for k := range layout.Slots {
			// This user's glove reads 45 counts flat and 2 counts a degree.
			h.Raw[k] = 45 + 2*p.Angle[k]*180/math.Pi
		}
		held = append(held, h)
	}
	c, fits, err := FitCalibration(held, def, DefaultMinSpan)
	if err != nil {
		panic(err)
	}
	s, f := c.Sensor[layout.IndexMCP], fits[layout.IndexMCP]
	fmt.Printf("%s: offset %.1f, gain %.5f rad/count (%.1f degrees per count), from %d poses\n", s.Name, s.Offset, s.Gain, s.Gain*180/math.Pi, len(f.Points))
	// Output:
	// index_mcp: offset 45.0, gain 0.00873 rad/count (0.5 degrees per count), from 6 poses
}

// TestFitErrorBoundsTheFit: readings off their sensor's line by up to eps
// counts never move the fitted offset and gain beyond FitError's bound,
// and readings off by +eps or -eps, the sign of each target's distance
// from the mean, reach the gain's bound.
func TestFitErrorBoundsTheFit(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	def, _ := DefaultCalibration(22)
	const eps = 0.75
	for trial := range 40 {
		want := randomCalibration(t, r, 22, noFlip)
		worst := trial%2 == 1
		var sign [22]float64
		if worst { // +eps above the mean target, -eps below: the slope's worst case
			for i := range 22 {
				var sum float64
				var n int
				for p := range CalPoses {
					if CalPoses[p].Pinned(i) {
						sum, n = sum+CalPoses[p].Angle[i], n+1
					}
				}
				sign[i] = sum / float64(n)
			}
		}
		held := heldThrough(t, want, func(p, i int) float64 {
			if worst {
				return eps * math.Copysign(1, CalPoses[p].Angle[i]-sign[i])
			}
			return eps * (2*r.Float64() - 1)
		})
		_, fits, err := FitCalibration(held, def, DefaultMinSpan)
		if err != nil {
			t.Fatal(err)
		}
		for i, f := range fits {
			var targets []float64
			for _, p := range f.Points {
				targets = append(targets, p.Target)
			}
			w := want.Sensor[i]
			dOff, dGain := FitError(targets, w.Gain, eps)
			gotOff, gotGain := math.Abs(f.Cal.Offset-w.Offset), math.Abs(f.Cal.Gain/w.Gain-1)
			if gotOff > dOff+1e-9 || gotGain > dGain+1e-9 {
				t.Fatalf("trial %d, %s: off by %.3f counts and %.4f of the gain, bound %.3f and %.4f", trial, w.Name, gotOff, gotGain, dOff, dGain)
			}
			if worst && gotGain < 0.9*dGain*(1-dGain) {
				t.Errorf("trial %d, %s: the worst case reaches %.4f of the gain, bound %.4f", trial, w.Name, gotGain, dGain)
			}
		}
	}
}

// TestFitLeavesOutSaturatedReadings: a reading at the end of the range is
// left out and named; the sensor is fitted from the others.
func TestFitLeavesOutSaturatedReadings(t *testing.T) {
	def, _ := DefaultCalibration(22)
	held := heldThrough(t, def, func(int, int) float64 { return 0 })
	held[1].Raw[layout.IndexPIP], held[1].Saturated = 254, 1<<layout.IndexPIP
	_, fits, _ := FitCalibration(held, def, DefaultMinSpan)
	f := fits[layout.IndexPIP]
	if len(f.Saturated) != 1 || f.Saturated[0] != "fist" || !strings.Contains(f.Fallback, "at 0 degrees only") {
		t.Errorf("saturated fist: %+v", f)
	}
}
