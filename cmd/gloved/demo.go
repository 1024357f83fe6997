package main

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
)

// runDemo is what `go run ./cmd/gloved` does until the live daemon exists:
// a simulated glove grasps a ball resting on a table. Each frame goes
// glove sample -> calibration -> forward kinematics -> every link's hull
// tested against the scene's OBBTree, and the demo prints which links
// touch which object. (The CAB refit and the exact narrow phase come with
// their issues; here each link has its own small OBBTree.)
func runDemo(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("demo", "gloved demo [--motion grasp|tap|pinch] [--frames N]", out)
	motion := fs.String("motion", "grasp", "simulated motion")
	frames := fs.Int("frames", 300, "frames to run (100 per simulated second)")
	if pos, err := parseInterleaved(fs, args); err != nil {
		return err
	} else if len(pos) > 0 {
		return fmt.Errorf("%w: demo takes no arguments", errUsage)
	}
	scene := env.Box("table", mgl64.Vec3{0, 0.70, 0}, mgl64.Vec3{0.60, 0.02, 0.40})
	scene.Append(env.Sphere("ball", mgl64.Vec3{0, 0.78, 0.01}, 0.06, 5))
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
	links := make([]*env.Tree, hand.NumLinks())
	for l := range links {
		g := hand.Geometry(handmodel.Link(l))
		m := &env.Mesh{Verts: g.Verts, Tris: g.Tris, Object: make([]int32, len(g.Tris)), Objects: []string{handmodel.Link(l).String()}}
		if links[l], err = env.Build(m, env.BuildOptions{Workers: 1}); err != nil {
			return err
		}
	}
	cal, err := handmodel.DefaultCalibration(22)
	if err != nil {
		return err
	}
	glove, err := devices.NewSimGlove(devices.Motion(*motion), 22, 10*time.Millisecond, true)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	// The hand hovers palm down over the ball: hand +Y (fingers) along
	// world -Z, the back of the hand (+Z) up.
	wrist, _ := geom.FromQuat(mgl64.QuatRotate(-mgl64.DegToRad(90), mgl64.Vec3{1, 0, 0}), mgl64.Vec3{0, 0.91, 0.10})
	fmt.Fprintf(out, "a simulated %s, 100 frames a second; each line is one frame in ten:\n", *motion)
	poses := make([]geom.Transform, hand.NumLinks())
	var s devices.Sample
	var q handmodel.Angles
	var c env.Collider
	c.FirstContact = false
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
		touching := map[string][]string{}
		boxTests := 0
		for l, lt := range links {
			if c.Collide(tree, lt, poses[l]) > 0 {
				seen := map[string]bool{}
				for _, p := range c.Pairs {
					obj := scene.ObjectName(int(p[0]))
					if !seen[obj] {
						seen[obj] = true
						touching[obj] = append(touching[obj], handmodel.Link(l).String())
					}
				}
			}
			boxTests += c.BoxTests
		}
		dt := time.Since(t0)
		total += dt
		if f%10 == 0 {
			fmt.Fprintf(out, "  t=%.2fs index MCP %4.1f°  %-40s %5d box tests %6.1f us\n",
				s.Time.Seconds(), mgl64.RadToDeg(q[handmodel.IndexMCP]), describeContacts(touching), boxTests, float64(dt.Nanoseconds())/1e3)
		}
	}
	fmt.Fprintf(out, "%d frames, %.1f us per frame on average (pose + 16 link queries)\n", *frames, float64(total.Nanoseconds())/1e3/float64(*frames))
	return nil
}

func describeContacts(touching map[string][]string) string {
	if len(touching) == 0 {
		return "no contact"
	}
	objs := make([]string, 0, len(touching))
	for o := range touching {
		objs = append(objs, o)
	}
	sort.Strings(objs)
	var parts []string
	for _, o := range objs {
		parts = append(parts, o+": "+strings.Join(touching[o], " "))
	}
	return strings.Join(parts, "; ")
}
