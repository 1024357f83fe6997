package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/gloved/gloved/daemon"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/session"
)

func runReplay(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("replay", "gloved replay FILE [--speed 1|max] [--scene FILE[,FILE]] [--wrist-pose POSE] [--target ADDR]... [--profile NAME[@COORDS][=ADDR[,ADDR]]]... [--listen ADDR] [--proximity M] [--view ADDR]", out)
	speed := fs.String("speed", "1", `"1": in real time; "max": every sample, as fast as frames run`)
	scenes := fs.String("scene", session.BuiltinScene, "scene files, comma-separated ("+session.BuiltinScene+" is the shipped table with a ball)")
	wrist := addPoseFlag(fs, "wrist-pose", "wrist", "the wrist's pose (default: the recording's)")
	var targets stringList
	fs.Var(&targets, "target", "send OSC frames to this address (repeatable; default "+osc.DefaultTarget+")")
	var profiles stringList
	fs.Var(&profiles, "profile", "also send the frames in an output profile, as a config's [[osc.profile]] (repeatable; the Nth is osc.profile[N-1] in errors): gloved, openxr, vrchat or vmc, @ a coords preset (unity, unreal, ros), = its targets (vrchat and vmc default to 127.0.0.1:9000 and :39539), e.g. openxr@unity=127.0.0.1:9500")
	listen := fs.String("listen", "127.0.0.1:0", "OSC listen address for subscriptions")
	proximity := fs.Float64("proximity", 0.01, "near band (m)")
	viewAt := fs.String("view", "", "show the replay on the live 3D page served here (host:port, e.g. 127.0.0.1:8080), with a time slider over the whole recording; the page stays up after the replay until Ctrl-C")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: replay takes one recording file", errUsage)
	}
	if err := pipelineFlags(*proximity, 0); err != nil {
		return err
	}
	if len(targets) == 0 {
		targets = stringList{osc.DefaultTarget}
	}
	scene, err := sceneFlag(*scenes)
	if err != nil {
		return err
	}
	o := daemon.ReplayOpts{Recording: pos[0], Speed: *speed, Scene: scene, Targets: targets, Listen: *listen, Proximity: *proximity}
	for _, p := range profiles {
		o.Profiles = append(o.Profiles, profileFlag(p))
	}
	if o.Wrist, err = wrist.pose(); err != nil {
		return err
	}
	if *viewAt != "" {
		// Served before the recording is computed: an address it cannot
		// serve is said at once.
		if o.View, err = listenView(*viewAt); err != nil {
			return err
		}
		defer o.View.Close()
		tl, err := daemon.ReplayTimeline(ctx, o)
		if err != nil {
			return interrupted(ctx, flagNamed(err))
		}
		if err := showTimeline(o.View, tl); err != nil {
			return err
		}
		fmt.Fprintf(out, "the live page is at %s\n", o.View.URL())
	}
	d, err := daemon.NewReplay(ctx, o, os.Stderr)
	if err != nil {
		return interrupted(ctx, flagNamed(err))
	}
	start := time.Now()
	if err := d.Run(ctx); err != nil {
		return err
	}
	el := time.Since(start)
	st := d.Snapshot()
	if st.Frames == 0 && ctx.Err() == nil {
		return noSamples(pos[0])
	}
	fmt.Fprintf(out, "replayed %d frames of %s in %.2f s (%.0f frames/s); frame p50 %.1f us, p99 %.1f us; %d samples dropped\n",
		st.Frames, pos[0], el.Seconds(), float64(st.Frames)/el.Seconds(), float64(st.P50.Nanoseconds())/1e3, float64(st.P99.Nanoseconds())/1e3, st.Dropped)
	if o.View != nil {
		d.EndLive()
		showUntilDone(ctx, o.View, "the recording", out)
	}
	return nil
}

// interrupted is err, or, if ctx has ended, that the scene's loading was
// interrupted (err is then what the interruption made of it).
func interrupted(ctx context.Context, err error) error {
	if ierr := daemon.Interrupted(ctx); ierr != nil {
		return ierr
	}
	return err
}

// profileFlag reads --profile NAME[@COORDS][=ADDR[,ADDR]] as a config's
// [[osc.profile]]; the config's checks say what is wrong with it.
func profileFlag(s string) daemon.ProfileConfig {
	spec, targets, _ := strings.Cut(s, "=")
	name, coords, _ := strings.Cut(spec, "@")
	p := daemon.ProfileConfig{Name: name, Coords: coords}
	if targets != "" {
		p.Targets = strings.Split(targets, ",")
	}
	return p
}
