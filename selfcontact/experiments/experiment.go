package experiments

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"time"

	"github.com/gloved/gloved/chains"
	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/sim"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/narrow"
	"github.com/gloved/gloved/selfcontact"
)

// SphereF is one sphere's accuracy: F over its surrounding region's
// vertices for each fit (m).
type SphereF struct {
	Region string                           `json:"region"`
	Link   string                           `json:"link"`
	F      [chains.NumMethods]chains.FStats `json:"f"` // j1, j2, j1'
}

// Motion is what the spheres did over one simulated motion, per frame.
type Motion struct {
	Name   string `json:"motion"`
	Frames int    `json:"frames"`
	// The overlap tests' time (µs): within chains (M1) and over all
	// spheres (M2), sequential and with goroutines, and the distinct
	// chained pairs the frame loop tests.
	M1US, M2US, M1ParUS, M2ParUS, ChainedUS float64
	// Overlapping sphere pairs: M1 counts a pair once per chain holding
	// it, as the paper does.
	M1Pairs, M2Pairs float64
	// Link pairs the spheres propose (with the detector's slack, and with
	// none), and link pairs touching by the exact test; the spheres'
	// false positives (proposed, not touching) and negatives (touching,
	// not proposed), summed over the frames.
	Proposed, Touching     float64
	FalsePos, FalseNeg     int
	FalseNegNoSlack        int
	TouchingPairs          int
	ProposedPairs          int
	FrameP50US, FrameP99US float64 // the detector's whole frame
}

// Result is one hand's measurements.
type Result struct {
	Hand    string    `json:"hand"`
	Spheres []SphereF `json:"spheres"`
	Motions []Motion  `json:"motions"`
}

var regionNames = [...]string{"thumb", "index", "middle", "ring", "little", "palm"}

// Motions are the simulated motions the experiments run: the one-hand
// motions docs/papers.md's tables were measured on.
var Motions = []sim.Motion{sim.Grasp, sim.Tap, sim.Pinch, sim.Fist, sim.Cross}

// Run measures hand h (named name) with options o over frames samples of
// each simulated motion, until ctx ends.

func Run(ctx context.Context, name string, h *handmodel.Hand, o selfcontact.Options, frames int) (Result, error) {
	d, err := detector(h, o)
	if err != nil {
		return Result{}, err
	}
	res := Result{Hand: name}
	for _, f := range d.Set.Fits {
		res.Spheres = append(res.Spheres, SphereF{Region: regionNames[f.Region], Link: handmodel.Link(f.Link).String(), F: f.F})
	}
	for _, m := range Motions {
		// A detector per motion, so that none starts warm from another.
		if d, err = detector(h, o); err != nil {
			return res, err
		}
		r, err := runMotion(ctx, d, h, o, m, frames)
		if err != nil {
			return res, err
		}
		res.Motions = append(res.Motions, r)
	}
	return res, nil
}

// detector builds h's self-contact detector on its links' hulls.
func detector(h *handmodel.Hand, o selfcontact.Options) (*selfcontact.Detector, error) {
	var polys []*narrow.Polytope
	for l := range handmodel.Link(handmodel.FingerLinks) {
		g := h.Geometry(l)
		p, err := narrow.NewPolytope(g.Verts, g.Tris)
		if err != nil {
			return nil, err
		}
		polys = append(polys, p)
	}
	return selfcontact.New(h, polys, o)
}

