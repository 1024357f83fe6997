package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/gloved/gloved/contact"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/env/experiments"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/session"
)

// accelFrames is how many frames of each motion the test below compares:
// the grasp closes and opens within them.
const accelFrames = 120

// accelMaxTris caps the scenes the test builds: each class at its
// smallest size, or this size where that is larger.
const accelMaxTris = 60_000

// TestAccelerationsChangeNoOutput: on every scene class of `gloved bench
// scenes`, with each simulated motion, the frames `gloved contacts --json`
// prints and the OSC bundles the daemon sends are the same bytes with the
// contact methods' accelerations on and off (--no-accel, [frame]
// accelerate = false). Its computing runs beside the tests that wait on
// the binary (it asserts no time).
func TestAccelerationsChangeNoOutput(t *testing.T) {
	t.Parallel()
	for _, c := range experiments.SceneClasses {
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel()
			scene, err := c.Make(min(c.Sizes[0], accelMaxTris))
			if err != nil {
				t.Fatal(err)
			}
			// The scene's trees are prepared once for the six runs, as the
			// daemon's hands share them (the accelerations act on frames,
			// not on what is prepared).
			shared := contact.NewShared(scene)
			contacts, near := 0, 0
			for _, motion := range []string{"grasp", "tap", "pinch"} {
				on := outputBytes(t, scene, shared, motion, false)
				off := outputBytes(t, scene, shared, motion, true)
				for f := range on.json {
					if !bytes.Equal(on.json[f], off.json[f]) {
						t.Fatalf("%s frame %d: contacts --json\non:  %s\noff: %s", motion, f, on.json[f], off.json[f])
					}
					if !bytes.Equal(on.osc[f], off.osc[f]) {
						t.Fatalf("%s frame %d: the OSC bundles differ (the JSON is the same: %s)", motion, f, on.json[f])
					}
				}
				contacts, near = contacts+on.contacts, near+on.near
			}
			if c.Name != "terrain" && c.Name != "field" && contacts+near < 20 {
				t.Errorf("%d contacts and %d near over the motions: the test compares little", contacts, near)
			}
		})
	}
}

// frameBytes are a run's frames as `gloved contacts --json` prints them
// and as the daemon's OSC bundles, and how many contacts and near links
// they held.
type frameBytes struct {
	json, osc      [][]byte
	contacts, near int
}

// outputBytes runs the simulated motion over scene (prepared in shared),
// as `gloved bench scenes` does, with the accelerations off or on.
func outputBytes(t *testing.T, scene *env.Mesh, shared *contact.Shared, motion string, noAccel bool) frameBytes {
	t.Helper()
	s, err := openScene(scene, motion, session.PipelineOptions{Proximity: 0.01, NoAccel: noAccel, Shared: shared})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var out frameBytes
	var f osc.Frame
	var w osc.Writer
	addr := osc.HandAddresses("/gloved", "right")
	err = s.Each(context.Background(), accelFrames, func() error {
		fj := frameRecord(s)
		b, err := json.Marshal(&fj)
		if err != nil {
			return err
		}
		s.Pipeline.FillFrame(&f)
		w.Begin(1)
		osc.AppendFrame(&w, addr, &f)
		out.json, out.osc = append(out.json, b), append(out.osc, bytes.Join(w.Packets(), nil))
		out.contacts, out.near = out.contacts+len(fj.Contacts), out.near+len(fj.Near)
		return nil
	})
	if err != nil {
		t.Fatal(fmt.Errorf("%s: %w", motion, err))
	}
	return out
}
