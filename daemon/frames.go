package daemon

import (
	"context"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/session"
)

// epoch is the wall time of a hand's Sample.Time zero: the live device's
// own (so that a timetag is when the sample's bytes arrived), or for a
// replay the daemon's start (NewAt), which keeps replays reproducible.
func (d *Daemon) epoch(h *handRuntime) time.Time {
	if c, ok := h.device().(devices.Clock); ok && !h.replay {
		return c.Epoch()
	}
	return d.start
}

// frames is a hand's frame loop: it runs the newest sample through the
// pipeline and publishes the frame, and publishes the hand's status when it
// changes or every second.
func (d *Daemon) frames(ctx context.Context, h *handRuntime) {
	var s devices.Sample
	var seq int32
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	d.publishStatus(h, true) // apps hear the hand's state before its first frame
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			d.publishStatus(h, false)
			continue
		case <-h.changed:
			d.publishStatus(h, true)
			continue
		case <-h.ready:
		}
		h.busySince.Store(time.Now().UnixNano())
		if wrist, status, ok := h.take(&s); ok {
			if err := d.frame(h, &s, wrist, status, seq); err != nil {
				h.log.Error().Err(err).Msg("frame failed")
			} else {
				seq++
			}
		}
		h.busySince.Store(0)
	}
}

// frame runs one sample through the pipeline, sends its bundle and counts
// it.
func (d *Daemon) frame(h *handRuntime, s *devices.Sample, wrist geom.Transform, status string, seq int32) error {
	t0 := time.Now()
	p := h.sess.Pipeline
	if err := p.Frame(s, wrist); err != nil {
		return err
	}
	var hands time.Duration
	if d.pairs != nil {
		th := time.Now()
		d.pairs.Publish(h.index, p, th)
		if err := d.pairs.Run(h.index, p, th, d.budget-th.Sub(t0)); err != nil && time.Since(h.lastPairLog) >= time.Second {
			// The frame still goes out, with the scene's contacts and
			// what was measured against the other hands.
			h.log.Error().Err(err).Msg("testing the hands against each other")
			h.lastPairLog = time.Now()
		}
		hands = time.Since(th)
	}
	ms := float64(time.Since(t0).Nanoseconds()) / 1e6
	t1 := time.Now()
	h.build(seq, ms, status, t1)
	if d.pairs != nil {
		d.pairs.FillFrame(h.index, &h.frame)
	}
	h.writer.Begin(osc.Timetag(d.epoch(h).Add(s.Time)))
	osc.AppendFrame(&h.writer, h.addr, &h.frame)
	d.hub.Send(h.writer.Packets())
	if d.onFrame != nil {
		d.onFrame(h.cfg.Name, h.writer.Packets())
	}
	stages := p.Stages()
	stages[session.StageHands] = hands
	stages[session.StageOSC] = time.Since(t1)
	total := time.Since(t0)
	h.Stats.Frames.Add(1)
	h.Stats.Contacts.Add(uint64(len(h.frame.Contacts)))
	h.Stats.Touching.Store(int32(len(h.frame.Contacts)))
	d.publishView(h, s, status, total)
	d.record(total, stages)
	if total > d.budget {
		d.overrun(h, total, stages)
	}
	return nil
}

// overrun counts a frame over budget and logs it, with its slowest stage,
// at most once a second.
func (d *Daemon) overrun(h *handRuntime, total time.Duration, stages [session.NumStages]time.Duration) {
	h.Stats.Overruns.Add(1)
	if time.Since(h.lastOverrunLog) < time.Second {
		return
	}
	slow := session.Stage(0)
	for k := range stages {
		if stages[k] > stages[slow] {
			slow = session.Stage(k)
		}
	}
	h.log.Warn().Dur("frame", total).Dur("budget", d.budget).Str("stage", slow.String()).Dur("stage_time", stages[slow]).
		Uint64("overruns", h.Stats.Overruns.Load()).Msg("frame over budget")
	h.lastOverrunLog = time.Now()
}

// publishStatus sends a status-only bundle when the status changed (or
// now is set) or a second has passed without one: the status reaches apps
// even when no sample arrives (no glove, reconnecting).
func (d *Daemon) publishStatus(h *handRuntime, now bool) {
	_, status, _ := h.peekStatus()
	if !now && status == h.sentState && time.Since(h.sentAt) < time.Second {
		return
	}
	h.writer.Begin(osc.Timetag(time.Now()))
	h.writer.Message(h.addr.Status)
	h.writer.String(status)
	h.writer.End()
	h.sentState, h.sentAt = status, time.Now()
	d.hub.Send(h.writer.Packets())
	if d.view != nil {
		d.view.PublishStatus(h.index, status)
	}
}

func (h *handRuntime) peekStatus() (geom.Transform, string, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.wrist, h.status, h.fresh
}
