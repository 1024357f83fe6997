package daemon

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/rs/zerolog"

	"github.com/gloved/gloved/access"
	"github.com/gloved/gloved/contact"
	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/replay"
	"github.com/gloved/gloved/devices/serialport"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/internal/memroom"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/oscquery"
	"github.com/gloved/gloved/session"
	"github.com/gloved/gloved/view"
)

// Daemon wires every configured hand to the scene and to OSC.
type Daemon struct {
	config *Config
	log    zerolog.Logger
	hub    *osc.Hub
	scene  *env.Mesh
	shared *contact.Shared // what the scene's objects prepared, for every hand
	hands  []*handRuntime
	// pairs tests the hands against each other (nil: one hand, or
	// [hand_contact] enabled = false).
	pairs *session.HandPairs
	start time.Time
	// since is when the service's first daemon started (carried.since):
	// start, unless a reload carried it over.
	since  time.Time
	budget time.Duration

	mu    sync.Mutex
	times [256]time.Duration // recent frame times, a ring
	nTime int
	fps   frameRate

	stages        [session.NumStages]prometheus.Observer
	tally         *tally // the metrics' counts of the daemons before this one
	watchdogPings atomic.Uint64
	metrics       *access.Server
	// view is the live page's server (nil: none); viewObjects the
	// scene's objects as it sends them.
	view        *view.Server
	viewObjects []view.Mesh
	// keepView leaves the page's server open at Close: a reload hands it
	// on.
	keepView bool
	// keepHub leaves the OSC hub open at Close: a reload hands it on.
	keepHub bool
	// oscq is the OSCQuery service (nil: off), apps where the apps it
	// finds go; keepOSCQuery leaves it running at Close (a reload hands
	// it on).
	oscq         *oscquery.Service
	apps         *apps
	keepOSCQuery bool
	// exitWhenDone makes Run return once every hand's device has ended
	// (a replay without loop) and its last frame is out.
	exitWhenDone bool
	// onFrame, if set, sees every frame's packets after they are sent
	// (tests hash the stream with it). It runs on the frame loop.
	onFrame func(hand string, packets [][]byte)
	// outputs are the [[osc.profile]]s; onOutput, if set, sees the
	// packets each sends for a hand's frame (osc.profile's index), on the
	// frame loop.
	outputs  []*output
	onOutput func(profile int, hand string, packets [][]byte)
}

// New builds the daemon: loads the scene, opens the OSC socket and every
// glove. Errors name what failed; Close releases what was opened.
func New(cfg *Config, log zerolog.Logger) (*Daemon, error) {
	return NewAt(cfg, log, time.Now())
}

// NewAt is New with the wall time that glove sample times count from
// (the OSC timetags): a replay passes its recording's start to make its
// output reproducible.
func NewAt(cfg *Config, log zerolog.Logger, epoch time.Time) (*Daemon, error) {
	return newDaemon(context.Background(), cfg, log, epoch, nil)
}

// newDaemon builds a daemon, taking over what a reload carries (c may be
// nil): the OSC hub, with its subscribers, the wrist poses set over OSC
// and the metrics' counts. Loading and preparing the scene is given up
// once ctx ends (Interrupted says so).
func newDaemon(ctx context.Context, cfg *Config, log zerolog.Logger, epoch time.Time, c *carried) (*Daemon, error) {
	d := &Daemon{config: cfg, log: log, start: epoch, since: epoch, budget: time.Duration(cfg.Frame.BudgetMS * float64(time.Millisecond)), tally: newTally()}
	if c != nil {
		d.hub, d.scene, d.shared, d.view, d.oscq, d.apps = c.hub, c.scene, c.shared, c.view, c.oscq, c.apps
		if c.tally != nil {
			d.tally = c.tally
		}
		if !c.since.IsZero() {
			d.since = c.since
		}
	}
	if err := d.open(ctx); err != nil {
		d.keepHub = c != nil && c.hub != nil // the caller may still use it
		d.keepView = c != nil && c.view != nil
		d.keepOSCQuery = c != nil && c.oscq != nil
		d.Close()
		return nil, err
	}
	if c != nil {
		c.restore(d)
	}
	return d, nil
}

