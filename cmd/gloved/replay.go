package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/gloved/gloved/daemon"
	"github.com/gloved/gloved/devices/recording"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/session"
)

func runReplay(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("replay", "gloved replay FILE [--speed 1|max] [--scene FILE[,FILE]] [--wrist POSE] [--target ADDR]... [--listen ADDR] [--proximity M]", out)
	speed := fs.String("speed", "1", `"1": in real time; "max": every sample, as fast as frames run`)
	scenes := fs.String("scene", session.BuiltinScene, "scene files, comma-separated ("+session.BuiltinScene+" is the shipped table with a ball)")
	wrist := fs.String("wrist", "", "wrist pose qw qx qy qz tx ty tz (default: the recording's)")
	var targets stringList
	fs.Var(&targets, "target", "send OSC frames to this address (repeatable; default "+osc.DefaultTarget+")")
	listen := fs.String("listen", "127.0.0.1:0", "OSC listen address for subscriptions")
	proximity := fs.Float64("proximity", 0.01, "near band (m)")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: replay takes one recording file", errUsage)
	}
	if len(targets) == 0 {
		targets = stringList{osc.DefaultTarget}
	}
	hc := daemon.HandConfig{Name: "right", Spec: session.Spec{Device: session.DeviceReplay, Recording: pos[0], Speed: *speed}}
	r, err := recording.OpenReplay(pos[0], false)
	if err != nil {
		return err
	}
	h := r.Header()
	r.Close()
	if h.Hand == "left" {
		hc.Name = "left"
	}
	if *wrist != "" {
		v, err := session.ParsePose(*wrist)
		if err != nil {
			return fmt.Errorf("%w: --wrist: %v", errUsage, err)
		}
		hc.Wrist = v
	}
	cfg := &daemon.Config{Hands: []daemon.HandConfig{hc}, OSC: daemon.OSCConfig{Targets: targets, Listen: *listen}, Frame: daemon.FrameConfig{ProximityM: *proximity, BudgetMS: 1000}}
	cfg.Scene.Files = session.ScenePaths(*scenes)
	if err := cfg.Normalize(); err != nil {
		return err
	}
	cfg.Log.Level = "warn"
	epoch, err := time.Parse(time.RFC3339, h.Created)
	if err != nil {
		epoch = time.Unix(0, 0)
	}
	d, err := daemon.NewAt(cfg, daemon.NewLogger(cfg, os.Stderr), epoch)
	if err != nil {
		return err
	}
	d.ExitWhenDone = true
	start := time.Now()
	if err := d.Run(ctx); err != nil {
		return err
	}
	el := time.Since(start)
	st := d.Snapshot()
	fmt.Fprintf(out, "replayed %d frames of %s in %.2f s (%.0f frames/s); frame p50 %.1f us, p99 %.1f us; %d samples dropped\n",
		st.Frames, pos[0], el.Seconds(), float64(st.Frames)/el.Seconds(), float64(st.P50.Nanoseconds())/1e3, float64(st.P99.Nanoseconds())/1e3, st.Dropped)
	return nil
}
