package vmc_test

import (
	"sync"
	"testing"

	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/osc/osctest"
	"github.com/gloved/gloved/osc/profile"
	"github.com/gloved/gloved/osc/vmc"
)

// TestProfileIsOnePerformerInUnitysCoordinates: coords may be left out
// or say unity, nothing else; the output of a run is a sync.Locker (the
// daemon holds it across each bundle, its hands sharing a performer),
// and a status is the performer's: a hand's tracking makes it tracked.
func TestProfileIsOnePerformerInUnitysCoordinates(t *testing.T) {
	p, _ := profile.Lookup(vmc.Name)
	for coords, ok := range map[string]bool{"": true, "unity": true, "gloved": false, "ros": false} {
		c, err := p.Coords(coords)
		if (err == nil) != ok || c.Name() != "unity" {
			t.Errorf("coords %q: %s, %v", coords, c.Name(), err)
		}
	}
	cfg, err := p.Configure(profile.Settings{Hands: []string{"left", "right"}})
	if err != nil {
		t.Fatal(err)
	}
	out := cfg.Open(profile.Run{Start: osctest.Epoch, Hands: []string{"left", "right"}})
	if _, ok := out.(sync.Locker); !ok {
		t.Fatal("the output is not a sync.Locker: its hands' bundles could interleave")
	}
	var w osc.Writer
	var want osc.Writer
	out.Status(&w, 1, profile.Status{State: "streaming", Tracked: true, Now: osctest.Epoch})
	vmc.NewPerformer(osctest.Epoch, 2).Status(&want, 1, true, osctest.Epoch)
	if len(w.Packets()) != 1 || string(w.Packets()[0]) != string(want.Packets()[0]) {
		t.Errorf("the status is not the performer's")
	}
}
