package session

import (
	"context"
	"reflect"
	"sync"
	"testing"

	"github.com/gloved/gloved/contact"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
)

// TestHandsOfOneSceneShareItsPreparations: two pipelines given one
// contact.Shared take the same trees (and grids) of the scene's objects,
// run at once without a race, and answer every frame as a pipeline of
// its own does.
func TestHandsOfOneSceneShareItsPreparations(t *testing.T) {
	hand, cal := defaultHand(t)
	scene := env.Torus("torus", geom.Vec3{Y: 0.81, Z: 0.01}, 0.035, 0.03, 48, 24)
	shared := contact.NewShared(scene)
	open := func(s *contact.Shared) *Pipeline {
		p, err := NewPipeline(hand, cal, scene, PipelineOptions{Proximity: 0.01, Shared: s})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	own, a, b := open(nil), open(shared), open(shared)
	if a.Contact().Objects[0].Tree() != b.Contact().Objects[0].Tree() || a.Contact().Objects[0].Tree() == own.Contact().Objects[0].Tree() {
		t.Fatal("the pipelines given one Shared have trees of their own")
	}
	_, err := contact.Prepared(shared, 0, "solid grid", func(context.Context) (*env.Grid, error) {
		t.Error("the solid's grid was not kept for the second pipeline")
		return nil, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := runGrasp(t, own, 200)
	var got [2][]frameOut
	var errs [2]error
	var wg sync.WaitGroup
	for i, p := range []*Pipeline{a, b} {
		wg.Go(func() { got[i], errs[i] = runGraspOn(p, 200) })
	}
	wg.Wait()
	for i := range got {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if !reflect.DeepEqual(got[i], want) {
			t.Fatalf("pipeline %d sharing the scene answered otherwise than one of its own", i)
		}
	}
	if _, err := NewPipeline(hand, cal, env.Torus("other", geom.Vec3{}, 0.1, 0.03, 8, 4), PipelineOptions{Shared: shared}); err == nil {
		t.Error("another scene's Shared was taken")
	}
}
