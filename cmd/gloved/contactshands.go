package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/gloved/gloved/contact"
	"github.com/gloved/gloved/daemon"
	"github.com/gloved/gloved/internal/userfile"
	"github.com/gloved/gloved/session"
)

// handContactJSON is a link of this hand touching a link of another.
type handContactJSON struct {
	Other     string     `json:"other"`
	Link      string     `json:"link"`
	OtherLink string     `json:"other_link"`
	Depth     float64    `json:"depth"`
	Point     [3]float64 `json:"point"`
	Normal    [3]float64 `json:"normal"`
	Exact     bool       `json:"exact"`
}

// handNearJSON is a link of this hand within the band of another's.
type handNearJSON struct {
	Other     string  `json:"other"`
	Link      string  `json:"link"`
	OtherLink string  `json:"other_link"`
	Distance  float64 `json:"distance"`
}

// handFrameJSON is one hand's frame: its own record, and what it meets
// of the other hands.
type handFrameJSON struct {
	Hand string `json:"hand"`
	frameJSON
	Hands    []handContactJSON `json:"hands"`
	HandNear []handNearJSON    `json:"hand_near"`
}

// handsJSON is one frame of every hand.
type handsJSON struct {
	Frame int             `json:"frame"`
	Hands []handFrameJSON `json:"hands"`
}

// runHandsContacts runs every hand of the config at path together, a
// frame of each in turn, and prints per frame each hand's contacts with
// the scene and with the other hands, as JSON: what the daemon would
// publish, at full depth, from one process and reproducibly. limit caps
// the frames (0: until a hand's recording ends; simulations run 300).
func runHandsContacts(ctx context.Context, path string, limit int, out io.Writer) error {
	cfg, err := daemon.LoadConfig(path)
	if err != nil {
		return err
	}
	for _, w := range cfg.Warnings {
		warn("%s", w)
	}
	if len(cfg.Hands) < 2 {
		return fmt.Errorf("%w: --hands %s: %d [[hand]]; two or more meet", errUsage, userfile.Name(path), len(cfg.Hands))
	}
	pairs, err := cfg.HandPairs()
	if err != nil {
		return err
	}
	if pairs == nil {
		return fmt.Errorf("%w: --hands %s: [hand_contact] enabled = false", errUsage, userfile.Name(path))
	}
	scene, err := daemon.LoadScene(ctx, cfg)
	if err != nil {
		return err
	}
	warnScene(scene)
	sessions := make([]*session.Session, 0, len(cfg.Hands))
	defer func() {
		for _, s := range sessions {
			warnDamage(s)
			s.Close()
		}
	}()
	sims, shared := false, contact.NewShared(scene)
	for i, h := range cfg.Hands {
		spec := cfg.Spec(i)
		if !spec.Replays() && spec.Device != session.DeviceSim {
			// A glove or a tracker waits on its line or its socket, which
			// no frame count ends.
			return fmt.Errorf("%w: --hands %s: hand %s is a live %s; contacts runs recordings and simulations (record the glove first)", errUsage, userfile.Name(path), h.Name, spec.Device)
		}
		sims = sims || spec.Device == session.DeviceSim
		if spec.Records() {
			spec.Recording = "" // the daemon's: contacts analyses, it never records
		}
		spec.Speed = session.SpeedMax
		opt := cfg.PipelineOptions()
		opt.Shared = shared
		s, err := session.Open(spec, scene, opt)
		if err != nil {
			return fmt.Errorf("hand %s: %w", h.Name, err)
		}
		sessions = append(sessions, s)
	}
	if limit == 0 && sims {
		limit = 300
	}
	enc := json.NewEncoder(out)
	const unbounded = 24 * time.Hour // no frame budget: full depth
	for frame := 0; ctx.Err() == nil && (limit == 0 || frame < limit); frame++ {
		for i, s := range sessions {
			if ok, err := s.Next(); err != nil || !ok {
				if err == nil && limit > 0 {
					warn("hand %s: its recording ended after %d frames, before --frames %d", cfg.Hands[i].Name, frame, limit)
				}
				return err
			}
		}
		now := time.Now()
		for i, s := range sessions {
			pairs.Publish(i, s.Pipeline, now)
		}
		rec := handsJSON{Frame: frame}
		for i, s := range sessions {
			if err := pairs.Run(i, s.Pipeline, now, unbounded); err != nil {
				return err
			}
			rec.Hands = append(rec.Hands, handRecord(cfg, i, s, pairs))
		}
		if err := enc.Encode(&rec); err != nil {
			return err
		}
	}
	return nil
}

// handRecord is the frame record of hand i of cfg, run by s.
func handRecord(cfg *daemon.Config, i int, s *session.Session, pairs *session.HandPairs) handFrameJSON {
	r := handFrameJSON{Hand: cfg.Hands[i].Name, frameJSON: frameRecord(s), Hands: []handContactJSON{}, HandNear: []handNearJSON{}}
	a := pairs.Answer(i)
	for _, c := range a.Contacts {
		r.Hands = append(r.Hands, handContactJSON{Other: cfg.Hands[c.Hand].Name, Link: c.Link.String(), OtherLink: c.Other.String(),
			Depth: round9(c.Depth), Point: vec(c.Point), Normal: vec(c.Normal), Exact: c.Exact})
	}
	for _, n := range a.Near {
		r.HandNear = append(r.HandNear, handNearJSON{Other: cfg.Hands[n.Hand].Name, Link: n.Link.String(), OtherLink: n.Other.String(), Distance: round9(n.Distance)})
	}
	return r
}
