package handmodel

import (
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/cyberglove/layout"
	"github.com/gloved/gloved/devices/sim"
)

func TestDefaultCalibrationsLoad(t *testing.T) {
	for _, n := range []int{18, 22} {
		c, err := DefaultCalibration(n)
		if err != nil {
			t.Fatal(err)
		}
		if c.Sensors != n || len(c.Sensor) != n || !strings.Contains(c.Text, "[[sensor]]") {
			t.Fatalf("%d: %+v", n, c)
		}
	}
	if _, err := DefaultCalibration(20); err == nil {
		t.Error("no default for 20 sensors")
	}
}

func calText(edit func(string) string) []byte {
	c, _ := DefaultCalibration(22)
	return []byte(edit(c.Text))
}

func TestCalibrationErrorsNameTheKey(t *testing.T) {
	tests := []struct {
		name string
		text []byte
		says string
	}{
		{"unknown key", calText(func(s string) string { return strings.Replace(s, "gain = 0.0085", "gian = 0.0085", 1) }), "unknown key sensor.gian"},
		{"syntax", calText(func(s string) string { return strings.Replace(s, "sensors = 22", "sensors = = 22", 1) }), "line 17"},
		{"order", calText(func(s string) string { return strings.Replace(s, `name = "index_pip"`, `name = "index_dip"`, 1) }), `sensor[5].name = "index_dip": sensor 6 of a 22-sensor glove is "index_pip"`},
		{"count", calText(func(s string) string { return strings.Replace(s, "sensors = 22", "sensors = 18", 1) }), "22 [[sensor]] entries for sensors = 18"},
		{"bad count", calText(func(s string) string { return strings.Replace(s, "sensors = 22", "sensors = 5", 1) }), "sensors = 5"},
		{"nan", calText(func(s string) string { return strings.Replace(s, "gain = 0.006", "gain = nan", 1) }), "sensor[0] (thumb_roll): offset and gain must be finite"},
		{"table order", calText(func(s string) string {
			return strings.Replace(s, "gain = 0.006", "gain = 0.006\ntable = [[10.0, 0.0], [5.0, 1.0]]", 1)
		}), "sensor[0].table[1] (thumb_roll): raw 5 does not increase"},
	}
	for _, tc := range tests {
		_, err := ParseCalibration("my.toml", tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.says) || !strings.Contains(err.Error(), "my.toml") {
			t.Errorf("%s: got %v, want an error naming my.toml and saying %q", tc.name, err, tc.says)
		}
	}
}

func TestSensorCalTable(t *testing.T) {
	c := SensorCal{Table: [][2]float64{{10, 0}, {110, 1}, {210, 1.5}}}
	for _, tc := range []struct{ raw, want float64 }{{10, 0}, {60, 0.5}, {110, 1}, {160, 1.25}, {0, -0.1}, {260, 1.75}} {
		if got := c.Angle(tc.raw); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("raw %v: got %v, want %v", tc.raw, got, tc.want)
		}
	}
	lin := SensorCal{Offset: 30, Gain: 0.01}
	if got := lin.Angle(130); math.Abs(got-1) > 1e-12 {
		t.Errorf("linear: got %v", got)
	}
}

