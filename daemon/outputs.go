package daemon

import (
	"fmt"
	"sync"
	"time"

	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/osc/profile"
)

// output is an [[osc.profile]] running: the profile's output for this
// daemon and its destinations. Each hand encodes its frames for it
// (handOutput).
type output struct {
	index   int // in osc.profile
	out     profile.Output
	targets *osc.Targets
	// lock is the output's own when its hands share state (vmc's
	// performer): held across each of its bundles' making and sending,
	// the hands' frame and status loops taking turns, so that they leave
	// in the order they were made.
	lock sync.Locker
}

// handOutput is a hand's encoder for one output, with its own writer
// (the frame loop's alone).
type handOutput struct {
	out *output
	enc profile.Encoder
	w   osc.Writer
}

// openOutputs opens the config's profiles' outputs and reads their
// destinations.
func (d *Daemon) openOutputs() error {
	cfg := d.config
	run := profile.Run{Start: d.since, Opened: d.start, Prefix: cfg.OSC.Prefix, Hands: cfg.handNames(), Band: cfg.Frame.ProximityM}
	for i, p := range cfg.OSC.Profiles {
		if p.configured == nil {
			return fmt.Errorf("%w: osc.profile[%d]: the config was not checked (ParseConfig, Normalize)", ErrConfig, i)
		}
		t, err := osc.NewTargets(p.Targets)
		if err != nil {
			return fmt.Errorf("%w: osc.profile[%d].targets: %v", ErrConfig, i, err)
		}
		o := &output{index: i, out: p.configured.Open(run), targets: t}
		o.lock, _ = o.out.(sync.Locker)
		d.outputs = append(d.outputs, o)
	}
	return nil
}

// Outputs returns every destination list the daemon sends to: the gloved
// profile's (osc.targets, besides the subscribers) first, then each
// [[osc.profile]]'s in the config's order. An OSCQuery browser tells
// those with Patterns the services it finds (Found, Lost); a reload
// replaces them all.
func (d *Daemon) Outputs() []*osc.Targets {
	out := []*osc.Targets{d.hub.Targets()}
	for _, o := range d.outputs {
		out = append(out, o.targets)
	}
	return out
}

// handOutputs builds hand h's encoders, once its glove has opened (the
// hand model is the session's).
func (d *Daemon) handOutputs(h *handRuntime) []handOutput {
	model := h.session().Pipeline.Hand()
	outs := make([]handOutput, len(d.outputs))
	for i, o := range d.outputs {
		outs[i] = handOutput{out: o, enc: o.out.Hand(h.index, model)}
		outs[i].w.NonFinite = &d.hub.Stats.NonFinite
	}
	return outs
}

// sendOutputs sends hand h's frame, taken at time at, in every profile.
func (d *Daemon) sendOutputs(h *handRuntime, at time.Time) {
	if len(d.outputs) == 0 {
		return
	}
	if h.outs == nil {
		h.outs = d.handOutputs(h)
	}
	for i := range h.outs {
		o := &h.outs[i]
		o.out.acquire()
		o.enc.Frame(&o.w, &h.frame, at)
		d.hub.SendTo(o.out.targets, o.w.Packets())
		o.out.release()
		if d.onOutput != nil {
			d.onOutput(o.out.index, h.cfg.Name, o.w.Packets())
		}
	}
}

// sendStatuses sends hand h's status through hub, at now, to the
// gloved profile's targets and subscribers and in every profile that
// carries one (gloved's own with other coordinates: <prefix>/<hand>/status;
// openxr: xr/active; vmc: /VMC/Ext/OK's tracking, the performer's,
// tracked while any of its hands is; vrchat has none).
func (d *Daemon) sendStatuses(hub *osc.Hub, w *osc.Writer, h *handRuntime, status string, now time.Time) {
	sendStatus(hub, w, h.addr, status, h.rate.Measured(), d.statusTag(h))
	d.sendProfileStatuses(hub, w, h, status, now, false)
}

// sendProfileStatuses sends hand h's status in every profile that carries
// one, each in a bundle of its own stamped as gloved's (statusTag), as
// sendStatuses does; framed says the
// hand's frame has just gone out in every profile (a profile whose frames
// carry the status, gloved's own, carried it if it was due, and its
// frames say nothing the status contradicts).
func (d *Daemon) sendProfileStatuses(hub *osc.Hub, w *osc.Writer, h *handRuntime, status string, now time.Time, framed bool) {
	s := profile.Status{State: status, Tracked: tracked(status), Now: now, Framed: framed}
	for _, o := range d.outputs {
		o.acquire()
		w.Begin(d.statusTag(h))
		o.out.Status(w, h.index, s)
		if len(w.Packets()) > 0 {
			hub.SendTo(o.targets, w.Packets())
		}
		o.release()
	}
}

// acquire takes the output's lock, if it has one.
func (o *output) acquire() {
	if o.lock != nil {
		o.lock.Lock()
	}
}

// release lets the output's lock go, if it has one.
func (o *output) release() {
	if o.lock != nil {
		o.lock.Unlock()
	}
}

// tracked reports whether a hand in status has live poses: its glove
// streams (degraded or not: a glove losing samples still delivers valid
// poses, fewer) or its replay plays. openxr's xr/active and vmc's
// tracking are 1 then, 0 otherwise.
func tracked(status string) bool {
	return status == StatusStreaming || status == StatusDegraded || status == StatusReplay
}
