package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/cab"
	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
)

// runDemo is what `go run ./cmd/gloved` does until the live daemon exists:
// a simulated glove grasps a ball resting on a table. Each frame goes
// glove sample -> calibration -> forward kinematics -> CAB refit -> the
// hierarchy against the scene's OBBTree -> an exact test of each candidate
// (link, triangle) pair, and the demo prints which links touch which
// object. (Depth, normal and contact point come with the narrow phase.)
func runDemo(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("demo", "gloved demo [--motion grasp|tap|pinch] [--frames N]", out)
	motion := fs.String("motion", "grasp", "simulated motion")
	frames := fs.Int("frames", 300, "frames to run (100 per simulated second)")
	if pos, err := parseInterleaved(fs, args); err != nil {
		return err
	} else if len(pos) > 0 {
		return fmt.Errorf("%w: demo takes no arguments", errUsage)
	}
	scene := cab.GraspScene(5)
	start := time.Now()
	tree, err := env.Build(scene, env.BuildOptions{})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "scene: %d triangles in %v, OBBTree built in %.1f ms\n",
		len(scene.Tris), scene.Objects, float64(time.Since(start).Microseconds())/1e3)
	hand, err := handmodel.New(handmodel.DefaultParams)
	if err != nil {
		return err
	}
	body, err := cab.HandBody(hand)
	if err != nil {
		return err
	}
	hier, err := cab.Build(body)
	if err != nil {
		return err
	}
	refit, err := cab.NewRefitter(cab.CAB, hier)
	if err != nil {
		return err
	}
	exact, err := cab.NewExact(body)
	if err != nil {
		return err
	}
	cal, err := handmodel.DefaultCalibration(22)
	if err != nil {
		return err
	}
	glove, err := devices.NewSimGlove(devices.Motion(*motion), 22, 10*time.Millisecond, true)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	wrist := cab.GraspWrist()
	fmt.Fprintf(out, "a simulated %s, 100 frames a second; each line is one frame in ten:\n", *motion)
	poses := make([]geom.Transform, hand.NumLinks())
	touch := make([]bool, hand.NumLinks()*len(scene.Objects))
	var s devices.Sample
	var q handmodel.Angles
	var sq cab.SceneQuery
	var total time.Duration
	for f := range *frames {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := glove.Read(&s); err != nil {
			return err
		}
		t0 := time.Now()
		if err := cal.Angles(&s, &hand.Limits, &q); err != nil {
			return err
		}
		hand.Pose(&q, wrist, poses)
		refit.Refit(poses)
		sq.Run(hier, tree)
		clear(touch)
		for _, p := range sq.Pairs {
			k := int(p.Link)*len(scene.Objects) + int(scene.Object[p.Tri])
			if !touch[k] && exact.LinkTriangle(int(p.Link), poses[p.Link], scene.Triangle(int(p.Tri))) {
				touch[k] = true
			}
		}
		dt := time.Since(t0)
		total += dt
		if f%10 == 0 {
			fmt.Fprintf(out, "  t=%.2fs index MCP %4.1f°  %-48s %4d candidates %6.1f us\n",
				s.Time.Seconds(), mgl64.RadToDeg(q[handmodel.IndexMCP]), describeContacts(touch, scene.Objects), len(sq.Pairs), float64(dt.Nanoseconds())/1e3)
		}
	}
	fmt.Fprintf(out, "%d frames, %.1f us per frame on average (pose, refit, traversal, exact tests)\n", *frames, float64(total.Nanoseconds())/1e3/float64(*frames))
	return nil
}

func describeContacts(touch []bool, objects []string) string {
	var parts []string
	for o, name := range objects {
		var links []string
		for l := 0; l*len(objects)+o < len(touch); l++ {
			if touch[l*len(objects)+o] {
				links = append(links, handmodel.Link(l).String())
			}
		}
		if len(links) > 0 {
			parts = append(parts, name+": "+strings.Join(links, " "))
		}
	}
	if len(parts) == 0 {
		return "no contact"
	}
	return strings.Join(parts, "; ")
}
