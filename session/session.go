package session

import (
	"context"
	"errors"
	"fmt"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/handmodel"
)

// Session is an open glove driving a hand through the frame pipeline: what
// the daemon runs per hand, and what the offline commands (contacts,
// export, bench pipeline, demo) step through frame by frame.
type Session struct {
	*Glove
	Pipeline *Pipeline
	// Sample is the last frame's sample; Frames counts the frames run.
	Sample devices.Sample
	Frames int
}

// Open opens the glove spec names and builds the hand it drives and the
// pipeline against scene.
func Open(spec Spec, scene *env.Mesh, o PipelineOptions) (*Session, error) {
	g, err := OpenGlove(spec)
	if err != nil {
		return nil, err
	}
	hand, err := handmodel.New(g.Spec.HandParams(g.Info.Right))
	if err != nil {
		g.Close()
		if g.Spec.Mesh != "" {
			err = fmt.Errorf("mesh: %w", err)
		}
		return nil, err
	}
	p, err := NewPipeline(hand, g.Cal, scene, o)
	if err != nil {
		g.Close()
		return nil, err
	}
	return &Session{Glove: g, Pipeline: p}, nil
}

// Next reads the next sample and runs its frame. It returns false at the
// end of a recording. Reads that yield no sample but leave the glove
// usable (a recorded glove error, a glove unplugged from its unit) are
// passed over.
func (s *Session) Next() (bool, error) {
	for {
		if err := s.Read(&s.Sample); err != nil {
			if errors.Is(err, devices.ErrEnd) {
				return false, nil
			}
			if devices.Transient(err) {
				continue
			}
			return false, err
		}
		if err := s.Pipeline.Frame(&s.Sample, s.Wrist()); err != nil {
			return false, err
		}
		s.Frames++
		return true, nil
	}
}

// Each runs frames, calling fn after each, until the recording ends, limit
// frames have run (0: no limit), ctx is done (not an error: the user
// stopped early) or fn fails.
func (s *Session) Each(ctx context.Context, limit int, fn func() error) error {
	for ctx.Err() == nil && (limit == 0 || s.Frames < limit) {
		ok, err := s.Next()
		if err != nil || !ok {
			return err
		}
		if err := fn(); err != nil {
			return err
		}
	}
	return nil
}
