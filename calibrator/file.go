package calibrator

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gloved/gloved/handmodel"
)

// File returns the calibration as a file handmodel.LoadCalibrationFor
// reads for the glove's layout,
// with comments saying where each number came from: the date, the glove,
// the poses and how they were held, and per sensor the readings and
// angles its line was fitted to, its residual, and whether its gain is a
// fallback or runs backwards.
func (r *Result) File() ([]byte, error) {
	var b strings.Builder
	r.header(&b)
	fmt.Fprintf(&b, "glove = %q\nsensors = %d\n", r.Cal.Glove, r.Cal.Sensors)
	for i := range r.Cal.Sensor {
		r.sensor(&b, i)
	}
	text := []byte(b.String())
	if _, err := handmodel.ParseCalibrationFor("the fitted calibration", text, r.Cal.Layout()); err != nil {
		return nil, fmt.Errorf("calibrator: %w", err)
	}
	return text, nil
}

func (r *Result) header(b *strings.Builder) {
	g := r.Glove
	model := g.Model
	if model == "" {
		model = "cyberglove"
	}
	fmt.Fprintf(b, "# Per-user calibration of a %d-sensor %s-hand glove (%s),\n", g.Sensors, g.Hand(), model)
	fmt.Fprintf(b, "# fitted by `gloved calibrate` on %s\n", r.When.Format("2006-01-02 15:04:05 -0700"))
	b.WriteString(`# (gloved calibration format, version 1).
#
# Each [[sensor]] turns one raw reading into an angle in radians:
#   angle = gain * (raw - offset)
# offset and gain are the least-squares line through the sensor's held
# readings (the median of each hold) against the angles at which the
# poses hold it; "rms" is the root-mean-square difference, in degrees,
# between the fitted and the posed angles over those poses.
`)
	fmt.Fprintf(b, "# FALLBACK marks a sensor whose gain could not be fitted: it keeps the\n# gain of %s and its offset is fitted alone.\n#\n", r.Fallback.Name)
	fmt.Fprintf(b, "# Poses, each held %.1f s with the middle 90%% of every sensor's readings\n# within %.0f counts:\n", r.Hold.Seconds(), r.Still)
	for i, st := range r.Steps {
		fmt.Fprintf(b, "#   %d %-16s %4d samples", i+1, st.Pose.Name, st.Hold.Samples)
		if st.Attempts > 1 {
			fmt.Fprintf(b, ", held at attempt %d", st.Attempts)
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
}

func (r *Result) sensor(b *strings.Builder, i int) {
	f, c := &r.Fits[i], &r.Cal.Sensor[i]
	b.WriteString("\n[[sensor]]\n")
	if f.Fallback != "" {
		comment(b, "FALLBACK: "+f.Fallback+".")
	}
	if len(f.Points) > 0 {
		what := "fitted to (reading -> degrees)"
		if f.Fallback != "" {
			what = "offset from (reading -> degrees)"
		}
		units := strings.Fields(what)
		for j, p := range f.Points {
			sep := ","
			if j == len(f.Points)-1 {
				sep = ";"
			}
			units = append(units, fmt.Sprintf("%s %.1f -> %.0f%s", p.Pose, p.Raw, degrees(p.Target), sep))
		}
		w := f.Points[f.Worst]
		units = append(units, strings.Fields(fmt.Sprintf("rms %.1f degrees, worst %.1f in %s.", degrees(f.RMS), degrees(w.Residual), w.Pose))...)
		commentUnits(b, units)
	}
	if len(f.Saturated) > 0 {
		comment(b, fmt.Sprintf("Left out, the reading at the end of the sensor's range: %s.", strings.Join(f.Saturated, ", ")))
	}
	if f.Reversed(&r.Fallback.Sensor[i]) {
		comment(b, "The gain's sign is the fallback's opposite: the reading falls as the joint bends (as on a left glove whose abduction and wrist yaw sensors mirror).")
	}
	fmt.Fprintf(b, "name = %q\noffset = %s\ngain = %s\n", c.Name, number(c.Offset, 3), number(c.Gain, -6))
}

// comment writes text as comment lines of at most 78 characters.
func comment(b *strings.Builder, text string) { commentUnits(b, strings.Fields(text)) }

// commentUnits writes comment lines of at most 78 characters, breaking
// only between units.
func commentUnits(b *strings.Builder, units []string) {
	line := "#"
	for _, w := range units {
		if len(line)+1+len(w) > 78 && line != "#" {
			b.WriteString(line + "\n")
			line = "#  "
		}
		line += " " + w
	}
	b.WriteString(line + "\n")
}

// number formats v as a TOML float: with that many decimals, or, for a
// negative count, that many significant digits.
func number(v float64, digits int) string {
	var s string
	if digits >= 0 {
		s = strconv.FormatFloat(v, 'f', digits, 64)
	} else {
		s = strconv.FormatFloat(v, 'g', -digits, 64)
	}
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

func degrees(rad float64) float64 { return rad * 180 / math.Pi }
