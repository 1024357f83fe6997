package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gloved/gloved/configs"
	"github.com/gloved/gloved/daemon"
	"github.com/gloved/gloved/devices/opengloves"
	"github.com/gloved/gloved/devices/sim"
	"github.com/gloved/gloved/internal/userfile"
	"github.com/gloved/gloved/session"
)

func runBenchLatency(ctx context.Context, args []string, out io.Writer) error {
	fs := newBenchFlags("latency", "gloved bench latency [--frames N] [--warmup N] [--scene FILE,... | --config FILE] [--motion "+strings.Join(sim.MotionStrings(), "|")+"] [--glove cyberglove|opengloves] [--count-tris] [--json]", "print one JSON object", out)
	frames := fs.Int("frames", 2000, "frames to measure (100 per second)")
	warmup := fs.Int("warmup", 100, "frames to skip first (start-up, first contacts)")
	scene := fs.String("scene", session.BuiltinScene, "scene files, comma-separated (as the config's [scene] files)")
	config := fs.String("config", "", "take the scene and the [frame] settings from this daemon config (its hands and [osc] are replaced)")
	motion := fs.String("motion", "grasp", "simulated motion the emulated glove plays: "+sim.MotionNames())
	glove := fs.String("glove", "cyberglove", "the emulated glove: cyberglove, or opengloves with force feedback ([feedback] enabled): adds the leg from a contact's frame to its servo line read by the glove")
	countTris := fs.Bool("count-tris", false, "count the triangles each contact touches ([frame] count_tris)")
	if err := fs.parse(args); err != nil {
		return err
	}
	if *glove != "cyberglove" && *glove != opengloves.Name {
		return fmt.Errorf("%w: --glove %q: want cyberglove or opengloves", errUsage, *glove)
	}
	if err := between("frames", *frames, 1, maxBenchFrames); err != nil {
		return err
	}
	if err := between("warmup", *warmup, 0, maxBenchFrames); err != nil {
		return err
	}
	r := latencyRun{frames: *frames, warmup: *warmup, motion: *motion, glove: *glove, countTris: *countTris}
	what := "scene " + *scene
	var err error
	if *config != "" {
		if flagSet(fs.FlagSet, "scene") || flagSet(fs.FlagSet, "count-tris") {
			return fmt.Errorf("%w: --config brings the scene and count_tris: give --scene and --count-tris only without it", errUsage)
		}
		r, err = r.fromConfig(*config)
		what = "config " + *config
	} else {
		r.files, err = latencySceneFiles(*scene)
	}
	if err != nil {
		return err
	}
	res, err := measureLatency(ctx, r)
	if err != nil {
		return err
	}
	return fs.report(out, res, nil, func() { res.print(out, what) })
}

// flagSet reports whether the command line set the flag.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// latencySceneFiles checks the scene files and makes them absolute, since
// the daemon reads them from its config's directory.
func latencySceneFiles(list string) ([]session.SceneFile, error) {
	var files []session.SceneFile
	for _, f := range strings.Split(list, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		if f != session.BuiltinScene {
			abs, err := filepath.Abs(f)
			if err != nil {
				return nil, fmt.Errorf("--scene %s: %w", f, err)
			}
			if _, err := os.Stat(abs); err != nil {
				return nil, fmt.Errorf("--scene: %w", err)
			}
			f = abs
		}
		files = append(files, session.SceneFile{Path: f})
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%w: --scene names no file", errUsage)
	}
	return files, nil
}

// latencyRun is what one measurement runs.
type latencyRun struct {
	frames, warmup int
	files          []session.SceneFile
	motion         string
	glove          string // cyberglove, or opengloves with force feedback
	countTris      bool
	proximityM     float64 // 0: the daemon's default
}

// fromConfig takes r's scene and frame settings from a daemon config.
func (r latencyRun) fromConfig(path string) (latencyRun, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return r, fmt.Errorf("bench latency: --config %s: %w", userfile.Name(path), err)
	}
	c, err := daemon.LoadConfig(abs)
	if err != nil {
		return r, fmt.Errorf("bench latency: --config %s: %w", userfile.Name(path), err)
	}
	if len(c.Scene.Files) == 0 {
		return r, fmt.Errorf("bench latency: --config %s: it has no [scene] files", userfile.Name(path))
	}
	r.files = nil
	for _, f := range c.Scene.Files {
		f.Path = c.Resolve(f.Path)
		r.files = append(r.files, f)
	}
	r.countTris = c.Frame.CountTris != nil && *c.Frame.CountTris
	r.proximityM = c.Frame.ProximityM
	return r, nil
}

