package main

import (
	"context"
	"errors"
	"fmt"
	"html"
	"io"
	"math"
	"strings"

	"github.com/gloved/gloved/bch/experiments"
	"github.com/gloved/gloved/internal/userfile"
)

// runBenchBCH runs the bounding cylinder hierarchy paper's experiments
// (bch/experiments) and prints them beside the paper's numbers.
func runBenchBCH(ctx context.Context, args []string, out io.Writer) error {
	fs := newBenchFlags("bch", "gloved bench bch [--bodies humanoid,hand,skin] [--poses N] [--cases N] [--iters N] [--slides N] [--cells N] [--seed N] [--mesh FILE.glb] [--json] [--plot FILE.svg]", "print one JSON object", out)
	o := experiments.DefaultOptions
	bodies := fs.String("bodies", strings.Join(o.Bodies, ","), "bodies to measure: humanoid (procedural, 2,848 triangles), hand (procedural), skin (the skinned hand of --mesh)")
	fs.IntVar(&o.Poses, "poses", o.Poses, "random posed meshes per body (the paper: 200)")
	fs.IntVar(&o.Cases, "cases", o.Cases, "colliding query cases (the paper: 500)")
	fs.IntVar(&o.Iters, "iters", o.Iters, "passes over the cases in the query timing (the paper: 10000)")
	fs.IntVar(&o.Slides, "slides", o.Slides, "minimum-distance slides (the paper: 500)")
	fs.IntVar(&o.Cells, "cells", o.Cells, "volume raster cells per body height")
	fs.Uint64Var(&o.Seed, "seed", o.Seed, "seed of every random draw")
	fs.StringVar(&o.Mesh, "mesh", o.Mesh, "the skinned glTF hand of the skin body")
	fs.addPlot("", "write the minimum distance per depth (the paper's figure 6b) as an SVG plot")
	if err := fs.parse(args); err != nil {
		return err
	}
	o.Bodies = strings.Split(*bodies, ",")
	if err := o.Check(); err != nil {
		if re, ok := errors.AsType[*experiments.RangeError](err); ok {
			return between(re.Name, re.V, re.Min, re.Max)
		}
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	res, err := experiments.Run(ctx, o, nil)
	if err != nil {
		return err
	}
	plot := func(path string) error { return writeDepthPlot(path, res) }
	return fs.report(out, res, plot, func() {
		printBCHResult(out, res)
	})
}

// printBCHResult prints the four experiments' tables.
func printBCHResult(out io.Writer, r *experiments.Result) {
	o := r.Options
	fmt.Fprintf(out, "bounding cylinder hierarchy experiments: %d poses a body, seed %d\n\n", o.Poses, o.Seed)
	fmt.Fprintf(out, "construction per pose, us, mean / median (figure 3, left)\n")
	fmt.Fprintf(out, "  %-9s %6s %9s %21s %21s %17s %21s\n", "body", "tris", "threshold", "BCH contour", "BCH triangles", "single", "OBB tree")
	for _, b := range r.Bodies {
		c := b.Construction
		fmt.Fprintf(out, "  %-9s %6.0f %7.0fmm %10.0f / %8.0f %10.0f / %8.0f %8.0f / %6.0f %10.0f / %8.0f\n", b.Body, c.Triangles, 1e3*c.Threshold,
			c.ContourUS.Mean, c.ContourUS.Median, c.TrianglesUS.Mean, c.TrianglesUS.Median, c.SingleUS.Mean, c.SingleUS.Median, c.OBBUS.Mean, c.OBBUS.Median)
	}
	fmt.Fprintf(out, "\nquery per colliding case, us (%d cases x %d passes; figure 3, right; paper: BCH contour 2.66, OBB contour 4.63, OBB projected triangles 20.66)\n", o.Cases, o.Iters)
	fmt.Fprintf(out, "  %-9s %18s %18s %18s %10s %10s   (cases found)\n", "body", "contour, tall", "contour", "triangles", "single", "OBB tree")
	for _, b := range r.Bodies {
		q := b.Query
		fmt.Fprintf(out, "  %-9s %8.2f (%6d) %8.2f (%6d) %8.2f (%6d) %10.3f %10.2f\n", b.Body, q.TallUS, q.TallHits, q.ContourUS, q.ContourHits,
			q.TrianglesUS, q.TrianglesHits, q.SingleUS, q.OBBUS)
	}
	fmt.Fprintf(out, "\nmesh distance when a collision is first found, sliding, mm, mean (figure 6; paper: cylinder 200, BCH contour 50, OBB contour 40; critical depth 9)\n")
	fmt.Fprintf(out, "  each body: the contour tree with tall cylinders (the paper's), as built, the triangles tree\n")
	fmt.Fprintf(out, "  %-17s", "depth")
	for _, b := range r.Bodies {
		fmt.Fprintf(out, " %26s", b.Body)
	}
	fmt.Fprintln(out)
	for di := range experiments.MaxDepth + 2 {
		label := fmt.Sprint(di)
		if di > experiments.MaxDepth {
			label = "unlimited"
		}
		fmt.Fprintf(out, "  %-17s", label)
		for _, b := range r.Bodies {
			d := b.Distance
			fmt.Fprintf(out, " %8.1f %8.1f %8.1f", 1e3*d.Tall[di].Mean, 1e3*d.Contour[di].Mean, 1e3*d.Triangles[di].Mean)
		}
		fmt.Fprintln(out)
	}
	for _, b := range r.Bodies {
		d := b.Distance
		fmt.Fprintf(out, "  %-9s single cylinder %.1f, exact %.2f; critical depth tall %d, contour %d, triangles %d (-1: none up to %d); %d slides\n",
			b.Body, 1e3*d.Cylinder.Mean, 1e3*d.Exact.Mean, d.TallCritical, d.ContourCritical, d.TrianglesCritical, experiments.MaxDepth, d.Tests)
	}
	fmt.Fprintf(out, "\nrepresented volume / mesh volume, mean / median / stddev (figure 7, table 1; paper: cylinder 11.09/9.50/3.55 and 7.70/6.99/1.75, BCH 4.61/4.27/0.76 and 3.57/3.34/0.51; radii 0.34 and 0.42 m)\n")
	fmt.Fprintf(out, "  %-9s %16s %12s %20s %20s %20s\n", "body", "radius m", "mesh cm3", "cylinder", "BCH", "BCH finite")
	for _, b := range r.Bodies {
		v := b.Volume
		stat := func(s experiments.Stat) string {
			return fmt.Sprintf("%5.2f / %5.2f / %4.2f", s.Mean, s.Median, s.StdDev)
		}
		fmt.Fprintf(out, "  %-9s %7.3f / %6.3f %12.0f %20s %20s %20s\n", b.Body, v.Radius.Mean, v.Radius.StdDev, 1e6*v.Mesh.Mean,
			stat(v.Cylinder), stat(v.BCH), stat(v.BCHFinite))
	}
}

// writeDepthPlot draws the mean distance at which each depth limit finds
// a collision, a curve per body (solid: the tall contour tree, the
// paper's; dashed: the contour tree as built), on a log scale.
func writeDepthPlot(path string, r *experiments.Result) error {
	const w, h, left, right, top, bottom = 720, 480, 80, 160, 40, 60
	n := experiments.MaxDepth + 2
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, b := range r.Bodies {
		for _, rows := range [][]experiments.Depth{b.Distance.Tall, b.Distance.Contour} {
			for _, d := range rows {
				if d.Mean > 0 {
					lo, hi = math.Min(lo, math.Log10(1e3*d.Mean)), math.Max(hi, math.Log10(1e3*d.Mean))
				}
			}
		}
	}
	if math.IsInf(lo, 0) {
		return fmt.Errorf("nothing to plot")
	}
	lo, hi = math.Floor(lo), math.Max(math.Ceil(hi), math.Floor(lo)+1)
	x := func(di int) float64 { return left + float64(di)/float64(n-1)*(w-left-right) }
	y := func(mm float64) float64 { return h - bottom - (math.Log10(mm)-lo)/(hi-lo)*(h-top-bottom) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">`+"\n", w, h)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/><text x="%d" y="24" font-size="15">Mesh distance when a collision is found, per maximum depth (paper figure 6b)</text>`+"\n", left)
	for e := lo; e <= hi; e++ {
		fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/><text x="%d" y="%.1f" text-anchor="end">%g mm</text>`+"\n",
			left, y(math.Pow(10, e)), w-right, y(math.Pow(10, e)), left-6, y(math.Pow(10, e))+4, math.Pow(10, e))
	}
	for di := range n {
		label := fmt.Sprint(di)
		if di == n-1 {
			label = "∞"
		}
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">%s</text>`+"\n", x(di), h-bottom+18, label)
	}
	fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="black"/>`+"\n", left, top, w-left-right, h-top-bottom)
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">maximum depth d</text>`+"\n", (w-right+left)/2, h-18)
	colors := []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd"}
	for bi, body := range r.Bodies {
		c := colors[bi%len(colors)]
		for k, rows := range [][]experiments.Depth{body.Distance.Tall, body.Distance.Contour} {
			var pts []string
			for di, d := range rows {
				if d.Mean > 0 {
					pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(di), y(1e3*d.Mean)))
				}
			}
			dash := ""
			if k == 1 {
				dash = ` stroke-dasharray="6 4"`
			}
			fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="2"%s/>`+"\n", strings.Join(pts, " "), c, dash)
		}
		ly := top + 20 + 36*bi
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"/><text x="%d" y="%d">%s, tall</text>`+"\n",
			w-right+10, ly, w-right+35, ly, c, w-right+40, ly+4, html.EscapeString(body.Body))
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2" stroke-dasharray="6 4"/><text x="%d" y="%d">%s, finite</text>`+"\n",
			w-right+10, ly+16, w-right+35, ly+16, c, w-right+40, ly+20, html.EscapeString(body.Body))
	}
	b.WriteString("</svg>\n")
	return userfile.WriteFile(path, func(w io.Writer) error { _, err := io.WriteString(w, b.String()); return err })
}
