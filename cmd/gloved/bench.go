package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/gloved/gloved/env/experiments"
)

// benchExperiment is one experiment of `gloved bench`.
type benchExperiment struct {
	name string
	run  func(ctx context.Context, args []string, out io.Writer) error
}

// benchExperiments are gloved bench's experiments, in the order its usage
// lists them.
var benchExperiments = []benchExperiment{
	{"proximity", runProximity},
	{"cab", runBenchCAB},
	{"self", runBenchSelf},
	{"bch", runBenchBCH},
	{"pipeline", runBenchPipeline},
	{"scenes", runBenchScenes},
	{"latency", runBenchLatency},
}

func runBench(ctx context.Context, args []string, out io.Writer) error {
	names := make([]string, len(benchExperiments))
	for i, e := range benchExperiments {
		names[i] = e.name
	}
	if len(args) == 0 {
		return fmt.Errorf("%w: bench needs an experiment: %s or %s", errUsage, strings.Join(names[:len(names)-1], ", "), names[len(names)-1])
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		fmt.Fprintf(out, "usage: gloved bench %s [flags]; gloved bench EXPERIMENT -h for its flags\n", strings.Join(names, "|"))
		return errHelp
	}
	for _, e := range benchExperiments {
		if e.name == args[0] {
			err := e.run(ctx, args[1:], out)
			if ctx.Err() != nil && !errors.Is(err, errUsage) && !errors.Is(err, errHelp) {
				return fmt.Errorf("bench %s interrupted (%v): what it printed is all it measured; run it again and let it finish", e.name, context.Cause(ctx))
			}
			return err
		}
	}
	return fmt.Errorf("%w: unknown experiment %q (have: %s)", errUsage, args[0], strings.Join(names, ", "))
}

func runProximity(ctx context.Context, args []string, out io.Writer) error {
	fs := newBenchFlags("proximity", "gloved bench proximity [--level N] [--eps-max E] [--eps-min E] [--per-decade K] [--fit-max E] [--plateau F] [--plot FILE.svg] [--json]", "print one JSON object", out)
	o := experiments.DefaultProximityOpts
	fs.IntVar(&o.Level, "level", o.Level, "sphere tessellation: 8·4^level triangles (6: 32768, as in the paper)")
	fs.Float64Var(&o.EpsMax, "eps-max", o.EpsMax, "largest gap between the spheres")
	fs.Float64Var(&o.EpsMin, "eps-min", o.EpsMin, "smallest gap")
	fs.IntVar(&o.PerDecade, "per-decade", o.PerDecade, "gaps per decade")
	fs.Float64Var(&o.FitMax, "fit-max", o.FitMax, "largest gap in the slope fits (above it the trees part at the root)")
	fs.Float64Var(&o.Plateau, "plateau", o.Plateau, "a curve's linear portion ends where it passes this fraction of its largest count")
	fs.addPlot("", "write the log-log plot (the paper's figure 5) as an SVG plot")
	if err := fs.parse(args); err != nil {
		return err
	}
	if err := o.Check(); err != nil {
		return fmt.Errorf("%w: --%v", errUsage, err) // Check names each option as its flag
	}
	rows := 0
	res, err := experiments.Proximity(ctx, o, func(row experiments.ProximityRow) {
		if fs.json {
			return
		}
		if rows == 0 {
			fmt.Fprintf(out, "parallel close proximity: concentric spheres of %d triangles, radii 1 and 1+eps\n", 8<<(2*o.Level))
			fmt.Fprintf(out, "%10s %14s %14s %12s %12s %10s %10s\n", "eps", "OBB box tests", "AABB box tests", "OBB tri", "AABB tri", "OBB ms", "AABB ms")
		}
		rows++
		fmt.Fprintf(out, "%10.3g %14d %14d %12d %12d %10.2f %10.2f\n", row.Eps, row.OBBTests, row.AABBTests, row.OBBTri, row.AABBTri, row.OBBMs, row.AABBMs)
	})
	if err != nil {
		return err
	}
	plot := func(path string) error { return writeProximityPlot(path, res) }
	return fs.report(out, res, plot, func() {
		for _, c := range []struct {
			name string
			f    experiments.SlopeFit
		}{{"OBBTree  ", res.OBB}, {"AABB tree", res.AABB}} {
			if c.f.Points < 2 { // no line through fewer than two points
				fmt.Fprintf(out, "%s log-log slope: none, %d gaps within --fit-max %g and below the plateau (a slope needs two: widen --eps-max..--eps-min or raise --fit-max)\n", c.name, c.f.Points, o.FitMax)
				continue
			}
			fmt.Fprintf(out, "%s log-log slope %.2f over %d gaps, eps %.3g..%.3g\n", c.name, c.f.Slope, c.f.Points, c.f.EpsMax, c.f.EpsMin)
		}
		fmt.Fprintln(out, "paper (section 6, fig. 5): slopes of the linear portions about -1 (OBB) and -2 (AABB)")
	})
}

func writeProximityPlot(path string, res *experiments.ProximityResult) error {
	p := logLogPlot{
		Title:  fmt.Sprintf("Parallel close proximity: concentric spheres, %d triangles each", res.Triangles),
		XLabel: "eps (gap between the spheres)",
		YLabel: "box overlap tests",
	}
	var obb, aabb series
	obb.Name = fmt.Sprintf("OBBTree (slope %.2f)", res.OBB.Slope)
	aabb.Name = fmt.Sprintf("AABB tree (slope %.2f)", res.AABB.Slope)
	obb.Color, aabb.Color = "#1f77b4", "#d62728"
	for _, r := range res.Rows {
		obb.X, obb.Y = append(obb.X, r.Eps), append(obb.Y, float64(max(r.OBBTests, 1)))
		aabb.X, aabb.Y = append(aabb.X, r.Eps), append(aabb.Y, float64(max(r.AABBTests, 1)))
	}
	p.Series = []series{aabb, obb}
	return p.WriteFile(path)
}