// runMotion plays motion m through d, timing the detector's frames and
// then, with every sphere moved, the overlap tests, and counting the
// spheres' proposals against the exact test, until ctx ends.
func runMotion(ctx context.Context, d *selfcontact.Detector, h *handmodel.Hand, o selfcontact.Options, m sim.Motion, frames int) (Motion, error) {
	r := Motion{Name: string(m)}
	s := d.Set
	par := chains.NewParallel(s, runtime.GOMAXPROCS(0))
	workers := runtime.GOMAXPROCS(0)
	var pairs []chains.Pair
	var touch [][2]handmodel.Link
	var frameTimes []time.Duration
	const reps = 10 // each overlap test is repeated for a measurable time
	timeIt := func(fn func()) float64 {
		t0 := time.Now()
		for range reps {
			fn()
		}
		return float64(time.Since(t0).Microseconds()) / reps
	}
	err := play(ctx, h, m, frames, func(q *handmodel.Angles, poses []geom.Transform) error {
		t0 := time.Now()
		if err := d.Frame(q, poses); err != nil {
			return err
		}
		frameTimes = append(frameTimes, time.Since(t0))
		d.UpdateSpheres()
		r.M1US += timeIt(func() { pairs = s.OverlapsM1(o.Slack, pairs[:0]) })
		r.M1Pairs += float64(len(pairs))
		r.M2US += timeIt(func() { pairs = s.OverlapsM2(o.Slack, pairs[:0]) })
		r.M2Pairs += float64(len(pairs))
		r.M1ParUS += timeIt(func() { pairs = par.M1(o.Slack, pairs[:0]) })
		r.M2ParUS += timeIt(func() { pairs = par.M2(o.Slack, workers, pairs[:0]) })
		r.ChainedUS += timeIt(func() { pairs = s.OverlapsChained(o.Slack, pairs[:0]) })
		proposed := linkPairs(s, pairs)
		bare := linkPairs(s, s.OverlapsChained(0, nil))
		touch = d.Touching(touch[:0])
		for _, p := range touch {
			if !slices.Contains(proposed, p) {
				r.FalseNeg++
			}
			if !slices.Contains(bare, p) {
				r.FalseNegNoSlack++
			}
		}
		for _, p := range proposed {
			if !slices.Contains(touch, p) {
				r.FalsePos++
			}
		}
		r.ProposedPairs += len(proposed)
		r.TouchingPairs += len(touch)
		r.Frames++
		return nil
	})
	if err != nil {
		return r, err
	}
	if r.Frames == 0 {
		return r, fmt.Errorf("experiments: no frames")
	}
	n := float64(r.Frames)
	r.M1US, r.M2US, r.M1ParUS, r.M2ParUS, r.ChainedUS = r.M1US/n, r.M2US/n, r.M1ParUS/n, r.M2ParUS/n, r.ChainedUS/n
	r.M1Pairs, r.M2Pairs = r.M1Pairs/n, r.M2Pairs/n
	r.Proposed, r.Touching = float64(r.ProposedPairs)/n, float64(r.TouchingPairs)/n
	slices.Sort(frameTimes)
	r.FrameP50US = float64(frameTimes[len(frameTimes)/2].Nanoseconds()) / 1e3
	r.FrameP99US = float64(frameTimes[len(frameTimes)*99/100].Nanoseconds()) / 1e3
	return r, nil
}

// linkPairs are the distinct link pairs of sphere pairs.
func linkPairs(s *chains.Set, pairs []chains.Pair) [][2]handmodel.Link {
	var out [][2]handmodel.Link
	for _, p := range pairs {
		a, b := handmodel.Link(s.Fits[p.A].Link), handmodel.Link(s.Fits[p.B].Link)
		lp := [2]handmodel.Link{min(a, b), max(a, b)}
		if !slices.Contains(out, lp) {
			out = append(out, lp)
		}
	}
	return out
}

// play runs frames samples of motion m from the simulated glove through
// the shipped calibration, calling fn with each frame's angles and poses,
// until ctx ends.
func play(ctx context.Context, h *handmodel.Hand, m sim.Motion, frames int, fn func(q *handmodel.Angles, poses []geom.Transform) error) error {
	g, err := sim.New(m, 22, 10*time.Millisecond, true)
	if err != nil {
		return err
	}
	defer g.Close()
	cal, err := handmodel.DefaultCalibration(22)
	if err != nil {
		return err
	}
	poses := make([]geom.Transform, h.NumLinks())
	var s devices.Sample
	var q handmodel.Angles
	for range frames {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := g.Read(&s); err != nil {
			return err
		}
		if err := cal.Angles(&s, &h.Limits, &q); err != nil {
			return err
		}
		h.Pose(&q, geom.Identity(), poses)
		if err := fn(&q, poses); err != nil {
			return err
		}
	}
	return nil
}
