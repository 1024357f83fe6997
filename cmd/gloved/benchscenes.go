package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"
	"unsafe"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/env/experiments"
	"github.com/gloved/gloved/internal/userfile"
	"github.com/gloved/gloved/session"
)

// sceneRow is one scene of one class through the whole pipeline.
type sceneRow struct {
	Class  string  `json:"class"`
	Motion string  `json:"motion"`
	Tris   int     `json:"tris"`
	BuildS float64 `json:"build_s"`
	// MemMB is the heap the scene's session holds once built (the
	// scene's mesh included), and BytesPerTri that over the triangles.
	MemMB          float64      `json:"mem_mb"`
	BytesPerTri    float64      `json:"bytes_per_tri"`
	Frames         int          `json:"frames"`
	FramesPerSec   float64      `json:"frames_per_s"`
	ContactsPerFrm float64      `json:"contacts_per_frame"`
	NearPerFrame   float64      `json:"near_per_frame"`
	Stages         []stageStats `json:"stages"`
	// Collision is the collision part of each frame, refit + traverse +
	// narrow: what the peer harnesses (bench/fcl, bench/coal) compare.
	Collision stageStats `json:"collision"`
}

// warmFrames are run before the measured frames of each scene, so that the
// buffers have grown and the caches hold last frame's answers.
const warmFrames = 30