func TestSensorsToJoints(t *testing.T) {
	c22, _ := DefaultCalibration(22)
	c18, _ := DefaultCalibration(18)
	var s devices.Sample
	s.N = 22
	for i := range s.Raw[:22] {
		s.Raw[i] = 30
	}
	// index PIP 130 raw -> 0.85 rad; abduction sensors 128 + 50 -> 0.2 rad
	s.Raw[layout.IndexPIP] = 130
	s.Raw[layout.MiddleIndexAbduction] = 178
	s.Raw[layout.RingMiddleAbduction] = 153
	s.Raw[layout.LittleRingAbduction] = 153
	for _, k := range []int{layout.ThumbRoll, layout.ThumbAbduction, layout.WristPitch, layout.WristYaw} {
		s.Raw[k] = 128
	}
	s.Raw[layout.PalmArch] = 60
	var q Angles
	if err := c22.Angles(&s, &DefaultLimits, &q); err != nil {
		t.Fatal(err)
	}
	if math.Abs(q[IndexPIP]-0.85) > 1e-12 || math.Abs(q[IndexAbduction]-0.2) > 1e-12 ||
		q[MiddleAbduction] != 0 || math.Abs(q[RingAbduction]+0.1) > 1e-12 || math.Abs(q[LittleAbduction]+0.2) > 1e-12 {
		t.Errorf("joints %v", q)
	}
	// The same hand through an 18-sensor glove: DIP is 2/3 of PIP.
	var s18 devices.Sample
	var slots [layout.Slots]uint16
	copy(slots[:], s.Raw[:])
	layout.FromSlots(&slots, 18, &s18)
	if err := c18.Angles(&s18, &DefaultLimits, &q); err != nil {
		t.Fatal(err)
	}
	if math.Abs(q[IndexDIP]-2.0/3*0.85) > 1e-12 {
		t.Errorf("18-sensor index DIP %v, want %v", q[IndexDIP], 2.0/3*0.85)
	}
	// The same hand through a CyberGlove III: its 12-bit readings, sixteen
	// to the count, give the same angles, and a step of the low bits moves
	// a joint by a sixteenth of a count's angle.
	s12 := s
	s12.Bits = devices.Bits12
	for i := range s12.Raw[:22] {
		s12.Raw[i] *= 16
	}
	var q12 Angles
	c22.Angles(&s, &DefaultLimits, &q)
	if err := c22.Angles(&s12, &DefaultLimits, &q12); err != nil || q12 != q {
		t.Errorf("12-bit readings: %v %v, want the 8-bit angles %v", err, q12, q)
	}
	s12.Raw[layout.IndexPIP]++
	c22.Angles(&s12, &DefaultLimits, &q12)
	if step, gain := q12[IndexPIP]-q[IndexPIP], c22.Sensor[layout.IndexPIP].Gain; math.Abs(step-gain/16) > 1e-15 {
		t.Errorf("one 12-bit step moved index PIP by %v rad, want %v", step, gain/16)
	}
	// Clamping: a huge reading stops at the joint's limit.
	s.Raw[layout.IndexMCP] = 254
	c22.Angles(&s, &DefaultLimits, &q)
	if q[IndexMCP] != DefaultLimits[IndexMCP].Max {
		t.Errorf("index MCP %v not clamped to %v", q[IndexMCP], DefaultLimits[IndexMCP].Max)
	}
	s.N = 18
	if err := c22.Angles(&s, &DefaultLimits, &q); err == nil {
		t.Error("an 18-sensor sample through a 22-sensor calibration must fail")
	}
}

// TestSimulatedGlovePosesSanely drives the hand from the simulated glove
// through the default calibration: every angle within its limits, every
// link transform finite.
func TestSimulatedGlovePosesSanely(t *testing.T) {
	h := mustHand(t, DefaultParams)
	for _, n := range []int{18, 22} {
		c, _ := DefaultCalibration(n)
		for _, m := range sim.Motions {
			g, err := sim.New(m, n, 10*time.Millisecond, true)
			if err != nil {
				t.Fatal(err)
			}
			var s devices.Sample
			var q Angles
			out := make([]geomTransform, h.NumLinks())
			for range 600 {
				g.Read(&s)
				if err := c.Angles(&s, &h.Limits, &q); err != nil {
					t.Fatal(err)
				}
				for j, v := range q {
					if v < h.Limits[j].Min || v > h.Limits[j].Max {
						t.Fatalf("%s %d: %v = %v outside limits", m, n, Joint(j), v)
					}
				}
				h.Pose(&q, identity(), out)
				for _, x := range out {
					if !finiteTransform(x) {
						t.Fatalf("%s: non-finite link transform", m)
					}
				}
			}
		}
	}
}

// TestACalibrationForAnotherGloveSaysSo: a calibration whose glove key
// names a glove none of the layouts is (an OpenGloves calibration for a
// CyberGlove; a CyberGlove's for a glove that measures joint angles) says
// that, not only that its sensor count is wrong.
func TestACalibrationForAnotherGloveSaysSo(t *testing.T) {
	og, err := os.ReadFile("../configs/calibration-opengloves.toml")
	if err != nil {
		t.Fatal(err)
	}
	_, err = ParseCalibration("og.toml", og)
	if want := `glove = "opengloves": this calibration is for another glove than this one (cyberglove-18 or cyberglove-22)`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("an OpenGloves calibration for a CyberGlove: %v, want %q", err, want)
	}
	angles := &devices.Layout{Name: "tracker-joints", Bits: devices.Bits8}
	_, err = ParseCalibrationFor("22.toml", calText(func(s string) string { return s }), angles)
	if want := `glove = "cyberglove": this calibration is for another glove, and this one (tracker-joints) measures joint angles itself: it takes no calibration, leave it out`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("a CyberGlove calibration for a tracker: %v, want %q", err, want)
	}
	// A file of its glove, with a sensor count it has not, still says the count.
	_, err = ParseCalibration("20.toml", calText(func(s string) string { return strings.Replace(s, "sensors = 22", "sensors = 20", 1) }))
	if err == nil || !strings.Contains(err.Error(), "sensors = 20: want 18 or 22") {
		t.Errorf("20 sensors: %v", err)
	}
}
