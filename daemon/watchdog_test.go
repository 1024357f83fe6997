package daemon

import (
	"testing"
	"time"
)

// TestWatchdogTimesFramesOnTheMonotonicClock: a frame loop counts as
// wedged once busy for longer than the limit on the monotonic clock
// (uptime), whatever the wall clock says: setting it forward an hour
// must not stop the pings, nor setting it back hide a wedged loop.
func TestWatchdogTimesFramesOnTheMonotonicClock(t *testing.T) {
	const limit = time.Minute
	h := &handRuntime{}
	d := &Daemon{hands: []*handRuntime{h}}
	for _, tc := range []struct {
		what    string
		since   int64
		healthy bool
	}{
		{"waiting", 0, true},
		{"busy since now", busyStamp(), true},
		{"busy for twice the limit", busyStamp() - int64(2*limit), false},
	} {
		h.busySince.Store(tc.since)
		if got := d.healthy(limit); got != tc.healthy {
			t.Errorf("%s: healthy %v, want %v", tc.what, got, tc.healthy)
		}
	}
}
