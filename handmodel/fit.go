package handmodel

import (
	"fmt"
	"math"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/geom"
)

// DefaultMinSpan is the least change of an 8-bit reading, in counts,
// between the poses that pin a sensor for its gain to be fitted: less, and
// a count is worth more than 2 degrees over a full motion, which no
// working sensor shows.
const DefaultMinSpan = 10

// Held is what the user held for one calibration pose: the pose and each
// sensor's reading, in the glove's order (the median over the hold).
type Held struct {
	Pose *CalPose
	Raw  [devices.MaxReadings]float64
	// Saturated has bit i set when sensor i read the end of its range
	// (the angle is somewhere beyond it): that reading is left out.
	Saturated uint64
}

// FitPoint is one pose's evidence for one sensor's line.
type FitPoint struct {
	Pose     string
	Raw      float64 // the held reading
	Target   float64 // the pose's angle for the sensor, radians
	Residual float64 // fitted angle at Raw minus Target, radians
}

// SensorFit says where one sensor's offset and gain came from.
type SensorFit struct {
	Cal    SensorCal
	Points []FitPoint // the poses that pin the sensor, in the order held
	// Saturated names the poses that pin the sensor but whose reading
	// was at the end of its range, left out of Points.
	Saturated []string
	// Fallback is empty when offset and gain were fitted; otherwise it
	// says why the gain is the fallback calibration's (and, with no
	// point at all, the offset too).
	Fallback string
	RMS      float64 // root-mean-square residual over Points, radians
	Worst    int     // index in Points of the largest residual (-1: none)
}

// Reversed reports whether the fitted gain's sign is the fallback's
// opposite: the reading falls as the joint bends toward positive angles.
func (f *SensorFit) Reversed(fallback *SensorCal) bool {
	return f.Fallback == "" && math.Signbit(f.Cal.Gain) != math.Signbit(linearGain(fallback))
}

// FitCalibration fits each sensor of a glove of def's layout by least
// squares: the line raw = offset + angle/gain through its held readings
// against the angles at which the poses pin it (CalPose.Targets; the reading is
// the noisy one, so the residuals are minimised in counts). A sensor whose
// readings moved less than minSpan counts between the poses that pin it,
// or that the poses pin at one angle only, keeps def's gain and is fitted
// its offset alone (the mean of raw - angle/gain); one that no pose pins
// keeps def's offset and gain. Both are reported in its Fallback. A
// reading marked saturated is left out (and named in Saturated).
func FitCalibration(held []Held, def *Calibration, minSpan float64) (*Calibration, []SensorFit, error) {
	if def == nil || def.jmap == nil || len(def.Sensor) != def.Sensors || def.Sensors != len(def.Layout().Sensors) {
		return nil, nil, fmt.Errorf("handmodel: fit: the fallback calibration must be a whole one, read for its glove's layout")
	}
	for _, h := range held {
		for i := range def.Sensors {
			if !geom.Finite(h.Raw[i]) {
				return nil, nil, fmt.Errorf("handmodel: fit: pose %s: sensor %s read %v", h.Pose.Name, def.Sensor[i].Name, h.Raw[i])
			}
		}
	}
	n := def.Sensors
	c := &Calibration{Glove: def.Glove, Sensors: n, Sensor: make([]SensorCal, n), Name: "fitted", jmap: def.jmap}
	fits := make([]SensorFit, n)
	targets := make([][devices.MaxReadings]float64, len(held))
	pins := make([]uint64, len(held))
	for k, h := range held {
		targets[k], pins[k] = h.Pose.Targets(def.Layout())
	}
	for i := range n {
		f := &fits[i]
		for k, h := range held {
			switch {
			case pins[k]&(1<<i) == 0:
			case h.Saturated&(1<<i) != 0:
				f.Saturated = append(f.Saturated, h.Pose.Name)
			default:
				f.Points = append(f.Points, FitPoint{Pose: h.Pose.Name, Raw: h.Raw[i], Target: targets[k][i]})
			}
		}
		fitSensor(f, &def.Sensor[i], minSpan)
		f.Cal.Name = def.Sensor[i].Name
		c.Sensor[i] = f.Cal
	}
	return c, fits, nil
}

