package uptime

import (
	"testing"
	"time"
)

// TestNowNeverGoesBack: readings never decrease, and a sleep moves them
// on by at least its length (a monotonic clock, whatever the wall clock
// does meanwhile).
func TestNowNeverGoesBack(t *testing.T) {
	prev := Now()
	for range 1000 {
		n := Now()
		if n < prev {
			t.Fatalf("went back from %v to %v", prev, n)
		}
		prev = n
	}
	time.Sleep(2 * time.Millisecond)
	if d := Now() - prev; d < 2*time.Millisecond {
		t.Fatalf("a 2 ms sleep moved the clock by %v", d)
	}
}
