package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gloved/gloved/daemon"
	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/handmodel"
)

// runDemo is what `go run ./cmd/gloved` does until the live daemon exists:
// a simulated glove grasps a ball resting on a table. Each frame goes
// through the whole pipeline (daemon.Pipeline): calibration -> forward
// kinematics -> CAB refit -> traversal against the scene's OBBTree ->
// narrow phase, and one frame in ten is printed with each link's contact
// depth or, within 1 cm, its distance.
func runDemo(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("demo", "gloved demo [--motion grasp|tap|pinch] [--frames N]", out)
	motion := fs.String("motion", "grasp", "simulated motion")
	frames := fs.Int("frames", 300, "frames to run (100 per simulated second)")
	if pos, err := parseInterleaved(fs, args); err != nil {
		return err
	} else if len(pos) > 0 {
		return fmt.Errorf("%w: demo takes no arguments", errUsage)
	}
	glove, err := devices.NewSimGlove(devices.Motion(*motion), 22, 10*time.Millisecond, true)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	scene := env.GraspScene(5)
	hand, err := handmodel.New(handmodel.DefaultParams)
	if err != nil {
		return err
	}
	cal, err := handmodel.DefaultCalibration(22)
	if err != nil {
		return err
	}
	start := time.Now()
	p, err := daemon.NewPipeline(hand, cal, scene, 0.01)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "scene: %d triangles in %v (convex: %v), set up in %.1f ms\n",
		len(scene.Tris), scene.Objects, scene.Convex, float64(time.Since(start).Microseconds())/1e3)
	fmt.Fprintf(out, "a simulated %s, 100 frames a second; each line is one frame in ten (depths and distances in mm):\n", *motion)
	wrist := env.GraspWrist()
	var s devices.Sample
	var total time.Duration
	for f := range *frames {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := glove.Read(&s); err != nil {
			return err
		}
		t0 := time.Now()
		if err := p.Frame(&s, wrist); err != nil {
			return err
		}
		dt := time.Since(t0)
		total += dt
		if f%10 == 0 {
			fmt.Fprintf(out, "  t=%.2fs %-70s %7.1f us\n", s.Time.Seconds(), describeFrame(p, scene.Objects), float64(dt.Nanoseconds())/1e3)
		}
	}
	fmt.Fprintf(out, "%d frames, %.1f us per frame on average\n", *frames, float64(total.Nanoseconds())/1e3/float64(*frames))
	return nil
}

func describeFrame(p *daemon.Pipeline, objects []string) string {
	var parts []string
	for _, c := range p.Solver.Contacts {
		parts = append(parts, fmt.Sprintf("%s in %s %.1f", handmodel.Link(c.Link), objects[c.Object], c.Depth*1e3))
	}
	for _, n := range p.Solver.Near {
		parts = append(parts, fmt.Sprintf("%s near %s %.1f", handmodel.Link(n.Link), objects[n.Object], n.Distance*1e3))
	}
	if len(parts) == 0 {
		return "no contact"
	}
	if len(parts) > 4 {
		parts = append(parts[:4], fmt.Sprintf("+%d more", len(parts)-4))
	}
	return strings.Join(parts, ", ")
}
