package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"slices"
	"time"

	"github.com/gloved/gloved/daemon"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/osc"
)

type stageStats struct {
	Stage string  `json:"stage"`
	P50US float64 `json:"p50_us"`
	P99US float64 `json:"p99_us"`
	MaxUS float64 `json:"max_us"`
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
	fs := newFlagSet("bench pipeline", "gloved bench pipeline --scene FILE[,FILE] (--recording FILE | --sim) [--wrist POSE] [--json]", out)
	o := addSessionFlags(fs)
	noTris := fs.Bool("no-tris", false, "do not count the triangles each contact touches")
	asJSON := fs.Bool("json", false, "print one JSON object")
	if pos, err := parseInterleaved(fs, args); err != nil {
		return err
	} else if len(pos) > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, pos[0])
	}
	var res pipelineBench
	var times [daemon.NumStages + 1][]time.Duration
	var mallocs uint64
	for pass := range 2 {
		s, err := openSession(*o)
		if err != nil {
			return err
		}
		s.pipe.Solver.CountTris = !*noTris
		var w osc.Writer
		addr := osc.HandAddresses("/gloved", "right")
		var f osc.Frame
		f.Joints = make([]float64, handmodel.NumJoints)
		f.Links = make([]osc.Pose, s.pipe.Hand.NumLinks())
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		start := time.Now()
		for ctx.Err() == nil {
			t0 := time.Now()
			ok, err := s.next()
			if err != nil {
				s.close()
				return err
			}
			if !ok {
				break
			}
			t1 := time.Now()
			fillFrame(&f, s)
			w.Begin(osc.Timetag(t1))
			osc.AppendFrame(&w, addr, &f)
			enc := time.Since(t1)
			if pass == 1 {
				for k := range daemon.NumStages {
					times[k] = append(times[k], s.pipe.Stages[k])
				}
				times[daemon.StageOSC] = append(times[daemon.StageOSC][:len(times[daemon.StageOSC])-1], enc)
				times[daemon.NumStages] = append(times[daemon.NumStages], t1.Sub(t0)+enc)
			}
		}
		runtime.ReadMemStats(&m1)
		if pass == 0 {
			// Room for every frame's times, so that recording them in the
			// measured pass allocates nothing.
			for k := range times {
				times[k] = make([]time.Duration, 0, s.n+1)
			}
		} else {
			res.Frames = s.n
			res.FramesPerSec = float64(s.n) / time.Since(start).Seconds()
			mallocs = m1.Mallocs - m0.Mallocs
		}
		s.close()
	}
	if res.Frames == 0 {
		return fmt.Errorf("the session has no frames")
	}
	// Counted over the second pass's frame loop only (its session is
	// opened before the count starts).
	res.AllocsPerFrame = float64(mallocs) / float64(res.Frames)
	names := []string{"pose", "refit", "traverse", "narrow", "osc", "total"}
	for k, ts := range times {
		slices.Sort(ts)
		n := len(ts)
		res.Stages = append(res.Stages, stageStats{Stage: names[k],
			P50US: us(ts[n/2]), P99US: us(ts[min(n-1, n*99/100)]), MaxUS: us(ts[n-1])})
	}
	if *asJSON {
		return json.NewEncoder(out).Encode(res)
	}
	fmt.Fprintf(out, "%d frames, %.0f frames/s, %.2f allocations per frame\n", res.Frames, res.FramesPerSec, res.AllocsPerFrame)
	fmt.Fprintf(out, "  %-9s %9s %9s %9s   (microseconds)\n", "stage", "p50", "p99", "max")
	for _, st := range res.Stages {
		fmt.Fprintf(out, "  %-9s %9.1f %9.1f %9.1f\n", st.Stage, st.P50US, st.P99US, st.MaxUS)
	}
	return nil
}

func us(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }

// fillFrame fills an OSC frame from the session's last frame (as the
// daemon does, without touch tracking).
func fillFrame(f *osc.Frame, s *session) {
	p := s.pipe
	for j := range f.Joints {
		f.Joints[j] = p.Angles[j]
	}
	for l, x := range p.Poses {
		f.Links[l] = osc.Pose{P: x.T, Q: quatOf(x)}
	}
	f.Contacts, f.Near = f.Contacts[:0], f.Near[:0]
	for _, c := range p.Solver.Contacts {
		f.Contacts = append(f.Contacts, osc.Contact{Link: handmodel.Link(c.Link).String(), Object: s.scene.Objects[c.Object], Depth: c.Depth, Point: c.Point, Normal: c.Normal})
	}
	for _, n := range p.Solver.Near {
		f.Near = append(f.Near, osc.Near{Link: handmodel.Link(n.Link).String(), Object: s.scene.Objects[n.Object], Distance: n.Distance, Point: n.Point})
	}
}
