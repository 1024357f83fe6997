package animation

import (
	"math"
	"slices"
	"testing"
	"time"
)

const ms = time.Millisecond

// TestKeyTimes: stamps that rise are kept, in seconds from the first
// frame; repeats are spread evenly up to the next stamp (the last run at
// the spacing before it, or FallbackStep); a step back reads as a repeat
// of the latest stamp; and every time is after the one before, in single
// precision.
func TestKeyTimes(t *testing.T) {
	tests := []struct {
		name  string
		stamp []time.Duration
		want  []float64 // seconds
	}{
		{"rising, from the first frame", []time.Duration{2 * time.Second, 2*time.Second + 10*ms, 2*time.Second + 25*ms}, []float64{0, 0.010, 0.025}},
		{"one frame", []time.Duration{time.Hour}, []float64{0}},
		{"a chunk's three samples share its stamp", []time.Duration{0, 30 * ms, 30 * ms, 30 * ms, 60 * ms}, []float64{0, 0.030, 0.040, 0.050, 0.060}},
		{"the last run takes the spacing before it", []time.Duration{0, 10 * ms, 40 * ms, 40 * ms, 40 * ms}, []float64{0, 0.010, 0.040, 0.040 + 0.030, 0.040 + 2*0.030}},
		{"all one stamp", []time.Duration{5 * ms, 5 * ms, 5 * ms}, []float64{0, FallbackStep.Seconds(), 2 * FallbackStep.Seconds()}},
		{"a step back repeats the latest", []time.Duration{0, 40 * ms, 10 * ms, 20 * ms, 80 * ms}, []float64{0, 0.040, 0.040 + (0.080-0.040)/3, 0.040 + 2*((0.080-0.040)/3), 0.080}},
		{"starts before its first frame", []time.Duration{50 * ms, 0, 60 * ms}, []float64{0, 0.005, 0.010}},
	}
	for _, tc := range tests {
		got := keyTimes(tc.stamp)
		want := make([]float32, len(tc.want))
		for i, s := range tc.want {
			want[i] = float32(s)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, want)
		}
	}
}

// TestKeyTimesStayIncreasingInSinglePrecision: stamps a nanosecond apart
// after a day round to one float32; each is then one float32 step after
// the one before.
func TestKeyTimesStayIncreasingInSinglePrecision(t *testing.T) {
	day := 24 * time.Hour
	got := keyTimes([]time.Duration{0, day, day + 1, day + 2})
	for i := 1; i < len(got); i++ {
		if !(got[i] > got[i-1]) {
			t.Fatalf("key %d at %v s is not after %v s", i, got[i], got[i-1])
		}
	}
	if got[2] != math.Nextafter32(got[1], math.MaxFloat32) || got[3] != math.Nextafter32(got[2], math.MaxFloat32) {
		t.Errorf("got %v: want consecutive float32s after %v", got, got[1])
	}
}
