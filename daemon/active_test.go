package daemon

import (
	"strings"
	"testing"
	"time"

	goosc "github.com/hypebeast/go-osc/osc"

	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/osc/openxr"
	"github.com/gloved/gloved/osc/vmc"
)

// TestActiveFollowsEveryStatus: OpenXR's xr/active (and VMC's tracking,
// from the same profile.Status.Tracked) is 1 while the hand has live
// poses, streaming, degraded (a glove losing samples still delivers
// valid poses, at a lower rate) or replaying, and 0 in every other
// status; the contract (docs/profiles.md) says so for each.
func TestActiveFollowsEveryStatus(t *testing.T) {
	active := map[string]int32{
		StatusStreaming: 1, StatusDegraded: 1, StatusReplay: 1,
		StatusNoGlove: 0, StatusReconnecting: 0, StatusStalled: 0, StatusEnded: 0, StatusReloading: 0,
	}
	var xr, perf string
	for _, m := range openxr.Methods(geom.Gloved) {
		if strings.HasSuffix(m.Path, "/xr/active") {
			xr = m.When
		}
	}
	for _, m := range vmc.Methods() {
		if m.Path == vmc.AddrOK {
			perf = m.Description
		}
	}
	for status, want := range active {
		var w osc.Writer
		openxr.Status(&w, "/gloved", "right", tracked(status), time.Unix(1_700_000_000, 0))
		if len(w.Packets()) != 1 {
			t.Fatalf("%s: %d packets, want one bundle", status, len(w.Packets()))
		}
		p, err := goosc.ParsePacket(string(w.Packets()[0]))
		if err != nil {
			t.Fatal(err)
		}
		b, ok := p.(*goosc.Bundle)
		if !ok || len(b.Messages) != 1 || b.Messages[0].Address != "/gloved/right/xr/active" {
			t.Fatalf("%s: sent %v, want a bundle of xr/active", status, p)
		}
		if got := b.Messages[0].Arguments[0].(int32); got != want {
			t.Errorf("%s: xr/active %d, want %d", status, got, want)
		}
		if want == 1 && (!strings.Contains(xr, status) || !strings.Contains(perf, status)) {
			t.Errorf("%s is tracked, but the contract does not say so: xr/active %q; VMC's OK %q", status, xr, perf)
		}
	}
}
