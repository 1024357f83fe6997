package main

import (
	"fmt"
	"html"
	"io"
	"math"
	"strings"

	"github.com/gloved/gloved/internal/userfile"
)

// series is one polyline of a plot.
type series struct {
	Name  string
	Color string
	X, Y  []float64
}

// logLogPlot draws series on log-log axes as a small standalone SVG.
type logLogPlot struct {
	Title, XLabel, YLabel string
	Series                []series
}

const (
	plotW, plotH           = 720, 480
	marginL, marginR       = 80, 20
	marginTop, marginBelow = 40, 60
)

// WriteFile writes the plot to the SVG file path.
func (p *logLogPlot) WriteFile(path string) error { return userfile.WriteFile(path, p.WriteSVG) }

// WriteSVG writes the plot. Non-positive values are left out (no log).
func (p *logLogPlot) WriteSVG(w io.Writer) error {
	x0, x1, y0, y1 := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, s := range p.Series {
		for i := range s.X {
			if s.X[i] > 0 && s.Y[i] > 0 {
				x0, x1 = math.Min(x0, math.Log10(s.X[i])), math.Max(x1, math.Log10(s.X[i]))
				y0, y1 = math.Min(y0, math.Log10(s.Y[i])), math.Max(y1, math.Log10(s.Y[i]))
			}
		}
	}
	if math.IsInf(x0, 0) {
		return fmt.Errorf("nothing to plot")
	}
	x0, x1 = math.Floor(x0), math.Ceil(x1)
	y0, y1 = math.Floor(y0), math.Ceil(y1)
	if x1 == x0 {
		x1++
	}
	if y1 == y0 {
		y1++
	}
	sx := func(v float64) float64 {
		return marginL + (math.Log10(v)-x0)/(x1-x0)*(plotW-marginL-marginR)
	}
	sy := func(v float64) float64 {
		return plotH - marginBelow - (math.Log10(v)-y0)/(y1-y0)*(plotH-marginTop-marginBelow)
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">`+"\n", plotW, plotH)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<text x="%d" y="24" font-size="15">%s</text>`+"\n", marginL, html.EscapeString(p.Title))
	for e := x0; e <= x1; e++ {
		x := sx(math.Pow(10, e))
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>`+"\n", x, marginTop, x, plotH-marginBelow)
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">1e%d</text>`+"\n", x, plotH-marginBelow+18, int(e))
	}
	for e := y0; e <= y1; e++ {
		y := sy(math.Pow(10, e))
		fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>`+"\n", marginL, y, plotW-marginR, y)
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end">1e%d</text>`+"\n", marginL-6, y+4, int(e))
	}
	fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="black"/>`+"\n",
		marginL, marginTop, plotW-marginL-marginR, plotH-marginTop-marginBelow)
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">%s</text>`+"\n", (plotW+marginL)/2, plotH-18, html.EscapeString(p.XLabel))
	fmt.Fprintf(&b, `<text transform="translate(18 %d) rotate(-90)" text-anchor="middle">%s</text>`+"\n", plotH/2, html.EscapeString(p.YLabel))
	for i, s := range p.Series {
		var pts []string
		for k := range s.X {
			if s.X[k] > 0 && s.Y[k] > 0 {
				pts = append(pts, fmt.Sprintf("%.1f,%.1f", sx(s.X[k]), sy(s.Y[k])))
				fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>`+"\n", sx(s.X[k]), sy(s.Y[k]), s.Color)
			}
		}
		fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="2"/>`+"\n", strings.Join(pts, " "), s.Color)
		// Legend in the lower left, where decreasing curves leave room.
		ly := plotH - marginBelow - 20 - 18*(len(p.Series)-1-i)
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"/>`+"\n", marginL+12, ly, marginL+37, ly, s.Color)
		fmt.Fprintf(&b, `<text x="%d" y="%d">%s</text>`+"\n", marginL+42, ly+4, html.EscapeString(s.Name))
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}
