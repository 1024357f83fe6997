package daemon

import (
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"time"

	"github.com/gloved/gloved/access"
	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/view"
)

// ViewConfig is the live 3D page ([view]).
type ViewConfig struct {
	// Listen is where the page is served ("127.0.0.1:8080"); empty: no
	// page. Sources other than loopback need osc.allow, as for OSC
	// control.
	Listen string `toml:"listen"`
	// MaxViewers caps the browsers watching at once.
	MaxViewers int `toml:"max_viewers"`
	// optional: a port in use is only warned about (the built-in demo's
	// own page, not one a user asked for).
	optional bool
}

// maxViewers bounds view.max_viewers: each viewer is woken every frame.
const maxViewers = 256

func (v *ViewConfig) defaults() {
	if v.MaxViewers == 0 {
		v.MaxViewers = view.DefaultMaxViewers
	}
}

func (v *ViewConfig) check() error {
	if v.MaxViewers < 1 || v.MaxViewers > maxViewers {
		return fmt.Errorf("view.max_viewers = %d: want 1 to %d", v.MaxViewers, maxViewers)
	}
	if v.Listen == "" {
		return nil
	}
	_, port, err := net.SplitHostPort(v.Listen)
	if err != nil || port == "" {
		return fmt.Errorf("view.listen = %q: want host:port, such as 127.0.0.1:8080", v.Listen)
	}
	if _, err := net.LookupPort("tcp", port); err != nil {
		return fmt.Errorf("view.listen = %q: %q is no port: give one of 0 to 65535", v.Listen, port)
	}
	return nil
}

// openView starts the page's server, unless a reload carried one over or
// the config has none.
func (d *Daemon) openView() error {
	cfg := d.config
	if cfg.View.Listen == "" {
		return nil
	}
	if d.view != nil { // carried over by a reload
		d.viewObjects = view.SceneObjects(d.scene)
		return nil
	}
	policy, err := cfg.OSC.Policy()
	if err != nil {
		return fmt.Errorf("%w: %v", ErrConfig, err)
	}
	v, err := view.Listen(cfg.View.Listen, view.Options{Allow: policy.Allow, MaxViewers: cfg.View.MaxViewers,
		Log: func(msg string, kv ...any) { d.log.Warn().Fields(kv).Msg(msg) }})
	if err != nil {
		if errors.Is(err, access.ErrInUse) {
			if cfg.View.optional {
				d.log.Warn().Str("view", cfg.View.Listen).Msg("the live page's port is in use (another gloved?); the demo runs without it: pass --view ADDR for another port")
				return nil
			}
			return fmt.Errorf("view.listen = %q: the port is in use (another gloved, or a web server?): choose a free port for view.listen", cfg.View.Listen)
		}
		return fmt.Errorf("view.listen = %q: %w", cfg.View.Listen, err)
	}
	d.view = v
	d.viewObjects = view.SceneObjects(d.scene)
	return nil
}

// viewScene sends the page the scene and every hand opened so far; a hand
// whose glove opens later is added then.
func (d *Daemon) viewScene() { d.sendViewScene(true) }

// EndLive tells the page that no more live frames come (a replay ended):
// it keeps showing its timeline, if it has one.
func (d *Daemon) EndLive() { d.sendViewScene(false) }

func (d *Daemon) sendViewScene(live bool) {
	if d.view == nil {
		return
	}
	sc := view.Scene{Objects: d.viewObjects, BudgetMS: d.config.Frame.BudgetMS, Proximity: d.config.Frame.ProximityM, Live: live, Title: "demo"}
	switch {
	case d.config.Path != "":
		sc.Title = filepath.Base(d.config.Path)
	case d.config.Hands[0].Replays():
		sc.Title = filepath.Base(d.config.Hands[0].Recording)
	}
	for _, h := range d.hands {
		hv := view.Hand{Name: h.cfg.Name}
		if s := h.session(); s != nil {
			hv = view.NewHand(h.cfg.Name, s.Pipeline.Hand(), s.Pipeline.Body())
		}
		sc.Hands = append(sc.Hands, hv)
	}
	if err := d.view.SetScene(sc); err != nil {
		d.log.Error().Err(err).Msg("the live page's scene")
	}
}

// publishView hands a frame to the page: a copy, no I/O, after OSC is out.
func (d *Daemon) publishView(h *handRuntime, s *devices.Sample, status string, took time.Duration) {
	if d.view == nil {
		return
	}
	info := view.Info{Status: status, Rate: h.rate.Measured(), T: s.Time, FrameMS: float64(took.Nanoseconds()) / 1e6,
		Frames: h.Stats.Frames.Load(), Dropped: h.Stats.Dropped.Load(), Overruns: h.Stats.Overruns.Load()}
	d.view.Publish(h.index, &h.frame, &info)
}

// ViewURL is the live page's address, or "" if there is none.
func (d *Daemon) ViewURL() string {
	if d.view == nil {
		return ""
	}
	return d.view.URL()
}