// latencyConfig is the daemon's config for a measurement: one glove on the
// emulator's link, OSC to the receiver.
func latencyConfig(r latencyRun, link, target string) string {
	var files []string
	for _, f := range r.files {
		files = append(files, sceneEntry(f))
	}
	proximity := ""
	if r.proximityM > 0 {
		proximity = fmt.Sprintf("proximity_m = %v\n", r.proximityM)
	}
	device, feedback := "cyberglove", ""
	if r.glove == opengloves.Name {
		device, feedback = opengloves.Name, "[feedback]\nenabled = true\n"
	}
	return fmt.Sprintf(`[[hand]]
name = "right"
device = %q
port = %q
wrist_pose = [0.0, 0.91, 0.10, -0.70710678, 0.0, 0.0, 0.70710678]
[scene]
files = [%s]
[osc]
targets = [%q]
listen = "127.0.0.1:0"
[frame]
count_tris = %t
%s%s`, device, link, strings.Join(files, ", "), target, r.countTris, proximity, feedback)
}

// sceneEntry writes a scene file as an inline TOML table.
func sceneEntry(f session.SceneFile) string {
	e := fmt.Sprintf("{ path = %q", f.Path)
	if f.Scale != nil {
		e += fmt.Sprintf(", scale = %v", *f.Scale)
	}
	if f.Up != "" {
		e += fmt.Sprintf(", up = %q", f.Up)
	}
	if f.Pose != nil {
		e += ", pose = " + configs.Numbers(f.Pose)
	}
	if f.Transform != nil {
		e += ", transform = " + configs.Numbers(f.Transform)
	}
	return e + " }"
}

// measureLatency runs the emulator and the daemon as child processes of
// this binary, receives the daemon's frames here, and pairs each with the
// emulator's write of the record it came from.
func measureLatency(ctx context.Context, r latencyRun) (*latencyResult, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("bench latency: finding this binary: %w", err)
	}
	dir, err := os.MkdirTemp("", "gloved-latency-")
	if err != nil {
		return nil, fmt.Errorf("bench latency: %w", err)
	}
	defer os.RemoveAll(dir)
	rx, err := listenReceiver()
	if err != nil {
		return nil, err
	}
	defer rx.Close()
	link, stamps, cfg := filepath.Join(dir, "glove"), filepath.Join(dir, "stamps"), filepath.Join(dir, "latency.toml")
	if err := os.WriteFile(cfg, []byte(latencyConfig(r, link, rx.LocalAddr().String())), 0o644); err != nil {
		return nil, fmt.Errorf("bench latency: %w", err)
	}
	servoLog := filepath.Join(dir, "servo")
	args := []string{"emulate", "--link", link, "--stamps", stamps, "--motion", r.motion}
	if r.glove == opengloves.Name {
		args = append(args, "--model", opengloves.Name, "--force-feedback", "--servo-log", servoLog)
	}
	em, err := startChild(ctx, "emulator", exe, args...)
	if err != nil {
		return nil, err
	}
	defer em.stop()
	if err := em.waitFor(link, 5*time.Second); err != nil {
		return nil, err
	}
	dm, err := startChild(ctx, "daemon", exe, "run", "-c", cfg, "--status=false")
	if err != nil {
		return nil, err
	}
	defer dm.stop()
	got, err := receiveFrames(rx, r.warmup+r.frames, r.glove == opengloves.Name, ctx.Err, dm)
	if err != nil {
		return nil, err
	}
	dm.stop()
	if err := em.stop(); err != nil {
		return nil, err
	}
	writes, err := readStamps(stamps)
	if err != nil {
		return nil, err
	}
	res := matchLatency(writes, got[r.warmup:])
	if r.glove == opengloves.Name {
		lines, err := readServoLog(servoLog)
		if err != nil {
			return nil, err
		}
		res.Servo = matchServo(got[r.warmup:], lines)
	}
	return &res, nil
}