// fitSensor fits one sensor's points, falling back on def's gain.
func fitSensor(f *SensorFit, def *SensorCal, minSpan float64) {
	f.Worst = -1
	if len(f.Points) == 0 {
		f.Cal = SensorCal{Offset: def.Offset, Gain: linearGain(def)}
		f.Fallback = "no pose pins it: offset and gain kept from the fallback calibration"
		return
	}
	var mt, mr float64
	lo, hi := math.Inf(1), math.Inf(-1)
	tlo, thi := math.Inf(1), math.Inf(-1)
	for _, p := range f.Points {
		mt, mr = mt+p.Target, mr+p.Raw
		lo, hi = min(lo, p.Raw), max(hi, p.Raw)
		tlo, thi = min(tlo, p.Target), max(thi, p.Target)
	}
	m := float64(len(f.Points))
	mt, mr = mt/m, mr/m
	var stt, str float64
	for _, p := range f.Points {
		stt += (p.Target - mt) * (p.Target - mt)
		str += (p.Target - mt) * (p.Raw - mr)
	}
	switch {
	case thi-tlo < minTargetSpan:
		f.Fallback = fmt.Sprintf("the poses pin it at %.0f degrees only: gain kept from the fallback calibration", tlo*180/math.Pi)
	case hi-lo < minSpan:
		f.Fallback = fmt.Sprintf("its reading moved %.1f counts over %.0f degrees (less than %g): gain kept from the fallback calibration",
			hi-lo, (thi-tlo)*180/math.Pi, minSpan)
	default:
		slope := str / stt // counts per radian
		f.Cal = SensorCal{Offset: mr - slope*mt, Gain: 1 / slope}
	}
	if f.Fallback != "" {
		g := linearGain(def)
		var off float64
		for _, p := range f.Points {
			off += p.Raw
			if g != 0 {
				off -= p.Target / g
			}
		}
		f.Cal = SensorCal{Offset: off / m, Gain: g}
	}
	var ss, worst float64
	for j := range f.Points {
		p := &f.Points[j]
		p.Residual = f.Cal.Angle(p.Raw) - p.Target
		ss += p.Residual * p.Residual
		if math.Abs(p.Residual) >= worst {
			worst, f.Worst = math.Abs(p.Residual), j
		}
	}
	f.RMS = math.Sqrt(ss / m)
}

// FitError bounds how far the offset (counts) and gain (relative) that
// FitCalibration fits to a sensor held at the target angles can be from
// the sensor's true line, when every held reading is within eps counts of
// it (quantisation, noise): the least-squares slope, in counts per radian,
// moves by at most eps*sum|t-mean t|/sum(t-mean t)^2 and the intercept
// by eps plus |mean t| times that. The gain is the slope's inverse.
func FitError(targets []float64, gain, eps float64) (offset, gainRel float64) {
	var mt, stt, sat float64
	for _, t := range targets {
		mt += t
	}
	mt /= float64(len(targets))
	for _, t := range targets {
		stt += (t - mt) * (t - mt)
		sat += math.Abs(t - mt)
	}
	dk := eps * sat / stt
	rel := dk * math.Abs(gain) // relative error of the slope 1/gain
	return eps + math.Abs(mt)*dk, rel / (1 - rel)
}

// minTargetSpan is the least spread of a sensor's target angles (radians,
// 1 degree) that can give a gain.
const minTargetSpan = math.Pi / 180

// linearGain is a sensor calibration's gain: its own, or for a table the
// slope between the table's ends.
func linearGain(c *SensorCal) float64 {
	if t := c.Table; len(t) >= 2 {
		a, b := t[0], t[len(t)-1]
		return (b[1] - a[1]) / (b[0] - a[0])
	}
	return c.Gain
}
