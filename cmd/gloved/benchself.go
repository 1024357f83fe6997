package main

import (
	"context"
	"fmt"
	"io"

	"github.com/gloved/gloved/chains"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/selfcontact"
	selfexp "github.com/gloved/gloved/selfcontact/experiments"
)

// runBenchSelf runs the sphere-chain experiments (selfcontact/experiments)
// on the procedural hand and, with --mesh, on a skinned hand.
func runBenchSelf(ctx context.Context, args []string, out io.Writer) error {
	fs := newBenchFlags("self", "gloved bench self [--mesh FILE.glb] [--frames N] [--plot FILE.svg] [--json]", "print one JSON object", out)
	mesh := fs.String("mesh", "", "also measure the hand built on this skinned glTF (such as handmodel/testdata/webxr-generic-hand/right.glb)")
	frames := fs.Int("frames", 300, "frames of each simulated motion (grasp, tap, pinch, fist, cross)")
	fs.addPlot("", "write each sphere's accuracy F for the three fits as an SVG plot (the paper's figure 13)")
	if err := fs.parse(args); err != nil {
		return err
	}
	if err := between("frames", *frames, 1, maxBenchFrames); err != nil {
		return err
	}
	hands := []struct {
		name string
		p    handmodel.Params
	}{{"procedural", handmodel.DefaultParams}}
	if *mesh != "" {
		hands = append(hands, struct {
			name string
			p    handmodel.Params
		}{"skinned", handmodel.Params{Right: true, Mesh: *mesh}})
	}
	var results []selfexp.Result
	for _, hd := range hands {
		h, err := handmodel.New(hd.p)
		if err != nil {
			return fmt.Errorf("--mesh: %w", err)
		}
		r, err := selfexp.Run(ctx, hd.name, h, selfcontact.DefaultOptions, *frames)
		if err != nil {
			return err
		}
		results = append(results, r)
	}
	plot := func(path string) error { return writeSpherePlot(path, results) }
	return fs.report(out, results, plot, func() {
		for _, r := range results {
			printSelfResult(out, r)
		}
	})
}

// printSelfResult prints one hand's tables.
func printSelfResult(out io.Writer, r selfexp.Result) {
	fmt.Fprintf(out, "%s hand: %d spheres\n", r.Hand, len(r.Spheres))
	fmt.Fprintf(out, "sphere accuracy F (mm): mean over each sphere's surrounding region, averaged by region [largest]\n")
	fmt.Fprintf(out, "  %-8s %7s %16s %16s %16s\n", "region", "spheres", "j1", "j2", "j1'")
	order := []string{}
	by := map[string][]selfexp.SphereF{}
	for _, s := range r.Spheres {
		if _, ok := by[s.Region]; !ok {
			order = append(order, s.Region)
		}
		by[s.Region] = append(by[s.Region], s)
	}
	for _, reg := range append(order, "all") {
		ss := by[reg]
		if reg == "all" {
			ss = r.Spheres
		}
		fmt.Fprintf(out, "  %-8s %7d", reg, len(ss))
		for k := range chains.NumMethods {
			mean, worst := 0.0, 0.0
			for _, s := range ss {
				mean += s.F[k].Mean
				worst = max(worst, s.F[k].Max)
			}
			fmt.Fprintf(out, " %7.2f [%6.2f]", 1e3*mean/float64(len(ss)), 1e3*worst)
		}
		fmt.Fprintln(out)
	}
	fmt.Fprintf(out, "overlap tests per frame (us; par: goroutines), overlapping pairs, and the spheres against the exact test\n")
	fmt.Fprintf(out, "  %-6s %6s %6s %7s %7s %8s %8s %8s %9s %9s %7s %7s %13s %12s\n",
		"motion", "M1", "M2", "M1 par", "M2 par", "chained", "M1 pairs", "M2 pairs", "proposed", "touching", "FP %", "FN %", "FN % no slack", "frame p50/99")
	for _, m := range r.Motions {
		fmt.Fprintf(out, "  %-6s %6.2f %6.2f %7.1f %7.1f %8.2f %8.1f %8.1f %9.1f %9.1f %7.1f %7.1f %13.1f %6.1f/%5.1f\n",
			m.Name, m.M1US, m.M2US, m.M1ParUS, m.M2ParUS, m.ChainedUS, m.M1Pairs, m.M2Pairs, m.Proposed, m.Touching,
			percent(m.FalsePos, m.ProposedPairs), percent(m.FalseNeg, m.TouchingPairs), percent(m.FalseNegNoSlack, m.TouchingPairs),
			m.FrameP50US, m.FrameP99US)
	}
}

// percent is 100·a/b, 0 for an empty b.
func percent(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

// writeSpherePlot plots each sphere's mean F (mm) against its number, a
// series per hand and fit.
func writeSpherePlot(path string, results []selfexp.Result) error {
	p := logLogPlot{Title: "sphere accuracy F per sphere (seed figure 13)", XLabel: "sphere", YLabel: "mean F over its region (mm)"}
	colors := []string{"#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"}
	names := [chains.NumMethods]string{"j1", "j2", "j1'"}
	for hi, r := range results {
		for k := range chains.NumMethods {
			s := series{Name: r.Hand + " " + names[k], Color: colors[(hi*int(chains.NumMethods)+int(k))%len(colors)]}
			for i, sp := range r.Spheres {
				s.X, s.Y = append(s.X, float64(i+1)), append(s.Y, 1e3*sp.F[k].Mean)
			}
			p.Series = append(p.Series, s)
		}
	}
	return p.WriteFile(path)
}
