package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"slices"
	"time"

	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/session"
)

type stageStats struct {
	Stage string  `json:"stage"`
	P50US float64 `json:"p50_us"`
	P99US float64 `json:"p99_us"`
	MaxUS float64 `json:"max_us"`
	// MeanUS is the mean: the whole run's time over its frames, which
	// weighs each frame by its work (a p50 can fall on frames with none).
	MeanUS float64 `json:"mean_us"`
}

type pipelineBench struct {
	Frames         int          `json:"frames"`
	Stages         []stageStats `json:"stages"`
	AllocsPerFrame float64      `json:"allocs_per_frame"`
	FramesPerSec   float64      `json:"frames_per_s"`
}

// runBenchPipeline times every stage of every frame of a session (the
// frame's OSC bundle is encoded but not sent) and counts allocations per
// frame over a second pass, once every buffer has grown.
func runBenchPipeline(ctx context.Context, args []string, out io.Writer) error {
	fs := newBenchFlags("pipeline", "gloved bench pipeline --scene FILE[,FILE] (--recording FILE | --sim) [--wrist-pose POSE] [--no-tris] [--no-accel] [--workers N] [--self=false] [--json]", "print one JSON object", out)
	o := addSessionFlags(fs.FlagSet)
	noTris := addNoTris(fs.FlagSet)
	self := fs.Bool("self", true, "run self-contact (the hand against itself), as the daemon does unless [self] enabled = false")
	if err := fs.parse(args); err != nil {
		return err
	}
	if o.sim {
		if err := between("frames", o.frames, 1, maxBenchFrames); err != nil {
			return err
		}
	}
	var res pipelineBench
	var times stageTimes
	var mallocs uint64
	for pass := range 2 {
		s, err := o.open(session.PipelineOptions{SkipTris: *noTris, SelfContact: *self})
		if err != nil {
			return err
		}
		measured := pass == 1
		if measured {
			// Room for every frame's times, so that recording them in the
			// measured pass allocates nothing.
			for k := range times {
				times[k] = make([]time.Duration, 0, res.Frames+1)
			}
		}
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		start := time.Now()
		err = benchPass(ctx, s, o.limit(), &times, measured, nil)
		runtime.ReadMemStats(&m1)
		res.Frames = s.Frames
		res.FramesPerSec = float64(s.Frames) / time.Since(start).Seconds()
		mallocs = m1.Mallocs - m0.Mallocs
		if measured {
			warnDamage(s) // once: a damaged recording ran to its damage
		}
		s.Close()
		if err != nil {
			return err
		}
	}
	if res.Frames == 0 {
		if o.recording != "" {
			return noSamples(o.recording)
		}
		return fmt.Errorf("the session has no frames")
	}
	// Counted over the second pass's frame loop only (its session is
	// opened before the count starts).
	res.AllocsPerFrame = float64(mallocs) / float64(res.Frames)
	res.Stages = times.summary()
	return fs.report(out, res, nil, func() {
		fmt.Fprintf(out, "%d frames, %.0f frames/s, %.2f allocations per frame\n", res.Frames, res.FramesPerSec, res.AllocsPerFrame)
		fmt.Fprintf(out, "  %-9s %9s %9s %9s   (microseconds)\n", "stage", "p50", "p99", "max")
		for _, st := range res.Stages {
			fmt.Fprintf(out, "  %-9s %9.1f %9.1f %9.1f\n", st.Stage, st.P50US, st.P99US, st.MaxUS)
		}
	})
}

// stageTimes holds each stage's time per frame, and the total's last.
type stageTimes [session.NumStages + 1][]time.Duration

// summary returns each stage's p50, p99 and max (sorting the times).
func (t *stageTimes) summary() []stageStats {
	var out []stageStats
	for k, ts := range t {
		name := "total"
		if k < int(session.NumStages) {
			name = session.Stage(k).String()
		}
		if len(ts) == 0 {
			continue
		}
		slices.Sort(ts)
		n := len(ts)
		var sum time.Duration
		for _, d := range ts {
			sum += d
		}
		out = append(out, stageStats{Stage: name,
			P50US: us(ts[n/2]), P99US: us(ts[min(n-1, n*99/100)]), MaxUS: us(ts[n-1]), MeanUS: us(sum) / float64(n)})
	}
	return out
}

// collision returns the statistics of each frame's collision part, its
// refit, traverse and narrow stages summed (before summary sorts them).
func (t *stageTimes) collision() stageStats {
	var sums []time.Duration
	for i := range t[session.StageRefit] {
		sums = append(sums, t[session.StageRefit][i]+t[session.StageTraverse][i]+t[session.StageNarrow][i])
	}
	var c stageTimes
	c[session.NumStages] = sums
	s := c.summary()
	if len(s) == 0 {
		return stageStats{Stage: "collision"}
	}
	s[0].Stage = "collision"
	return s[0]
}

// benchPass runs the session's frames, encoding each frame's OSC bundle,
// and (if measured) appends every stage's time to times and calls after
// (if not nil).
func benchPass(ctx context.Context, s *session.Session, limit int, times *stageTimes, measured bool, after func()) error {
	var w osc.Writer
	addr := osc.HandAddresses("/gloved", "right")
	var f osc.Frame
	for ctx.Err() == nil && (limit == 0 || s.Frames < limit) {
		t0 := time.Now()
		ok, err := s.Next()
		if err != nil || !ok {
			return err
		}
		t1 := time.Now()
		s.Pipeline.FillFrame(&f)
		w.Begin(osc.Timetag(t1))
		osc.AppendFrame(&w, addr, &f)
		enc := time.Since(t1)
		if measured {
			stages := s.Pipeline.Stages()
			stages[session.StageOSC] = enc
			for k, d := range stages {
				if session.Stage(k) != session.StageHands { // one hand: none
					times[k] = append(times[k], d)
				}
			}
			times[session.NumStages] = append(times[session.NumStages], t1.Sub(t0)+enc)
			if after != nil {
				after()
			}
		}
	}
	return nil
}

func us(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }
