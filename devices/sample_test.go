package devices

import "testing"

// TestCountsReadEveryResolutionInOneUnit: an 8-bit reading is its own
// count; a 12-bit one is a sixteenth of a count per step, exactly, so the
// ends of both ranges meet and nothing of the 12 bits is lost.
func TestCountsReadEveryResolutionInOneUnit(t *testing.T) {
	for _, tc := range []struct {
		bits uint8
		raw  uint16
		want float64
	}{
		{0, 1, 1}, {Bits8, 254, 254}, {Bits8, 128, 128},
		{Bits12, 16, 1}, {Bits12, 4064, 254}, {Bits12, 1, 0.0625}, {Bits12, 4094, 255.875}, {Bits12, 2049, 128.0625},
		{10, 4, 1}, {10, 1023, 255.75}, {6, 63, 252},
	} {
		s := Sample{N: 1, Bits: tc.bits}
		s.Raw[0] = tc.raw
		if got := s.Counts(0); got != tc.want {
			t.Errorf("%d bits, raw %d: got %v counts, want %v", tc.bits, tc.raw, got, tc.want)
		}
	}
}
