package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
)

func runBench(ctx context.Context, args []string, out io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: bench needs an experiment: proximity, cab or pipeline", errUsage)
	}
	switch args[0] {
	case "proximity":
		return runProximity(ctx, args[1:], out)
	case "cab":
		return runBenchCAB(ctx, args[1:], out)
	case "pipeline":
		return runBenchPipeline(ctx, args[1:], out)
	}
	return fmt.Errorf("%w: unknown experiment %q (have: proximity, cab, pipeline)", errUsage, args[0])
}

// proximityRow is one gap of the parallel-close-proximity experiment.
type proximityRow struct {
	Eps       float64 `json:"eps"`
	OBBTests  int     `json:"obb_box_tests"`
	AABBTests int     `json:"aabb_box_tests"`
	OBBTri    int     `json:"obb_tri_tests"`
	AABBTri   int     `json:"aabb_tri_tests"`
	OBBMs     float64 `json:"obb_query_ms"`
	AABBMs    float64 `json:"aabb_query_ms"`
}

type proximityResult struct {
	Triangles int            `json:"triangles"`
	Rows      []proximityRow `json:"rows"`
	OBB       slopeFit       `json:"obb"`
	AABB      slopeFit       `json:"aabb"`
}

// slopeFit is a least-squares line through one curve's linear portion.
type slopeFit struct {
	Slope  float64 `json:"slope"`
	EpsMax float64 `json:"fit_eps_max"`
	EpsMin float64 `json:"fit_eps_min"`
	Points int     `json:"fit_points"`
}

func runProximity(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("bench proximity", "gloved bench proximity [--level N] [--eps-max E] [--eps-min E] [--per-decade K] [--fit-max E] [--plateau F] [--plot FILE.svg] [--json]", out)
	level := fs.Int("level", 6, "sphere tessellation: 8·4^level triangles (6: 32768, as in the paper)")
	epsMax := fs.Float64("eps-max", 1, "largest gap between the spheres")
	epsMin := fs.Float64("eps-min", 1e-5, "smallest gap")
	perDecade := fs.Int("per-decade", 2, "gaps per decade")
	fitMax := fs.Float64("fit-max", 0.5, "largest gap in the slope fits (above it the trees part at the root)")
	plateau := fs.Float64("plateau", 1.0/3, "a curve's linear portion ends where it passes this fraction of its largest count")
	plot := fs.String("plot", "proximity.svg", "write the log-log plot to this SVG file (\"\" for none)")
	asJSON := fs.Bool("json", false, "print one JSON object")
	if pos, err := parseInterleaved(fs, args); err != nil {
		return err
	} else if len(pos) > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, pos[0])
	}
	if *level < 1 || *level > 9 || !(*epsMin > 0) || !(*epsMax >= *epsMin) || *perDecade < 1 {
		return fmt.Errorf("%w: want 1 <= level <= 9, 0 < eps-min <= eps-max, per-decade >= 1", errUsage)
	}
	inner := env.Sphere("inner", mgl64.Vec3{}, 1, *level)
	trees := map[geom.FitMode]*env.Tree{}
	for _, fit := range []geom.FitMode{geom.FitHull, geom.FitAxisAligned} {
		t, err := env.Build(inner, env.BuildOptions{Fit: fit})
		if err != nil {
			return err
		}
		trees[fit] = t
	}
	res := proximityResult{Triangles: len(inner.Tris)}
	decades := math.Log10(*epsMax / *epsMin)
	steps := int(math.Round(decades*float64(*perDecade))) + 1
	var c env.Collider
	for i := range steps {
		if err := ctx.Err(); err != nil {
			return err
		}
		eps := *epsMax * math.Pow(10, -float64(i)/float64(*perDecade))
		outer := env.Sphere("outer", mgl64.Vec3{}, 1+eps, *level)
		row := proximityRow{Eps: eps}
		for _, fit := range []geom.FitMode{geom.FitHull, geom.FitAxisAligned} {
			tb, err := env.Build(outer, env.BuildOptions{Fit: fit})
			if err != nil {
				return err
			}
			start := time.Now()
			c.Collide(trees[fit], tb, geom.Identity())
			ms := float64(time.Since(start).Nanoseconds()) / 1e6
			if len(c.Pairs) != 0 {
				return fmt.Errorf("eps %g: concentric spheres reported %d contacts", eps, len(c.Pairs))
			}
			if fit == geom.FitHull {
				row.OBBTests, row.OBBTri, row.OBBMs = c.BoxTests, c.TriTests, ms
			} else {
				row.AABBTests, row.AABBTri, row.AABBMs = c.BoxTests, c.TriTests, ms
			}
		}
		res.Rows = append(res.Rows, row)
		if !*asJSON {
			if i == 0 {
				fmt.Fprintf(out, "parallel close proximity: concentric spheres of %d triangles, radii 1 and 1+eps\n", res.Triangles)
				fmt.Fprintf(out, "%10s %14s %14s %12s %12s %10s %10s\n", "eps", "OBB box tests", "AABB box tests", "OBB tri", "AABB tri", "OBB ms", "AABB ms")
			}
			fmt.Fprintf(out, "%10.3g %14d %14d %12d %12d %10.2f %10.2f\n", eps, row.OBBTests, row.AABBTests, row.OBBTri, row.AABBTri, row.OBBMs, row.AABBMs)
		}
	}
	res.OBB = fitLinearPortion(res.Rows, func(r proximityRow) int { return r.OBBTests }, *fitMax, *plateau)
	res.AABB = fitLinearPortion(res.Rows, func(r proximityRow) int { return r.AABBTests }, *fitMax, *plateau)
	if *plot != "" {
		if err := writeProximityPlot(*plot, &res); err != nil {
			return err
		}
	}
	if *asJSON {
		return json.NewEncoder(out).Encode(res)
	}
	for _, c := range []struct {
		name string
		f    slopeFit
	}{{"OBBTree  ", res.OBB}, {"AABB tree", res.AABB}} {
		fmt.Fprintf(out, "%s log-log slope %.2f over %d gaps, eps %.3g..%.3g\n", c.name, c.f.Slope, c.f.Points, c.f.EpsMax, c.f.EpsMin)
	}
	fmt.Fprintln(out, "paper (section 6, fig. 5): slopes of the linear portions about -1 (OBB) and -2 (AABB)")
	if *plot != "" {
		fmt.Fprintf(out, "plot written to %s\n", *plot)
	}
	return nil
}