// open loads the scene, opens the OSC socket (unless one was carried
// over) and every hand; what it opened before a failure, Close releases.
// The scene's loading and preparing end with ctx.
func (d *Daemon) open(ctx context.Context) error {
	cfg := d.config
	var err error
	if d.scene == nil {
		if d.scene, err = LoadScene(ctx, cfg); err != nil {
			return err
		}
		for _, w := range d.scene.Warnings { // a reload's were the config's (Validate)
			d.log.Warn().Msg("scene: " + w)
		}
	}
	if d.shared == nil || d.shared.Mesh() != d.scene { // every hand's, and every reopened glove's
		d.shared = contact.NewSharedContext(ctx, d.scene)
	}
	if d.hub == nil {
		if d.hub, err = osc.Listen(cfg.OSC.Listen, cfg.OSC.Prefix); err != nil {
			if errors.Is(err, syscall.EADDRINUSE) {
				return fmt.Errorf("osc.listen = %q: the port is in use (another gloved, or another OSC app?): choose a free port for osc.listen", cfg.OSC.Listen)
			}
			return fmt.Errorf("osc.listen = %q: %w", cfg.OSC.Listen, err)
		}
	}
	policy, err := cfg.OSC.Policy()
	if err != nil {
		return fmt.Errorf("%w: %v", ErrConfig, err)
	}
	policy.Inputs = cfg.trackerInputs()
	d.hub.SetPolicy(policy)
	d.hub.Log = func(msg string, kv ...any) { d.log.Warn().Fields(kv).Msg(msg) }
	if err := d.hub.SetTargets(cfg.OSC.Targets); err != nil {
		return fmt.Errorf("%w: osc.targets: %v", ErrConfig, err)
	}
	if err := d.openOutputs(); err != nil {
		return err
	}
	var metrics net.Listener
	if cfg.Metrics.Listen != "" {
		if metrics, err = listenMetrics(cfg.Metrics.Listen); err != nil {
			return err
		}
	}
	if err := d.openOSCQuery(); err != nil {
		if metrics != nil {
			metrics.Close()
		}
		return err
	}
	if err := d.openView(); err != nil {
		if metrics != nil {
			metrics.Close()
		}
		return err
	}
	if err := d.openHands(); err != nil {
		if metrics != nil {
			metrics.Close()
		}
		return err
	}
	d.viewScene()
	if metrics != nil {
		d.startMetrics(metrics)
	}
	return nil
}

// openHands opens every hand and wires the OSC wrist input to them.
func (d *Daemon) openHands() error {
	cfg := d.config
	for i, hc := range cfg.Hands {
		h, err := d.openHand(i)
		if err != nil {
			return fmt.Errorf("hand %s: %w", hc.Name, cfg.explainMissing(err))
		}
		h.index = i
		h.onAttach = d.viewScene
		d.hands = append(d.hands, h)
	}
	if err := d.openPairs(); err != nil {
		return err
	}
	d.hub.OnWrist = func(name string, p mgl64.Vec3, q mgl64.Quat) bool {
		for _, h := range d.hands {
			if h.cfg.Name == name {
				h.setWrist(p, q)
				return true
			}
		}
		return false
	}
	for _, h := range d.hands {
		h.writer.NonFinite = &d.hub.Stats.NonFinite
	}
	return nil
}

// openPairs prepares the tests between hands (none for one hand, or with
// [hand_contact] enabled = false).
func (d *Daemon) openPairs() error {
	var err error
	if d.pairs, err = d.config.HandPairs(); err != nil {
		return fmt.Errorf("%w: hand_contact: %v", ErrConfig, err)
	}
	return nil
}

// LoadScene loads the config's scene files (or the built-in scene), given
// up once ctx ends. A scene too large to prepare in the memory the
// process may still take is refused once its files' triangles are read,
// before their hulls and trees are built (sceneFits): the start,
// `--check` and a reload all load it here.
func LoadScene(ctx context.Context, cfg *Config) (*env.Mesh, error) {
	admit := func(tris int) error { return sceneFits(cfg.Scene.Files, tris, memroom.Read()) }
	m, err := session.LoadSceneAdmit(ctx, cfg.Scene.Files, cfg.Dir(), admit)
	if err != nil {
		return nil, fmt.Errorf("scene: %w", cfg.explainMissing(err))
	}
	if err := contact.Check(ctx, m, cfg.Scene.Methods); err != nil {
		var me *contact.MethodError
		if ctx.Err() != nil {
			return nil, fmt.Errorf("scene: %w", err)
		}
		if errors.As(err, &me) {
			return nil, fmt.Errorf("%w: scene.methods: %q = %q: %v", ErrConfig, me.Object, me.Method, me.Err)
		}
		return nil, fmt.Errorf("%w: scene.methods: %v", ErrConfig, err)
	}
	return m, nil
}

