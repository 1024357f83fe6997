package devices

import "testing"

// TestSlotsRoundTrip: a sample's slots are what it was filled from, less
// the DIP sensors an 18-sensor glove does not have.
func TestSlotsRoundTrip(t *testing.T) {
	var in [MaxSensors]uint16
	for k := range in {
		in[k] = uint16(10 + k)
	}
	dip := map[int]bool{SensorIndexDIP: true, SensorMiddleDIP: true, SensorRingDIP: true, SensorLittleDIP: true}
	for _, n := range []int{18, 22} {
		var s Sample
		FromSlots(&in, n, &s)
		if s.N != n || len(s.Sensors()) != n {
			t.Fatalf("%d sensors: sample has %d", n, s.N)
		}
		var out [MaxSensors]uint16
		s.Slots(&out)
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
	if CheckSensors(18) != nil || CheckSensors(22) != nil || CheckSensors(20) == nil {
		t.Error("CheckSensors: 18 and 22 are the sensor counts")
	}
}