// fitLinearPortion fits log10(box tests) = a + slope·log10(eps) by least
// squares over one curve's linear portion: the gaps no larger than fitMax
// (at larger gaps the trees part near the root and counts are tiny) whose
// count is still below plateau times the curve's largest count (past that
// the tree has been traversed to its leaves and the curve levels off).
func fitLinearPortion(rows []proximityRow, count func(proximityRow) int, fitMax, plateau float64) slopeFit {
	top := 0
	for _, r := range rows {
		top = max(top, count(r))
	}
	var xs, ys []float64
	f := slopeFit{}
	for _, r := range rows {
		n := count(r)
		if r.Eps > fitMax || n < 1 || float64(n) > plateau*float64(top) {
			continue
		}
		if f.Points == 0 {
			f.EpsMax = r.Eps
		}
		f.EpsMin = r.Eps
		f.Points++
		xs = append(xs, math.Log10(r.Eps))
		ys = append(ys, math.Log10(float64(n)))
	}
	f.Slope = slope(xs, ys)
	return f
}

// slope is the least-squares slope of y on x; NaN-free: 0 for fewer than
// two distinct x.
func slope(x, y []float64) float64 {
	n := float64(len(x))
	if n < 2 {
		return 0
	}
	var sx, sy, sxx, sxy float64
	for i := range x {
		sx, sy, sxx, sxy = sx+x[i], sy+y[i], sxx+x[i]*x[i], sxy+x[i]*y[i]
	}
	d := n*sxx - sx*sx
	if d == 0 {
		return 0
	}
	return (n*sxy - sx*sy) / d
}

func writeProximityPlot(path string, res *proximityResult) error {
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
