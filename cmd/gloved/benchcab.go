package main

import (
	"context"
	"fmt"
	"html"
	"io"
	"strings"

	"github.com/gloved/gloved/cab/experiments"
	"github.com/gloved/gloved/internal/userfile"
)

// paperUpdateRatio is the CAB paper's t[upd] OBB / CAB per table (tables
// 1-5: 14.63/6.34, 14.62/6.33, 14.70/6.36, 14.90/6.35, 6.65/3.01).
var paperUpdateRatio = []float64{2.31, 2.31, 2.31, 2.35, 2.21}

type cabExperiment struct {
	title string
	run   func(ctx context.Context, frames int) (*experiments.Table, error)
}

func cabExperiments() []cabExperiment {
	chain := func(name string, m experiments.Motion, s experiments.LinkShape) func(context.Context, int) (*experiments.Table, error) {
		return func(ctx context.Context, frames int) (*experiments.Table, error) {
			return experiments.ChainExperiment(ctx, name, m, s, frames)
		}
	}
	return []cabExperiment{
		{"Table 1: two chains of 8 convex links, length:thickness 3:1, wave motion", chain("convex 3:1", experiments.Wave, experiments.LinkShape{Length: 3, Thickness: 1})},
		{"Table 2: two chains of 8 convex links, 6:1, wave motion", chain("convex 6:1", experiments.Wave, experiments.LinkShape{Length: 6, Thickness: 1})},
		{"Table 3: two chains of 8 non-convex (dented) links, 6:1, wave motion", chain("dented 6:1", experiments.Wave, experiments.LinkShape{Length: 6, Thickness: 1, Dented: true})},
		{"Table 4: two chains of 8 convex links, 6:1, braided", chain("braided 6:1", experiments.Braid, experiments.LinkShape{Length: 6, Thickness: 1})},
		{"Table 5: the hand (simulated glove) grasping a ball on a table", func(ctx context.Context, frames int) (*experiments.Table, error) {
			return experiments.HandExperiment(ctx, frames, 5)
		}},
	}
}

func runBenchCAB(ctx context.Context, args []string, out io.Writer) error {
	fs := newBenchFlags("cab", "gloved bench cab [--frames N] [--json] [--plot FILE.svg]", "print the tables as one JSON object", out)
	frames := fs.Int("frames", 2000, "frames per chain experiment (the paper: 10000); the hand runs 2/5 as many (the paper: 4000)")
	fs.addPlot("", "write a bar chart of t[total] per method and table to this SVG file")
	if err := fs.parse(args); err != nil {
		return err
	}
	if err := between("frames", *frames, 10, maxBenchFrames); err != nil {
		return err
	}
	var tables []*experiments.Table
	for i, e := range cabExperiments() {
		n := *frames
		if i == 4 {
			n = max(*frames*2/5, 10)
		}
		t, err := e.run(ctx, n)
		if err != nil {
			return err
		}
		t.Name = e.title
		tables = append(tables, t)
		if !fs.json {
			printCABTable(out, t, paperUpdateRatio[i])
		}
	}
	plot := func(path string) error { return writeCABPlot(path, tables) }
	return fs.report(out, struct {
		Tables []*experiments.Table `json:"tables"`
	}{tables}, plot, nil)
}

func rowOf(t *experiments.Table, method string) experiments.Row {
	for _, r := range t.Rows {
		if r.Method == method {
			return r
		}
	}
	return experiments.Row{}
}

func printCABTable(out io.Writer, t *experiments.Table, paperRatio float64) {
	fmt.Fprintf(out, "%s, %d frames (times in seconds, cumulative)\n", t.Name, t.Frames)
	fmt.Fprintf(out, "  %-12s %9s %9s %9s %9s %9s %9s %11s\n", "", "#coll", "#false", "t[query]", "t[upd]", "t[test]", "t[total]", "box tests")
	for _, r := range t.Rows {
		fmt.Fprintf(out, "  %-12s %9d %9d %9.3f %9.3f %9.3f %9.3f %11d\n", r.Method, r.Coll, r.False,
			r.Query.Seconds(), r.Update.Seconds(), r.Test.Seconds(), r.Total().Seconds(), r.BoxTest)
	}
	obb, c := rowOf(t, "OBB"), rowOf(t, "CAB")
	same := "identical"
	if obb.Coll != c.Coll || obb.False != c.False {
		same = "DIFFERENT"
	}
	fmt.Fprintf(out, "  OBB and CAB counts: %s; CAB update %.2fx faster than OBB (paper %.2fx); internal box volume CAB/OBB %.2f\n\n",
		same, obb.Update.Seconds()/c.Update.Seconds(), paperRatio, c.Volume/obb.Volume)
}

// writeCABPlot draws t[total] per method, a group of bars per table.
func writeCABPlot(path string, tables []*experiments.Table) error {
	methods := []string{"AABB+", "AABB*", "OBB", "OBB-corners", "CAB"}
	colors := []string{"#9467bd", "#8c564b", "#1f77b4", "#7f7f7f", "#d62728"}
	const w, h, left, bottom, top = 900, 420, 70, 70, 40
	maxT := 0.0
	for _, t := range tables {
		for _, m := range methods {
			maxT = max(maxT, rowOf(t, m).Total().Seconds()/float64(t.Frames)*1e6)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">`+"\n", w, h)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/><text x="%d" y="24" font-size="15">CAB experiments: t[total] per frame (us) by method</text>`+"\n", left)
	groupW := float64(w-left-20) / float64(len(tables))
	barW := groupW / float64(len(methods)+1)
	plotH := float64(h - bottom - top)
	for gi, t := range tables {
		for mi, m := range methods {
			v := rowOf(t, m).Total().Seconds() / float64(t.Frames) * 1e6
			bh := v / maxT * plotH
			x := float64(left) + float64(gi)*groupW + float64(mi)*barW + barW/2
			fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s %s: %.1f us</title></rect>`+"\n",
				x, float64(h-bottom)-bh, barW*0.9, bh, colors[mi], html.EscapeString(t.Name), m, v)
		}
		label := fmt.Sprintf("table %d", gi+1)
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">%s</text>`+"\n", float64(left)+float64(gi)*groupW+groupW/2, h-bottom+16, label)
	}
	for mi, m := range methods {
		x := left + 10 + mi*130
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="12" height="12" fill="%s"/><text x="%d" y="%d">%s</text>`+"\n", x, h-30, colors[mi], x+16, h-20, m)
	}
	fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>`+"\n", left, h-bottom, w-20, h-bottom)
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end">%.0f us</text>`+"\n", left-6, top+4, maxT)
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end">0</text>`+"\n", left-6, h-bottom+4)
	b.WriteString("</svg>\n")
	return userfile.WriteFile(path, func(w io.Writer) error { _, err := io.WriteString(w, b.String()); return err })
}
