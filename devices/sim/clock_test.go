package sim

import (
	"testing"
	"time"

	"github.com/gloved/gloved/devices"
)

// TestASimulatedGloveStartsItsClockAtItsFirstRead: a glove read first
// 200 ms after it was made (a daemon makes its gloves, then prepares
// their pipelines) still gives its samples a period apart, not a burst
// of those its clock ran through meanwhile; Epoch is that first Read.
func TestASimulatedGloveStartsItsClockAtItsFirstRead(t *testing.T) {
	const period = 10 * time.Millisecond
	g, err := New(Grasp, 22, period, false)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond)
	var s devices.Sample
	before := time.Now()
	if err := g.Read(&s); err != nil {
		t.Fatal(err)
	}
	if e := g.Epoch(); e.Before(before) {
		t.Errorf("epoch %v before the first Read (%v)", e, before)
	}
	for i := 1; i <= 5; i++ {
		if err := g.Read(&s); err != nil {
			t.Fatal(err)
		}
		// A lower bound only: a loaded machine may come later.
		if d := time.Since(before); d < time.Duration(i)*period-time.Millisecond {
			t.Fatalf("sample %d came %v after the first Read, want %v: the clock began before it", i, d, time.Duration(i)*period)
		}
	}
}
