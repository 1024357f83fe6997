package session

import (
	"reflect"
	"testing"
	"time"

	"github.com/gloved/gloved/contact"
	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/sim"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
)

// TestAFrameSplitAmongWorkersAnswersAsOneDoes: a frame's candidates
// split among workers by link (here every frame, and among more workers
// than the machine has helpers, so that some shares are answered by the
// caller after its own) give the same contacts and near misses, in the
// same order, as one worker answering them all: on a closed non-convex
// solid (the surface methods' scratch is per worker, their warm starts
// per link) and on convex objects (the convex method's). A shared frame
// allocates nothing, in the helpers either, once their buffers have grown.
func TestAFrameSplitAmongWorkersAnswersAsOneDoes(t *testing.T) {
	hand, cal := defaultHand(t)
	scenes := map[string]func() *env.Mesh{
		"torus": func() *env.Mesh {
			return env.Torus("torus", geom.Vec3{Y: 0.81, Z: 0.01}, 0.035, 0.03, 48, 24)
		},
		"table and ball": func() *env.Mesh { return env.GraspScene(3) },
	}
	for name, scene := range scenes {
		t.Run(name, func(t *testing.T) {
			var p *Pipeline
			var glove *sim.Glove
			var s devices.Sample
			run := func(o PipelineOptions) ([]frameOut, int) {
				o.Proximity = 0.01
				var err error
				if p, err = NewPipeline(hand, cal, scene(), o); err != nil {
					t.Fatal(err)
				}
				glove, _ = sim.New(sim.Grasp, 22, 10*time.Millisecond, true)
				var out []frameOut
				split := 0
				for range 120 {
					glove.Read(&s)
					if err := p.Frame(&s, env.GraspWrist()); err != nil {
						t.Fatal(err)
					}
					out = append(out, frameOut{append([]contact.Contact(nil), p.scene.Contacts...), append([]contact.Near(nil), p.scene.Near...)})
					if p.Contact().Shares() > 1 {
						split++
					}
				}
				return out, split
			}
			want, split := run(PipelineOptions{Workers: 1, SplitAbove: -1})
			if split != 0 {
				t.Fatalf("one worker split %d frames", split)
			}
			got, split := run(PipelineOptions{Workers: 4, SplitAbove: -1})
			if split < 30 {
				t.Fatalf("%d of 120 frames were split: the test needs more", split)
			}
			for f := range want {
				if !reflect.DeepEqual(got[f], want[f]) {
					t.Fatalf("frame %d split among workers:\n%+v\nwant, from one:\n%+v", f, got[f], want[f])
				}
			}
			allocs := testing.AllocsPerRun(100, func() {
				glove.Read(&s)
				p.Frame(&s, env.GraspWrist())
			})
			if allocs != 0 {
				t.Fatalf("%v allocations per shared frame", allocs)
			}
		})
	}
}
