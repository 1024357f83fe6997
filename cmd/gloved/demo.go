package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gloved/gloved/devices/sim"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/session"
)

// runDemo prints the contacts of a simulated glove grasping a ball resting
// on a table. Each frame goes through the whole pipeline (session.Pipeline): calibration -> forward
// kinematics -> CAB refit -> traversal against the scene's OBBTree ->
// narrow phase, and one frame in ten is printed with each link's contact
// depth or, within 1 cm, its distance.
func runDemo(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("demo", "gloved demo [--motion "+strings.Join(sim.MotionStrings(), "|")+"] [--frames N]", out)
	motion := fs.String("motion", "grasp", "simulated motion: "+sim.MotionNames())
	frames := fs.Int("frames", 300, "frames to run (100 per simulated second)")
	if pos, err := parseInterleaved(fs, args); err != nil {
		return err
	} else if len(pos) > 0 {
		return fmt.Errorf("%w: demo takes no arguments", errUsage)
	}
	if *frames < 1 {
		return fmt.Errorf("%w: --frames %d: want at least 1", errUsage, *frames)
	}
	start := time.Now()
	spec := session.Spec{Device: session.DeviceSim, Motion: *motion, Speed: session.SpeedMax, Wrist: session.PoseValues(env.GraspWrist())}
	if err := flagSpec(spec.NormalizeWritten(flagsWritten(fs))); err != nil {
		return err
	}
	scene, err := session.LoadScene([]session.SceneFile{{Path: session.BuiltinScene}}, "")
	if err != nil {
		return err
	}
	s, err := session.Open(spec, scene, session.PipelineOptions{Proximity: 0.01})
	if err != nil {
		return err
	}
	defer s.Close()
	fmt.Fprintf(out, "scene: %d triangles in %v (convex: %v), set up in %.1f ms\n",
		len(scene.Tris), scene.Objects, scene.Convex, float64(time.Since(start).Microseconds())/1e3)
	fmt.Fprintf(out, "a simulated %s, 100 frames a second; each line is one frame in ten (depths and distances in mm):\n", *motion)
	var total time.Duration
	err = s.Each(ctx, *frames, func() error {
		dt := s.Pipeline.Stages()
		frame := dt[session.StagePose] + dt[session.StageRefit] + dt[session.StageTraverse] + dt[session.StageNarrow]
		total += frame
		if (s.Frames-1)%10 == 0 {
			fmt.Fprintf(out, "  t=%.2fs %-70s %7.1f us\n", s.Sample.Time.Seconds(), describeFrame(s.Pipeline), float64(frame.Nanoseconds())/1e3)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if s.Frames > 0 {
		fmt.Fprintf(out, "%d frames, %.1f us per frame on average\n", s.Frames, float64(total.Nanoseconds())/1e3/float64(s.Frames))
	}
	return nil
}

func describeFrame(p *session.Pipeline) string {
	objects := p.Scene().Objects
	var parts []string
	for _, c := range p.Contacts() {
		parts = append(parts, fmt.Sprintf("%s in %s %.1f", handmodel.Link(c.Link), objects[c.Object], c.Depth*1e3))
	}
	for _, n := range p.Near() {
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
