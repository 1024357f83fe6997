package handmodel

import (
	"math"
	"testing"

	"github.com/gloved/gloved/configs"
	"github.com/gloved/gloved/devices"
)

// FuzzParseCalibration: any bytes as a calibration give one or an error,
// never a panic; an accepted calibration turns any raw reading into finite
// angles.
func FuzzParseCalibration(f *testing.F) {
	for _, name := range []string{"calibration-18.toml", "calibration-22.toml"} {
		text, err := configs.Files.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(text, uint16(1))
	}
	f.Add([]byte("glove = \"cyberglove\"\nsensors = 18\n[[sensor]]\nname = \"thumb_roll\"\ntable = [[1, 0], [1, 1]]\n"), uint16(254))
	f.Fuzz(func(t *testing.T, text []byte, raw uint16) {
		c, err := ParseCalibration("fuzz.toml", text)
		if err != nil {
			return
		}
		s := devices.Sample{N: c.Sensors}
		for i := range s.N {
			s.Raw[i] = raw
		}
		var q Angles
		if err := c.Angles(&s, &DefaultLimits, &q); err != nil {
			return
		}
		for j, a := range q {
			if math.IsNaN(a) || math.IsInf(a, 0) {
				t.Fatalf("joint %d angle %v from raw %d", j, a, raw)
			}
		}
	})
}