// runBenchScenes runs the simulated motion through the pipeline over
// procedural scenes of growing size (env/experiments SceneClasses) and
// prints, per scene, its size, the pipeline's build time and each stage's
// frame times.
func runBenchScenes(ctx context.Context, args []string, out io.Writer) (err error) {
	fs := newBenchFlags("scenes", "gloved bench scenes [--classes "+experiments.SceneClassNames()+"] [--max-tris N] [--frames N] [--motions grasp,tap,pinch] [--no-tris] [--no-accel] [--workers N] [--json] [--plot FILE.svg] [--export DIR] [--cpuprofile FILE]", "print one JSON array", out)
	classes := fs.String("classes", experiments.SceneClassNames(), "scene classes to run, comma-separated (the real meshes' are read from testdata/meshes, found from the working directory up)")
	maxTris := fs.Int("max-tris", 250_000, "skip scenes larger than this (the full table: 2000000)")
	frames := fs.Int("frames", 300, "measured frames per scene (after 30 to warm up)")
	motions := fs.String("motions", "grasp,tap,pinch", "the simulated glove's motions, comma-separated")
	fs.addPlot("", "write total frame time (p50) against triangles, log-log, to this SVG file")
	proximity := fs.Float64("proximity", 0.01, "the proximity band (m)")
	noTris := addNoTris(fs.FlagSet)
	noAccel := addNoAccel(fs.FlagSet)
	workers := addWorkers(fs.FlagSet)
	export := fs.String("export", "", "also write each scene and its frames as `gloved export` does, to DIR/CLASS-TRIS (for bench/fcl)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the whole run (building the scenes too) to this file, for `go tool pprof`")
	if err := fs.parse(args); err != nil {
		return err
	}
	if err := between("frames", *frames, 1, maxBenchFrames); err != nil {
		return err
	}
	if err := pipelineFlags(*proximity, *workers); err != nil {
		return err
	}
	// The profile is written once the flags are checked, and put in place
	// only if the run succeeds (a --classes name is checked in the run).
	if *cpuProfile != "" {
		stop, perr := startCPUProfile(*cpuProfile)
		if perr != nil {
			return perr
		}
		defer func() { err = stop(err) }()
	}
	var rows []sceneRow
	smallest := math.MaxInt
	for _, name := range strings.Split(*classes, ",") {
		c, err := experiments.SceneClassNamed(strings.TrimSpace(name))
		if err != nil {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
		for _, size := range c.Sizes {
			smallest = min(smallest, size)
			if size > *maxTris || ctx.Err() != nil {
				continue
			}
			opt := session.PipelineOptions{Proximity: *proximity, SkipTris: *noTris, NoAccel: *noAccel, Workers: *workers}
			scene, err := c.Make(size)
			if err != nil {
				return err
			}
			for _, motion := range strings.Split(*motions, ",") {
				motion = strings.TrimSpace(motion)
				row, err := benchScene(ctx, c.Name, scene, motion, *frames, opt)
				if err != nil {
					return err
				}
				rows = append(rows, row)
				if !fs.json {
					printSceneRow(out, row, len(rows) == 1)
				}
				if *export != "" {
					dir := filepath.Join(*export, fmt.Sprintf("%s-%d-%s", c.Name, row.Tris, motion))
					if err := exportScene(ctx, dir, scene, motion, warmFrames+*frames, opt); err != nil {
						return err
					}
					if err := writeGlovedTiming(dir, row, *proximity); err != nil {
						return err
					}
				}
			}
		}
	}
	if len(rows) == 0 && ctx.Err() == nil && smallest > *maxTris {
		return fmt.Errorf("%w: --max-tris %d: no scene of the classes run is that small (the smallest has %d triangles): raise it", errUsage, *maxTris, smallest)
	}
	return fs.report(out, rows, func(path string) error { return writeScenesPlot(path, rows) }, nil)
}

// openScene opens the simulated glove with the demo wrist on scene.
func openScene(scene *env.Mesh, motion string, opt session.PipelineOptions) (*session.Session, error) {
	spec := session.Spec{Device: session.DeviceSim, Motion: motion, Speed: session.SpeedMax, Wrist: session.PoseValues(env.GraspWrist())}
	if err := spec.Normalize(); err != nil {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	return session.Open(spec, scene, opt)
}

// exportScene writes scene and frames of the motion in `gloved export`'s
// form to dir.
func exportScene(ctx context.Context, dir string, scene *env.Mesh, motion string, frames int, opt session.PipelineOptions) error {
	s, err := openScene(scene, motion, opt)
	if err != nil {
		return err
	}
	defer s.Close()
	// dir is gloved's, inside the --export directory the user named: a
	// symbolic link there is refused, as dir/links is (openExportDir).
	if fi, err := os.Lstat(dir); err == nil && !fi.IsDir() {
		return fmt.Errorf("%w: --export: %s is %s, and gloved writes only inside the directory it is given: remove it or name another directory", errUsage, userfile.Name(dir), userfile.Describe(fi.Mode()))
	}
	ed, err := openExportDir("--export", dir)
	if err != nil {
		return err
	}
	if err := writeLinks(ed.stage, s.Pipeline.Body()); err != nil {
		return ed.abandon(err)
	}
	if err := writeSceneOBJ(filepath.Join(ed.stage, "scene.obj"), scene); err != nil {
		return ed.abandon(err)
	}
	if _, err = exportFrames(ctx, s, frames, ed.stage); err != nil {
		return ed.abandon(err)
	}
	return ed.commit(s.Pipeline.Body())
}

// writeGlovedTiming writes gloved.json beside an export: gloved's own
// timing of the scene's frames (those after the first warm_frames, which
// the peers leave out too) and the band, for bench/coal's ratios.
func writeGlovedTiming(dir string, row sceneRow, band float64) error {
	b, err := json.Marshal(map[string]any{"class": row.Class, "motion": row.Motion, "tris": row.Tris, "band_m": band, "warm_frames": warmFrames,
		"collision_p50_us": row.Collision.P50US, "collision_p99_us": row.Collision.P99US, "collision_mean_us": row.Collision.MeanUS})
	if err != nil {
		return err
	}
	return userfile.WriteFile(filepath.Join(dir, "gloved.json"), func(w io.Writer) error { _, err := w.Write(append(b, '\n')); return err })
}

// benchScene builds one scene and runs the motion through it.
func benchScene(ctx context.Context, class string, scene *env.Mesh, motion string, frames int, opt session.PipelineOptions) (sceneRow, error) {
	before := heapInUse()
	t0 := time.Now()
	s, err := openScene(scene, motion, opt)
	if err != nil {
		return sceneRow{}, err
	}
	defer s.Close()
	row := sceneRow{Class: class, Motion: motion, Tris: len(scene.Tris), BuildS: time.Since(t0).Seconds()}
	held := max(0, heapInUse()-before) + meshBytes(scene)
	row.MemMB, row.BytesPerTri = float64(held)/(1<<20), float64(held)/float64(max(1, len(scene.Tris)))
	var times stageTimes
	for k := range times {
		times[k] = make([]time.Duration, 0, frames)
	}
	if err := benchPass(ctx, s, warmFrames, &times, false, nil); err != nil {
		return row, err
	}
	contacts, near := 0, 0
	start := time.Now()
	err = benchPass(ctx, s, warmFrames+frames, &times, true, func() {
		contacts += len(s.Pipeline.Contacts())
		near += len(s.Pipeline.Near())
	})
	if err != nil {
		return row, err
	}
	row.Frames = s.Frames - warmFrames
	row.FramesPerSec = float64(row.Frames) / time.Since(start).Seconds()
	row.ContactsPerFrm = float64(contacts) / float64(max(1, row.Frames))
	row.NearPerFrame = float64(near) / float64(max(1, row.Frames))
	row.Collision = times.collision()
	row.Stages = times.summary()
	return row, nil
}

// heapInUse returns the bytes the heap holds after a collection.
func heapInUse() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// meshBytes is what scene's mesh takes: it is built before the session,
// so the session's heap growth leaves it out.
func meshBytes(m *env.Mesh) int64 {
	return int64(len(m.Verts))*int64(unsafe.Sizeof(m.Verts[0])) + int64(len(m.Tris))*(int64(unsafe.Sizeof(m.Tris[0]))+int64(unsafe.Sizeof(m.Object[0])))
}

// printSceneRow prints one scene as a table row (the header first).
func printSceneRow(out io.Writer, r sceneRow, header bool) {
	if header {
		fmt.Fprintf(out, "%-6s %-6s %9s %8s %7s %9s %9s %9s %9s %9s %8s %8s\n", "class", "motion", "tris", "build s", "B/tri", "refit", "traverse", "narrow", "total", "total p99", "contacts", "near")
		fmt.Fprintf(out, "%-6s %-6s %9s %8s %7s %9s %9s %9s %9s %9s %8s %8s\n", "", "", "", "", "", "p50 us", "p50 us", "p50 us", "p50 us", "us", "/frame", "/frame")
	}
	st := map[string]stageStats{}
	for _, s := range r.Stages {
		st[s.Stage] = s
	}
	fmt.Fprintf(out, "%-6s %-6s %9d %8.2f %7.0f %9.1f %9.1f %9.1f %9.1f %9.1f %8.1f %8.1f\n", r.Class, r.Motion, r.Tris, r.BuildS, r.BytesPerTri,
		st["refit"].P50US, st["traverse"].P50US, st["narrow"].P50US, st["total"].P50US, st["total"].P99US, r.ContactsPerFrm, r.NearPerFrame)
}

// writeScenesPlot draws each class and motion's p50 frame time against its
// scenes' triangles, log-log.
func writeScenesPlot(path string, rows []sceneRow) error {
	p := logLogPlot{Title: "Frame time against scene size (p50, whole frame)", XLabel: "triangles", YLabel: "frame time (us)"}
	colors := []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939"}
	index := map[string]int{}
	for _, r := range rows {
		key := r.Class + " " + r.Motion
		i, ok := index[key]
		if !ok {
			i = len(p.Series)
			index[key] = i
			p.Series = append(p.Series, series{Name: key, Color: colors[i%len(colors)]})
		}
		for _, st := range r.Stages {
			if st.Stage == "total" {
				p.Series[i].X = append(p.Series[i].X, float64(r.Tris))
				p.Series[i].Y = append(p.Series[i].Y, st.P50US)
			}
		}
	}
	return p.WriteFile(path)
}