// openHand prepares hand i. A replay or a simulation opens now (a bad
// recording or calibration is a startup error); a glove opens in its
// reader, which retries while it is absent, once its calibration has been
// checked here.
func (d *Daemon) openHand(i int) (*handRuntime, error) {
	hc, spec, opt := d.config.Hands[i], d.config.Spec(i), d.config.PipelineOptions()
	opt.Shared = d.shared
	log := d.log.With().Str("hand", hc.Name).Logger()
	h := newHand(hc, spec, d.scene, opt, log, d.config.OSC.Prefix, time.Duration(d.config.Frame.StallMS*float64(time.Millisecond)))
	h.fbOn, h.fb.opts = d.config.Feedback.Enabled, d.config.Feedback.options()
	if spec.Serial() {
		if err := serialport.Free(spec.Port); err != nil {
			return nil, err
		}
		return h, session.Check(spec)
	}
	if spec.Device == session.DeviceReplay {
		// A recording without a sample would play passes of nothing.
		if err := replay.HoldsSamples(spec.Recording); err != nil {
			return nil, err
		}
	}
	s, err := session.Open(spec, d.scene, opt)
	if err != nil {
		return nil, err
	}
	h.attach(s)
	return h, nil
}

// Run serves until ctx ends: OSC, every hand's reader and frame loop, the
// systemd watchdog (READY and STOPPING are the Service's to send: a reload
// stops one daemon and starts the next without the service stopping). It returns after a clean shutdown (devices
// closed, recordings flushed).
func (d *Daemon) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, 2*len(d.hands)+1)
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := d.hub.Serve(ctx); err != nil {
			errs <- err
		}
	}()
	stop := make(chan struct{})
	for _, h := range d.hands {
		wg.Add(3)
		go func() {
			defer wg.Done()
			defer close(h.done)
			switch err := h.serve(stop); {
			case err == nil || errors.Is(err, devices.ErrEnd):
			case d.exitWhenDone:
				errs <- err // gloved replay: its one recording is the run
			default:
				h.stopped(err) // one hand's error never ends the daemon
			}
		}()
		go func() {
			defer wg.Done()
			d.frames(ctx, h)
		}()
		go func() {
			defer wg.Done()
			d.statuses(ctx, h)
		}()
	}
	allDone := make(chan struct{})
	go func() {
		for _, h := range d.hands {
			<-h.done
		}
		close(allDone)
	}()
	var exitDone <-chan struct{}
	if d.exitWhenDone {
		exitDone = allDone
	}
	if every := watchdogInterval(); every > 0 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d.liveness(ctx, every)
		}()
	}
	if d.oscq != nil {
		d.oscq.Advertise() // once: a reload's carried service already is
	}
	var profiles []string
	for _, p := range d.config.OSC.Profiles {
		profiles = append(profiles, p.String())
	}
	names, more := d.scene.SomeObjects()
	ev := d.log.Info().Str("osc", d.hub.Addr().String()).Strs("targets", d.config.OSC.Targets).Strs("profiles", profiles).Int("hands", len(d.hands)).
		Int("triangles", len(d.scene.Tris)).Strs("objects", names)
	if more > 0 {
		ev = ev.Int("more_objects", more)
	}
	ev.Str("view", d.ViewURL()).Str("oscquery", d.OSCQueryURL()).Msg("gloved running")
	var err error
	select {
	case <-ctx.Done():
	case err = <-errs:
	case <-exitDone:
		d.drain(ctx)
	}
	cancel()
	close(stop)
	for _, h := range d.hands {
		if dev := h.device(); dev != nil {
			dev.Close()
		}
	}
	wg.Wait()
	d.Close()
	return err
}

// drain waits for the frame loops to take their last samples, at most
// drainFor for each hand, or until ctx ends.
func (d *Daemon) drain(ctx context.Context) {
	poll := time.NewTicker(time.Millisecond)
	defer poll.Stop()
	for _, h := range d.hands {
		deadline := time.After(drainFor)
	wait:
		for !h.drained() {
			select {
			case <-ctx.Done():
				return
			case <-deadline:
				break wait
			case <-poll.C:
			}
		}
	}
}

// drainFor bounds drain's wait for one hand's frame loop.
const drainFor = 5 * time.Second

// drained reports whether the hand's frame loop has taken its last sample
// and finished its frame.
func (h *handRuntime) drained() bool {
	h.mu.Lock()
	fresh := h.fresh
	h.mu.Unlock()
	return !fresh && h.busySince.Load() == 0
}

// Close releases the devices, recordings, socket and metrics server.
func (d *Daemon) Close() {
	for _, h := range d.hands {
		s := h.session()
		if s == nil {
			continue
		}
		if err := s.Close(); err != nil {
			d.log.Error().Err(err).Str("hand", h.cfg.Name).Msg("closing the glove and its recording")
		}
	}
	if d.hub != nil && !d.keepHub {
		d.hub.Close()
	}
	if d.metrics != nil {
		d.metrics.Close()
	}
	if d.view != nil && !d.keepView {
		d.view.Close()
	}
	if d.oscq != nil && !d.keepOSCQuery {
		d.oscq.Close()
	}
}
