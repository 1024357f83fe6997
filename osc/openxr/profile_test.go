package openxr_test

import (
	"testing"

	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/osc/openxr"
	"github.com/gloved/gloved/osc/osctest"
	"github.com/gloved/gloved/osc/profile"
)

// TestProfileStatusIsEachHandsActive: a run's status for a hand is that
// hand's xr/active, as Status writes it.
func TestProfileStatusIsEachHandsActive(t *testing.T) {
	p, _ := profile.Lookup(openxr.Name)
	cfg, err := p.Configure(profile.Settings{Hands: []string{"left", "right"}})
	if err != nil {
		t.Fatal(err)
	}
	out := cfg.Open(profile.Run{Prefix: "/lab", Hands: []string{"left", "right"}})
	for _, tracked := range []bool{true, false} {
		var got, want osc.Writer
		got.Begin(osc.Timetag(osctest.Epoch))
		out.Status(&got, 1, profile.Status{State: "replay", Tracked: tracked, Now: osctest.Epoch})
		openxr.Status(&want, "/lab", "right", tracked, osctest.Epoch)
		if len(got.Packets()) != 1 || string(got.Packets()[0]) != string(want.Packets()[0]) {
			t.Errorf("tracked %v: the status is not the right hand's active", tracked)
		}
	}
}
