package layout

import (
	"testing"

	"github.com/gloved/gloved/devices"
)

// TestSlotsRoundTrip: a sample's slots are what it was filled from, less
// the DIP sensors an 18-sensor glove does not have.
func TestSlotsRoundTrip(t *testing.T) {
	var in [Slots]uint16
	for k := range in {
		in[k] = uint16(10 + k)
	}
	dip := map[int]bool{IndexDIP: true, MiddleDIP: true, RingDIP: true, LittleDIP: true}
	for _, n := range []int{18, 22} {
		var s devices.Sample
		FromSlots(&in, n, &s)
		if s.N != n || len(s.Sensors()) != n {
			t.Fatalf("%d sensors: sample has %d", n, s.N)
		}
		var out [Slots]uint16
		ToSlots(&s, &out)
		for k := range out {
			want := in[k]
			if n == 18 && dip[k] {
				want = 0
			}
			if out[k] != want {
				t.Errorf("%d sensors, slot %d: got %d, want %d", n, k, out[k], want)
			}
		}
	}
	if Check(18) != nil || Check(22) != nil || Check(20) == nil {
		t.Error("Check: 18 and 22 are the sensor counts")
	}
}

// TestLayoutsNameTheSlotsInTheGlovesOrder: each layout checks, has the
// glove's sensors in order at its resolution, and ships its calibration.
func TestLayoutsNameTheSlotsInTheGlovesOrder(t *testing.T) {
	for _, bits := range []uint8{devices.Bits8, devices.Bits12} {
		for _, n := range []int{18, 22} {
			l, err := For(n, bits)
			if err != nil {
				t.Fatal(err)
			}
			if err := l.Check(); err != nil {
				t.Fatal(err)
			}
			if len(l.Sensors) != n || l.Bits != bits || len(l.Calibration) == 0 || len(l.Angles) != 0 {
				t.Fatalf("%d sensors at %d bits: got %s with %d sensors, %d bits, %d angles", n, bits, l.Name, len(l.Sensors), l.Bits, len(l.Angles))
			}
			for i, c := range l.Sensors {
				if c.Name != Name(n, i) || len(c.Joints) == 0 {
					t.Errorf("%s: sensor %d is %q moving %v, want %q", l.Name, i, c.Name, c.Joints, Name(n, i))
				}
			}
		}
	}
	if _, err := For(20, devices.Bits8); err == nil {
		t.Error("For(20): a layout of 20 sensors")
	}
}
