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
// pipeline and publishes the frame (with the hand's status when it is
// due; statuses publishes it otherwise).
func (d *Daemon) frames(ctx context.Context, h *handRuntime) {
	var s devices.Sample
	var seq int32
	for {
		select {
		case <-ctx.Done():
			return
		case <-h.ready:
		}
		h.busySince.Store(busyStamp())
		if wrist, status, ok := h.take(&s); ok {
			if err := d.frame(h, &s, wrist, status, seq); err != nil {
				h.frameFailed(err, time.Now())
			} else {
				h.failing.Store(false) // the reader's next sample sets the status
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
	if h.fbOn {
		d.feedback(h, p, s) // first: the glove's line waits on nothing else
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
	h.build(seq, ms)
	if d.pairs != nil {
		d.pairs.FillFrame(h.index, &h.frame)
	}
	status = d.send(h, d.epoch(h).Add(s.Time), t1)
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

// frameEvery is how often a hand whose frames keep failing logs one.
const frameEvery = time.Second

// frameFailed is a sample the pipeline refused: the hand is degraded
// until a frame goes through (the reader keeps it so while failing is
// set), and the failure is logged at most once each frameEvery, the next
// line saying how many were held back: a glove whose every sample fails
// writes a line a second, not one a sample.
func (h *handRuntime) frameFailed(err error, now time.Time) {
	h.failing.Store(true)
	h.setStatus(StatusDegraded)
	ok, held := h.failSaid.Allow("frame", now)
	if !ok {
		return
	}
	ev := h.log.Error().Err(err)
	if held > 0 {
		ev = ev.Int("suppressed", held)
	}
	ev.Msg("frame failed: no frame goes out for this sample")
}

// send sends hand h's frame, its sample taken at time at: gloved's bundle
// to osc.targets and the subscribers, then the frame in every profile.
// When the hand's status is due at now the frame carries it, and the
// profiles that carry a state get it in a bundle of its own after their
// frames; so they do too when the status is one without live poses (a
// replay that ended while its last frame was made), since their frames
// say the hand is tracked: the last word on the wire is the status. It
// returns the hand's status.
func (d *Daemon) send(h *handRuntime, at, now time.Time) string {
	h.sending.Lock()
	defer h.sending.Unlock()
	status, due, _ := h.statusDue(now)
	h.frame.Status, h.frame.Rate = "", 0
	if due {
		h.frame.Status, h.frame.Rate = status, h.rate.Measured()
	}
	h.writer.Begin(osc.Timetag(at))
	osc.AppendFrame(&h.writer, h.addr, &h.frame)
	sent := len(h.writer.Packets()) > 0
	if due && !sent {
		h.unsent() // a frame holding a NaN: the status loop sends it
	}
	d.hub.Send(h.writer.Packets())
	if sent {
		h.sentTag.Store(max(h.sentTag.Load(), osc.Timetag(at)))
	}
	if d.onFrame != nil {
		d.onFrame(h.cfg.Name, h.writer.Packets())
	}
	d.sendOutputs(h, at)
	if sent && (due || !tracked(status)) {
		d.sendProfileStatuses(d.hub, &h.writer, h, status, now, true)
	}
	return status
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

// statuses is a hand's status loop, beside its frame loop: it sends the
// status in a bundle of its own when it changes and whenever statusEvery
// passes without it having been sent (in a frame or here), so that apps
// hear it at least once a second in every state: streaming, a replay, no
// glove, reconnecting, stalled, a replay ended, a frame that takes long.
// It has its own Writer: the frame loop's is the frame's.
func (d *Daemon) statuses(ctx context.Context, h *handRuntime) {
	var w osc.Writer
	t := time.NewTimer(0) // apps hear the hand's state before its first frame
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			d.publishStatus(h, &w) // a last change (a replay's end) still goes out
			return
		case <-h.changed:
		case <-t.C:
		}
		t.Reset(d.publishStatus(h, &w))
	}
}

// publishStatus sends a status-only bundle with w if the status is due,
// and says how long until it is due again.
func (d *Daemon) publishStatus(h *handRuntime, w *osc.Writer) time.Duration {
	h.sending.Lock()
	defer h.sending.Unlock()
	now := time.Now()
	status, due, wait := h.statusDue(now)
	if !due {
		return wait
	}
	d.sendStatuses(d.hub, w, h, status, now)
	if d.view != nil {
		d.view.PublishStatus(h.index, status, h.rate.Measured())
	}
	return wait
}

// sendStatus sends status, and the measured sample rate if above 0, to
// addr through hub in a bundle of its own, stamped tag.
func sendStatus(hub *osc.Hub, w *osc.Writer, addr *osc.Addresses, status string, rate float64, tag uint64) {
	w.Begin(tag)
	osc.AppendStatus(w, addr, status, rate)
	hub.Send(w.Packets())
}

// statusTag is the timetag of a bundle of hand h's that holds its status
// alone: the time of the last frame's sample (the daemon's start, which
// the sample times count from, before its first frame). A status has no
// sample time of its own, and stamped when it went out it was up to a
// millisecond ahead of the hand's next frame: a hand's timetags never go
// back. (Two hands' frames interleave, each with its own sample's time.)
func (d *Daemon) statusTag(h *handRuntime) uint64 {
	if tt := h.sentTag.Load(); tt != 0 {
		return tt
	}
	return osc.Timetag(d.start)
}

func (h *handRuntime) peekStatus() (geom.Transform, string, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.wrist, h.status, h.fresh
}
