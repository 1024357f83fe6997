package daemon

import (
	"context"
	"time"

	"github.com/gloved/gloved/contact"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/session"
	"github.com/gloved/gloved/view"
)

// Timeline runs a session ahead of time, to its end or limit frames (0: no
// limit), into a timeline for the live page's slider: each frame made as
// the daemon makes it (the pipeline's frame and its touch edges) and
// stamped with its sample's time. each, if set, runs after every frame.
func Timeline(ctx context.Context, s *session.Session, limit int, each func() error) (*view.Timeline, error) {
	tl := view.NewTimeline(1)
	touches := session.NewTouches(s.Pipeline.Scene().Objects)
	status := StatusStreaming
	if s.Spec.Replays() {
		status = StatusReplay
	}
	var f osc.Frame
	err := s.Each(ctx, limit, func() error {
		p := s.Pipeline
		f.Seq = int32(s.Frames - 1)
		p.FillFrame(&f)
		f.Touches = touches.Update(p, f.Touches[:0])
		var took time.Duration
		for _, d := range p.Stages() {
			took += d
		}
		tl.Add(0, &f, view.Info{Status: status, T: s.Sample.Time, FrameMS: float64(took.Nanoseconds()) / 1e6, Frames: uint64(s.Frames)})
		if each != nil {
			return each()
		}
		return nil
	})
	return tl, err
}

// ReplayTimeline is the timeline of the recording a replay plays, through
// the same pipeline as the replay's daemon, ahead of time.
func ReplayTimeline(ctx context.Context, o ReplayOpts) (*view.Timeline, error) {
	cfg, _, err := replayConfig(o)
	if err != nil {
		return nil, err
	}
	scene, err := LoadScene(ctx, cfg)
	if err != nil {
		return nil, err
	}
	spec := cfg.Spec(0)
	spec.Speed = session.SpeedMax
	opt := cfg.PipelineOptions()
	opt.Shared = contact.NewSharedContext(ctx, scene) // its trees are given up with ctx too
	s, err := session.Open(spec, scene, opt)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	return Timeline(ctx, s, 0, nil)
}
