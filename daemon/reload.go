package daemon

import (
	"time"

	"github.com/gloved/gloved/contact"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/oscquery"
	"github.com/gloved/gloved/view"
)

// carried is what a reload hands from the running daemon to the next: the
// OSC hub, when the next config listens where this one does (subscribers
// and the socket stay), and the wrist poses set over OSC, by hand name.
type carried struct {
	// since is when the service's first daemon started, the time the
	// profiles' clocks count from (VMC's /VMC/Ext/T): a reload keeps it,
	// so that they never go back.
	since  time.Time
	hub    *osc.Hub
	wrists map[string]geom.Transform
	scene  *env.Mesh // the next config's scene, loaded when it was validated
	// shared is what scene's objects prepared (trees, grids), built
	// before the running daemon stopped: the hands stop only while the
	// next daemon opens, not while a scene of millions of triangles
	// builds.
	shared *contact.Shared
	// view is the live page's server, when the next config serves it
	// where this one does, to as many viewers: browsers stay connected
	// and get the new scene.
	view *view.Server
	// oscq is the OSCQuery service, when the next config has the same
	// [oscquery], allow list and apps to find, and the hub is kept: the
	// advertisement and the HTTP server stay, and serve the new tree.
	oscq *oscquery.Service
	apps *apps
	// tally is the metrics' counts so far, set once the running daemon
	// has stopped (tally.next).
	tally *tally
}

// handoff prepares a reload to next: what carries over, and the hub kept
// open when this daemon closes. Call it before stopping the daemon.
func (d *Daemon) handoff(next *Config) *carried {
	c := &carried{wrists: map[string]geom.Transform{}, since: d.since}
	for _, h := range d.hands {
		h.mu.Lock()
		if h.wristSet {
			c.wrists[h.cfg.Name] = h.wrist
		}
		h.mu.Unlock()
	}
	if next.OSC.Listen == d.config.OSC.Listen && next.OSC.Prefix == d.config.OSC.Prefix {
		c.hub, d.keepHub = d.hub, true
	}
	if d.view != nil && next.View == d.config.View {
		c.view, d.keepView = d.view, true
	}
	if d.sameOSCQuery(next, c.hub != nil) {
		c.oscq, c.apps, d.keepOSCQuery = d.oscq, d.apps, true
	}
	return c
}

// keepReloading reports every hand as reloading until the returned func is
// called, once the next daemon is built: held so (the readers no longer
// change it) while this daemon's status loops still run, and sent through
// the carried hub every statusEvery once they have stopped, so that the
// status keeps coming at least once a second through the reload. A hub not
// carried (osc.listen or osc.prefix changed) closes with this daemon: its
// stream ends there.
func (d *Daemon) keepReloading(c *carried) func() {
	for _, h := range d.hands {
		h.hold(StatusReloading)
	}
	if c.hub == nil {
		return func() {}
	}
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		var w osc.Writer
		t := time.NewTicker(statusEvery)
		defer t.Stop()
		for {
			for _, h := range d.hands {
				d.sendStatuses(c.hub, &w, h, StatusReloading, time.Now())
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	return func() { close(stop); <-done }
}

// close closes what was carried, when no daemon takes it over.
func (c *carried) close() {
	if c.hub != nil {
		c.hub.Close()
	}
	if c.view != nil {
		c.view.Close()
	}
	if c.oscq != nil {
		c.oscq.Close()
	}
}

// restore gives the new daemon's hands the wrist poses set over OSC.
func (c *carried) restore(d *Daemon) {
	for _, h := range d.hands {
		if x, ok := c.wrists[h.cfg.Name]; ok {
			h.mu.Lock()
			h.wrist, h.wristSet = x, true
			h.mu.Unlock()
		}
	}
}
