package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/gloved/gloved/env/experiments"
)

func runBench(ctx context.Context, args []string, out io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: bench needs an experiment: proximity, cab, self, bch, pipeline, scenes or latency", errUsage)
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		fmt.Fprintln(out, "usage: gloved bench proximity|cab|self|bch|pipeline|scenes|latency [flags]; gloved bench EXPERIMENT -h for its flags")
		return errHelp
	case "proximity":
		return runProximity(ctx, args[1:], out)
	case "cab":
		return runBenchCAB(ctx, args[1:], out)
	case "self":
		return runBenchSelf(ctx, args[1:], out)
	case "bch":
		return runBenchBCH(ctx, args[1:], out)
	case "pipeline":
		return runBenchPipeline(ctx, args[1:], out)
	case "scenes":
		return runBenchScenes(ctx, args[1:], out)
	case "latency":
		return runBenchLatency(ctx, args[1:], out)
	}
	return fmt.Errorf("%w: unknown experiment %q (have: proximity, cab, self, bch, pipeline, scenes, latency)", errUsage, args[0])
}

func runProximity(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("bench proximity", "gloved bench proximity [--level N] [--eps-max E] [--eps-min E] [--per-decade K] [--fit-max E] [--plateau F] [--plot FILE.svg] [--json]", out)
	o := experiments.DefaultProximityOpts
	fs.IntVar(&o.Level, "level", o.Level, "sphere tessellation: 8·4^level triangles (6: 32768, as in the paper)")
	fs.Float64Var(&o.EpsMax, "eps-max", o.EpsMax, "largest gap between the spheres")
	fs.Float64Var(&o.EpsMin, "eps-min", o.EpsMin, "smallest gap")
	fs.IntVar(&o.PerDecade, "per-decade", o.PerDecade, "gaps per decade")
	fs.Float64Var(&o.FitMax, "fit-max", o.FitMax, "largest gap in the slope fits (above it the trees part at the root)")
	fs.Float64Var(&o.Plateau, "plateau", o.Plateau, "a curve's linear portion ends where it passes this fraction of its largest count")
	plot := fs.String("plot", "proximity.svg", "write the log-log plot to this SVG file (\"\" for none)")
	asJSON := fs.Bool("json", false, "print one JSON object")
	if pos, err := parseInterleaved(fs, args); err != nil {
		return err
	} else if len(pos) > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, pos[0])
	}
	if err := o.Check(); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	rows := 0
	res, err := experiments.Proximity(ctx, o, func(row experiments.ProximityRow) {
		if *asJSON {
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
	if *plot != "" {
		if err := writeProximityPlot(*plot, res); err != nil {
			return err
		}
	}
	if *asJSON {
		return json.NewEncoder(out).Encode(res)
	}
	for _, c := range []struct {
		name string
		f    experiments.SlopeFit
	}{{"OBBTree  ", res.OBB}, {"AABB tree", res.AABB}} {
		fmt.Fprintf(out, "%s log-log slope %.2f over %d gaps, eps %.3g..%.3g\n", c.name, c.f.Slope, c.f.Points, c.f.EpsMax, c.f.EpsMin)
	}
	fmt.Fprintln(out, "paper (section 6, fig. 5): slopes of the linear portions about -1 (OBB) and -2 (AABB)")
	if *plot != "" {
		fmt.Fprintf(out, "plot written to %s\n", *plot)
	}
	return nil
}

func writeProximityPlot(path string, res *experiments.ProximityResult) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("plot: %w", err)
	}
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
	if err := p.WriteSVG(f); err != nil {
		f.Close()
		return fmt.Errorf("plot: %w", err)
	}
	return f.Close()
}
