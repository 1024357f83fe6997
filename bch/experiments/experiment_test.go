package experiments

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// tiny is a run small enough for a test.
var tiny = Options{Bodies: []string{HumanoidName, SkinName}, Poses: 4, Cases: 6, Iters: 2, Slides: 3, Cells: 60, Seed: 9,
	Mesh: "../../handmodel/testdata/webxr-generic-hand/right.glb"}

// shortRun is tiny with fewer of everything under -short, as CI runs the
// race detector: a run is one goroutine (the OBB trees too are built on
// one), in which the race detector finds nothing and is several times
// slower; the run without -short counts tiny's.
func shortRun() Options {
	o := tiny
	if testing.Short() {
		o.Poses, o.Cases, o.Iters, o.Slides, o.Cells = 2, 3, 1, 2, 30
	}
	return o
}

// TestRunCountsAddUp: a small run has a row for every body, counts that
// add up to what was asked, every case found by the methods that miss
// nothing, no NaN (JSON refuses one), and everything but the times the
// same in a second run with the same seed.
func TestRunCountsAddUp(t *testing.T) {
	opt := shortRun()
	res, err := Run(context.Background(), opt, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Bodies) != len(opt.Bodies) {
		t.Fatalf("%d bodies, want %d", len(res.Bodies), len(opt.Bodies))
	}
	for i, b := range res.Bodies {
		c, q, d, v := b.Construction, b.Query, b.Distance, b.Volume
		if b.Body != opt.Bodies[i] || c.Poses != opt.Poses || c.ContourUS.N != opt.Poses || c.OBBUS.N != opt.Poses || v.Poses != opt.Poses {
			t.Errorf("%s: %d poses built, %d timed, %d measured; want %d", b.Body, c.Poses, c.ContourUS.N, v.Poses, opt.Poses)
		}
		if q.Cases != opt.Cases || q.Iterations != opt.Iters || q.Draws < q.Cases {
			t.Errorf("%s: %d cases of %d draws, %d passes; want %d cases, %d passes", b.Body, q.Cases, q.Draws, q.Iterations, opt.Cases, opt.Iters)
		}
		if q.TrianglesHits != q.Cases || q.SingleHits != q.Cases || q.OBBHits != q.Cases || q.TallHits > q.Cases || q.ContourHits > q.Cases {
			t.Errorf("%s: hits %+v of %d colliding cases", b.Body, q, q.Cases)
		}
		if d.Tests != opt.Slides || d.Cylinder.N != d.Tests || d.Exact.N != d.Tests || len(d.Contour) != MaxDepth+2 || len(d.Tall) != MaxDepth+2 || len(d.Triangles) != MaxDepth+2 {
			t.Errorf("%s: distance rows %+v", b.Body, d)
		}
		for _, rows := range [][]Depth{d.Tall, d.Contour, d.Triangles} {
			if rows[0].Depth != 0 || rows[MaxDepth+1].Depth != Unlimited || rows[0].N+rows[0].Misses != d.Tests {
				t.Errorf("%s: depth rows %+v", b.Body, rows)
			}
		}
		if !(v.Mesh.Mean > 0) || v.OddColumns != 0 || !(v.Cylinder.Mean > 1) {
			t.Errorf("%s: volumes %+v", b.Body, v)
		}
	}
	if _, err := json.Marshal(res); err != nil {
		t.Fatalf("the result does not encode (a NaN?): %v", err)
	}
	again, err := Run(context.Background(), opt, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range res.Bodies {
		a, b := res.Bodies[i], again.Bodies[i]
		if !reflect.DeepEqual(a.Distance, b.Distance) || !reflect.DeepEqual(a.Volume, b.Volume) || a.Query.Draws != b.Query.Draws || a.Query.ContourHits != b.Query.ContourHits {
			t.Errorf("%s: two runs with one seed differ", a.Body)
		}
	}
}

// TestRunRefusesWhatCannotRun: bad options and a cancelled context end
// the run with an error, before or during the work.
func TestRunRefusesWhatCannotRun(t *testing.T) {
	for _, tc := range []struct {
		change func(*Options)
		says   string
	}{
		{func(o *Options) { o.Bodies = []string{"robot"} }, "robot"},
		{func(o *Options) { o.Bodies = nil }, "no bodies"},
		{func(o *Options) { o.Poses = 1 }, "poses"},
		{func(o *Options) { o.Cells = 0 }, "cells"},
		{func(o *Options) { o.Bodies, o.Mesh = []string{SkinName}, "no-such-hand.glb" }, "no-such-hand.glb"},
	} {
		o := tiny
		tc.change(&o)
		if _, err := Run(context.Background(), o, nil); err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("got %v, want an error saying %q", err, tc.says)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	o := tiny
	o.Bodies = []string{HandName}
	if _, err := Run(ctx, o, nil); err == nil {
		t.Error("a cancelled run succeeded")
	}
}
