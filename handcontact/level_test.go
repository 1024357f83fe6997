package handcontact

import (
	"testing"
	"time"
)

// TestCostsFollowTheFrames: a pessimistic measurement (the hands
// superimposed) does not keep the hands at a limit once they part: a
// frame the limit did not stop did all a full one would have, so it
// teaches full depth's cost too, and Choose returns to full depth. A
// frame the limit stopped teaches only its level. (Times are given, not
// measured: this is the bookkeeping.)
func TestCostsFollowTheFrames(t *testing.T) {
	d := &Detector{levels: 5, costs: make([]float64, 6)} // five levels and full depth
	for k := range d.costs {
		d.costs[k] = float64((k + 1) * 1000) // 1 us at the root .. 6 us full
	}
	d.Limited = true
	for range 50 {
		d.observe(2, 500*time.Nanosecond)
	}
	if d.Cost(-1) != 6*time.Microsecond || d.Cost(2) > 600*time.Nanosecond {
		t.Fatalf("limited frames at level 2: full %v, level 2 %v; want full untouched, level 2 near 0.5 us", d.Cost(-1), d.Cost(2))
	}
	if got := d.Choose(2 * time.Microsecond); got != 2 {
		t.Fatalf("Choose(2us) = %d, want 2 (levels 3-4 cost more, level 2 now 0.5 us)", got)
	}
	d.Limited = false
	for range 50 {
		d.observe(0, 300*time.Nanosecond)
	}
	if d.Cost(-1) > 400*time.Nanosecond {
		t.Fatalf("after frames the root limit did not stop, full depth costs %v: want near 0.3 us", d.Cost(-1))
	}
	if got := d.Choose(time.Microsecond); got != -1 {
		t.Fatalf("Choose(1us) = %d, want full depth", got)
	}
	// The hands meet: one frame dearer than the estimate raises it at once.
	d.observe(-1, 80*time.Microsecond)
	if d.Cost(-1) != 80*time.Microsecond {
		t.Fatalf("after an 80 us frame, full depth costs %v", d.Cost(-1))
	}
	if got := d.Choose(10 * time.Microsecond); got == -1 {
		t.Fatal("with 10 us left, Choose still picks the 80 us full depth")
	}
}
