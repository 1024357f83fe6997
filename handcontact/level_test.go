package handcontact

import (
	"testing"
	"time"
)

// TestCostsFollowTheFrames: a pessimistic measurement (the hands
// superimposed) does not keep the hands at a limit once they part: a
// frame the limit did not stop did all a full one would have, so it
// teaches full depth's cost too, and Choose returns to full depth. A
// frame the limit stopped teaches its level, and lowers the deeper ones
// only slowly. (Times are given, not measured: this is the bookkeeping.)
func TestCostsFollowTheFrames(t *testing.T) {
	d := &Detector{levels: 5, costs: make([]float64, 6)} // five levels and full depth
	for k := range d.costs {
		d.costs[k] = float64((k + 1) * 1000) // 1 us at the root .. 6 us full
	}
	d.Limited = true
	for range 50 {
		d.observe(2, 500*time.Nanosecond)
	}
	if d.Cost(-1) < 4900*time.Nanosecond || d.Cost(-1) >= 6*time.Microsecond || d.Cost(2) > 600*time.Nanosecond {
		t.Fatalf("limited frames at level 2: full %v, level 2 %v; want full sunk a little (staleWeight), level 2 near 0.5 us", d.Cost(-1), d.Cost(2))
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

// TestOneSlowFrameDoesNotKeepTheHandsAtALimit: while the hands keep
// meeting, every frame limited, one slow frame at full depth (the machine
// busy for a moment) must not keep them at the limit for good: full
// depth is chosen again within some hundreds of frames, and when it then
// costs what it should, stays chosen. A full depth that truly costs eight
// times what is left is tried again only now and then, a frame over each
// time. (Campaign 10: /lod on every frame for the rest of the session
// after one slow frame.)
func TestOneSlowFrameDoesNotKeepTheHandsAtALimit(t *testing.T) {
	const left = 10 * time.Microsecond
	frame := func(d *Detector, full time.Duration) bool {
		limit := d.Choose(left)
		if limit == -1 {
			d.Limited = false
			d.observe(-1, full)
			return true
		}
		d.Limited = true
		d.observe(limit, 800*time.Nanosecond)
		return false
	}
	d := &Detector{levels: 5, costs: make([]float64, 6)}
	for k := range d.costs {
		d.costs[k] = float64((k + 1) * 1000)
	}
	d.Limited = false
	d.observe(-1, 80*time.Microsecond) // one slow frame
	back := -1
	for i := range 2000 {
		if frame(d, 5*time.Microsecond) {
			back = i
			break
		}
	}
	if back < 0 {
		t.Fatalf("2,000 limited frames after one slow one: full depth never chosen again (it costs %v)", d.Cost(-1))
	}
	for i := range 1000 {
		if !frame(d, 5*time.Microsecond) {
			t.Fatalf("full depth chosen again at frame %d and measured at 5 us, then limited again %d frames later", back, i)
		}
	}
	d = &Detector{levels: 5, costs: make([]float64, 6)}
	for k := range d.costs {
		d.costs[k] = float64((k + 1) * 1000)
	}
	d.observe(-1, 80*time.Microsecond)
	tried := 0
	for range 10_000 {
		if frame(d, 80*time.Microsecond) {
			tried++
		}
	}
	if tried < 1 || tried > 25 {
		t.Fatalf("a full depth of 80 us with 10 us left: tried %d times in 10,000 frames, want now and then (1-25)", tried)
	}
}
