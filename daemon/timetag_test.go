package daemon

import (
	"strings"
	"testing"
	"time"

	"github.com/gloved/gloved/daemon/daemontest"
)

// TestAHandsTimetagsNeverGoBack: two simulated hands send to one
// destination in gloved's profile and to another in OpenXR's, frames and
// statuses (each hand's at least once a second, in a frame's bundle or its
// own, and OpenXR's xr/active after a frame): at each destination every
// bundle of a hand has a timetag at least that of the hand's bundle
// before it. (A status stamped with the time it went out, between a
// sample's arrival and its frame, was up to 0.8 ms ahead of the next
// frame, which carries its sample's time.) The two hands' bundles
// interleave, each with its own sample's time.
func TestAHandsTimetagsNeverGoBack(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the daemon for 6 s")
	}
	rx, got := daemontest.ListenAny(t)
	xr, gotXR := daemontest.ListenAny(t)
	_, done, _ := startDaemon(t, 6*time.Second, "timetags.toml", hand("left", "sim")+hand("right", "sim")+
		builtinScene(rx.LocalAddr().String())+profileTable("openxr", targets(xr.LocalAddr().String())))
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	for _, dest := range []struct {
		name string
		got  *daemontest.Packets
	}{{"gloved", got}, {"openxr", gotXR}} {
		last := map[string]uint64{}
		bundles, statuses, back := map[string]int{}, map[string]int{}, 0
		for i, p := range dest.got.All() {
			if !p.Bundle || len(p.Messages) == 0 {
				continue
			}
			// /<prefix>/<hand>/...: the hand's name is the second element.
			parts := strings.Split(p.Messages[0].Address, "/")
			if len(parts) < 3 {
				t.Fatalf("%s: bundle %d: address %q names no hand", dest.name, i, p.Messages[0].Address)
			}
			hand := parts[2]
			bundles[hand]++
			if len(p.Messages) <= 2 {
				statuses[hand]++
			}
			if p.Timetag < last[hand] {
				back++
				if back <= 5 {
					t.Errorf("%s: %s's bundle %d (%d messages, first %s): timetag %.6f s before its bundle before it",
						dest.name, hand, i, len(p.Messages), p.Messages[0].Address, float64(last[hand]-p.Timetag)/(1<<32))
				}
			}
			last[hand] = max(last[hand], p.Timetag)
		}
		if back > 0 {
			t.Errorf("%s: %d bundles went back in time", dest.name, back)
		}
		for _, hand := range []string{"left", "right"} {
			if bundles[hand] < 100 || statuses[hand] < 2 {
				t.Errorf("%s: %s: %d bundles, %d of them statuses alone, in 6 s", dest.name, hand, bundles[hand], statuses[hand])
			}
		}
	}
}
