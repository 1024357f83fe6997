package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
)

// runDemo is what `go run ./cmd/gloved` does until the live daemon exists:
// it builds a table with a ball on it, lowers a fingertip-sized probe onto
// the ball in ten steps, and prints what the scene query reports each step.
func runDemo(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("demo", "gloved demo", out)
	if pos, err := parseInterleaved(fs, args); err != nil {
		return err
	} else if len(pos) > 0 {
		return fmt.Errorf("%w: demo takes no arguments", errUsage)
	}
	scene := env.Box("table", mgl64.Vec3{0, 0.70, 0}, mgl64.Vec3{0.60, 0.02, 0.40})
	scene.Append(env.Sphere("ball", mgl64.Vec3{0, 0.78, 0}, 0.06, 5))
	start := time.Now()
	tree, err := env.Build(scene, env.BuildOptions{})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "scene: %d triangles in %v, OBBTree of %d nodes (depth %d) built in %.1f ms\n",
		len(scene.Tris), scene.Objects, len(tree.Nodes), tree.Depth, float64(time.Since(start).Microseconds())/1e3)
	probe, err := env.Build(env.Sphere("fingertip", mgl64.Vec3{}, 0.009, 3), env.BuildOptions{})
	if err != nil {
		return err
	}
	fmt.Fprintln(out, "lowering a 9 mm fingertip probe onto the top of the ball:")
	var c env.Collider
	for step := range 10 {
		if err := ctx.Err(); err != nil {
			return err
		}
		y := 0.78 + 0.06 + 0.009 + 0.004 - 0.001*float64(step) // last steps press into the ball
		pose := geom.Transform{R: mgl64.Ident3(), T: mgl64.Vec3{0.002, y, 0}}
		t0 := time.Now()
		c.Collide(tree, probe, pose)
		us := float64(time.Since(t0).Nanoseconds()) / 1e3
		touched := map[string]int{}
		for _, p := range c.Pairs {
			touched[scene.ObjectName(int(p[0]))]++
		}
		fmt.Fprintf(out, "  probe center y=%.3f m: %3d triangle pairs %v, %4d box tests, %4d triangle tests, %6.1f us\n",
			y, len(c.Pairs), touched, c.BoxTests, c.TriTests, us)
	}
	return nil
}
