package daemon

import (
	"fmt"
	"sync"
	"time"

	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/osc/openxr"
	"github.com/gloved/gloved/osc/vmc"
	"github.com/gloved/gloved/osc/vrchat"
)

// output is an [[osc.profile]] running: its settings and its
// destinations. Each hand encodes its frames for it (handOutput).
type output struct {
	cfg     ProfileConfig
	index   int // in osc.profile
	targets *osc.Targets
	coords  geom.Convention
	// performer is a vmc output's: what its hands share (/VMC/Ext/OK's
	// tracking, /VMC/Ext/T). mu holds it across each of its bundles'
	// making and sending, the hands' frame and status loops taking turns,
	// so that they leave in the order of their times.
	performer *vmc.Performer
	mu        sync.Mutex
}

// frameEncoder turns a hand's frames into a profile's packets: bundles,
// or bare messages (vrchat), or none (between vrchat's ticks).
type frameEncoder interface {
	Frame(w *osc.Writer, f *osc.Frame, at time.Time)
}

// handOutput is a hand's encoder for one output, with its own writer
// (the frame loop's alone).
type handOutput struct {
	out *output
	enc frameEncoder
	w   osc.Writer
}

// openOutputs reads the config's profiles' destinations.
func (d *Daemon) openOutputs() error {
	for i, p := range d.config.OSC.Profiles {
		t, err := osc.NewTargets(p.Targets)
		if err != nil {
			return fmt.Errorf("%w: osc.profile[%d].targets: %v", ErrConfig, i, err)
		}
		o := &output{cfg: p, index: i, targets: t, coords: p.Convention()}
		if p.Name == ProfileVMC {
			o.performer = vmc.NewPerformer(d.start, len(d.config.Hands))
		}
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
	hand := h.session().Pipeline.Hand()
	prefix, name := d.config.OSC.Prefix, h.cfg.Name
	outs := make([]handOutput, len(d.outputs))
	for i, o := range d.outputs {
		var enc frameEncoder
		switch o.cfg.Name {
		case ProfileGloved:
			enc = &glovedEncoder{addr: h.addr, c: o.coords}
		case ProfileOpenXR:
			enc = openxr.NewHand(hand, prefix, name, o.coords)
		case ProfileVRChat:
			enc = vrchat.NewHand(hand, name, o.cfg.VRChat(d.config.Frame.ProximityM))
		case ProfileVMC:
			enc = vmc.NewHand(hand, o.performer, h.index)
		default:
			panic("daemon: a checked profile has no encoder: " + o.cfg.Name)
		}
		outs[i] = handOutput{out: o, enc: enc}
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
		if o.out.performer != nil {
			o.out.mu.Lock()
		}
		o.enc.Frame(&o.w, &h.frame, at)
		d.hub.SendTo(o.out.targets, o.w.Packets())
		if o.out.performer != nil {
			o.out.mu.Unlock()
		}
		if d.onOutput != nil {
			d.onOutput(o.out.index, h.cfg.Name, o.w.Packets())
		}
	}
}

// sendStatuses sends hand h's status through hub, stamped now, to the
// gloved profile's targets and subscribers and in every profile that
// carries one: gloved's own with other coordinates (<prefix>/<hand>/status),
// openxr (xr/active) and vmc (/VMC/Ext/OK's tracking: the performer's,
// tracked while any of its hands is); vrchat has none.
func (d *Daemon) sendStatuses(hub *osc.Hub, w *osc.Writer, h *handRuntime, status string, now time.Time) {
	sendStatus(hub, w, h.addr, status, now)
	d.sendProfileStatuses(hub, w, h, status, now, true)
}

// sendProfileStatuses sends hand h's status in every profile that carries
// one, as sendStatuses does; gloved's own in other coordinates only
// withGloved (after a frame, that profile's frame carried it if it was
// due, and its frames say nothing the status contradicts).
func (d *Daemon) sendProfileStatuses(hub *osc.Hub, w *osc.Writer, h *handRuntime, status string, now time.Time, withGloved bool) {
	tracked := tracked(status)
	for _, o := range d.outputs {
		switch o.cfg.Name {
		case ProfileGloved:
			if !withGloved {
				continue
			}
			w.Begin(osc.Timetag(now))
			w.Message(h.addr.Status)
			w.String(status)
			w.End()
		case ProfileOpenXR:
			openxr.Status(w, d.config.OSC.Prefix, h.cfg.Name, tracked, now)
		case ProfileVMC:
			o.mu.Lock()
			o.performer.Status(w, h.index, tracked, now)
			hub.SendTo(o.targets, w.Packets())
			o.mu.Unlock()
			continue
		default:
			continue
		}
		hub.SendTo(o.targets, w.Packets())
	}
}

// glovedEncoder is gloved's own contract in other coordinates.
type glovedEncoder struct {
	addr *osc.Addresses
	c    geom.Convention
	conv osc.Frame
}

func (g *glovedEncoder) Frame(w *osc.Writer, f *osc.Frame, at time.Time) {
	w.Begin(osc.Timetag(at))
	if g.c.Identity() {
		osc.AppendFrame(w, g.addr, f)
		return
	}
	osc.ConvertFrame(&g.conv, f, g.c)
	osc.AppendFrame(w, g.addr, &g.conv)
}

// tracked reports whether a hand in status has live poses: its glove
// streams or its replay plays.
func tracked(status string) bool { return status == StatusStreaming || status == StatusReplay }
