package daemon

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"sync"
	"time"

	sd "github.com/coreos/go-systemd/v22/daemon"
	"github.com/go-gl/mathgl/mgl64"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/rs/zerolog"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/osc"
)

// Daemon wires every configured hand to the scene and to OSC.
type Daemon struct {
	Config *Config
	Log    zerolog.Logger
	Hub    *osc.Hub
	Scene  *env.Mesh
	hands  []*handRuntime
	start  time.Time
	budget time.Duration

	mu    sync.Mutex
	times [256]time.Duration // recent frame times, a ring
	nTime int
	fps   frameRate

	stages  [NumStages]prometheus.Observer
	metrics *http.Server
	// ExitWhenDone makes Run return once every hand's device has ended
	// (a replay without loop) and its last frame is out.
	ExitWhenDone bool
	// OnFrame, if set, sees every frame's packets after they are sent
	// (tests hash the stream with it). It runs on the frame loop.
	OnFrame func(hand string, packets [][]byte)
}

type frameRate struct {
	count int
	since time.Time
	value float64
}

// New builds the daemon: loads the scene, opens the OSC socket and every
// glove. Errors name what failed; Close releases what was opened.
func New(cfg *Config, log zerolog.Logger) (d *Daemon, err error) {
	return NewAt(cfg, log, time.Now())
}

// NewAt is New with the wall time that glove sample times count from
// (the OSC timetags): a replay passes its recording's start to make its
// output reproducible.
func NewAt(cfg *Config, log zerolog.Logger, epoch time.Time) (d *Daemon, err error) {
	d = &Daemon{Config: cfg, Log: log, start: epoch, budget: time.Duration(cfg.Frame.BudgetMS * float64(time.Millisecond))}
	defer func() {
		if err != nil {
			d.Close()
		}
	}()
	if d.Scene, err = LoadScene(cfg); err != nil {
		return nil, err
	}
	if d.Hub, err = osc.Listen(cfg.OSC.Listen, cfg.OSC.Prefix); err != nil {
		return nil, err
	}
	for _, t := range cfg.OSC.Targets {
		if err := d.Hub.AddTarget(t); err != nil {
			return nil, fmt.Errorf("%w: osc.targets: %v", ErrConfig, err)
		}
	}
	for _, hc := range cfg.Hands {
		h, err := d.openHand(hc)
		if err != nil {
			return nil, fmt.Errorf("hand %s: %w", hc.Name, err)
		}
		d.hands = append(d.hands, h)
	}
	d.Hub.OnWrist = func(name string, p mgl64.Vec3, q mgl64.Quat) {
		for _, h := range d.hands {
			if h.cfg.Name == name {
				h.setWrist(p, q)
			}
		}
	}
	if cfg.Metrics.Listen != "" {
		d.startMetrics(cfg.Metrics.Listen)
	}
	return d, nil
}

// LoadScene loads the config's scene files (or the built-in scene).
func LoadScene(cfg *Config) (*env.Mesh, error) {
	scene := &env.Mesh{}
	for i, f := range cfg.Scene.Files {
		opt := env.LoadOptions{Scale: f.Scale, Up: env.Up(f.Up)}
		if f.Transform != nil {
			x, err := poseFrom(f.Transform)
			if err != nil {
				return nil, fmt.Errorf("%w: scene.files[%d].transform: %v", ErrConfig, i, err)
			}
			opt.Transform = &x
		}
		m, err := LoadSceneFile(cfg.Resolve(f.Path), opt)
		if err != nil {
			return nil, fmt.Errorf("scene.files[%d]: %w", i, err)
		}
		scene.Append(m)
	}
	if len(scene.Tris) == 0 {
		return nil, fmt.Errorf("%w: scene.files: the scene is empty", ErrConfig)
	}
	return scene, nil
}

// BuiltinScene names the shipped scene, a table with a ball on it, in
// place of a file path.
const BuiltinScene = "builtin:grasp"

// LoadSceneFile loads one mesh file, or the built-in scene, placed by opt.
func LoadSceneFile(path string, opt env.LoadOptions) (*env.Mesh, error) {
	if path != BuiltinScene {
		return env.Load(path, opt)
	}
	m := env.GraspScene(5)
	if err := m.Place(opt); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	m.DetectConvex()
	return m, nil
}

func poseFrom(v []float64) (geom.Transform, error) {
	return geom.FromQuat(mgl64.Quat{W: v[0], V: mgl64.Vec3{v[1], v[2], v[3]}}, mgl64.Vec3{v[4], v[5], v[6]})
}

func (d *Daemon) openHand(hc HandConfig) (*handRuntime, error) {
	var dev devices.Device
	var rec *devices.Recorder
	sensors, right, replay := hc.Sensors, hc.Side != "left", false
	header := devices.RecordingHeader{}
	switch hc.Device {
	case "sim":
		if sensors == 0 {
			sensors = 22
		}
		g, err := devices.NewSimGlove(devices.Motion(hc.Motion), sensors, 10*time.Millisecond, false)
		if err != nil {
			return nil, err
		}
		dev = g
		header = devices.RecordingHeader{Model: "sim", Sensors: sensors, Hand: map[bool]string{true: "right", false: "left"}[right], Source: hc.Motion}
	case "replay":
		r, err := devices.OpenReplay(d.Config.Resolve(hc.Recording), hc.Speed != "max")
		if err != nil {
			return nil, err
		}
		h := r.Header()
		sensors, right, replay, dev = h.Sensors, h.Hand != "left", true, r
	case "cyberglove":
		o := devices.DefaultCyberGloveOpts
		o.Port, o.Baud, o.Sensors = hc.Port, hc.Baud, hc.Sensors
		var recp **devices.Recorder = &rec
		o.Tap = func(t time.Duration, b []byte) {
			if *recp != nil {
				if err := (*recp).WriteRaw(t, b); err != nil {
					d.Log.Error().Err(err).Str("hand", hc.Name).Msg("recording stopped")
					*recp = nil
				}
			}
		}
		g, err := devices.OpenCyberGlove(o)
		if err != nil {
			return nil, err
		}
		info := g.GloveInfo()
		sensors, right, dev = info.Sensors, info.Right, g
		header = devices.RecordingHeader{Model: "cyberglove", Sensors: sensors, Hand: info.Hand(), Mode: "stream", StatusByte: o.StatusByte, Source: hc.Port}
	}
	var cal *handmodel.Calibration
	var err error
	if hc.Calibration != "" {
		cal, err = handmodel.LoadCalibration(d.Config.Resolve(hc.Calibration))
		if err == nil && cal.Sensors != sensors {
			err = fmt.Errorf("%s is for %d sensors, the glove has %d", hc.Calibration, cal.Sensors, sensors)
		}
	} else {
		cal, err = handmodel.DefaultCalibration(sensors)
	}
	if err != nil {
		dev.Close()
		return nil, err
	}
	hand, err := handmodel.New(handmodel.Params{Length: hc.Length, Breadth: hc.Breadth, Right: right})
	if err != nil {
		dev.Close()
		return nil, err
	}
	pipe, err := NewPipeline(hand, cal, d.Scene, d.Config.Frame.ProximityM)
	if err != nil {
		dev.Close()
		return nil, err
	}
	if d.Config.Frame.CountTris != nil {
		pipe.Solver.CountTris = *d.Config.Frame.CountTris
	}
	if hc.Recording != "" && hc.Device != "replay" {
		header.Calibration = cal.Text
		if rec, err = devices.CreateRecording(d.Config.Resolve(hc.Recording), header); err != nil {
			dev.Close()
			return nil, err
		}
	}
	wrist := geom.Identity()
	if hc.Wrist != nil {
		wrist, _ = poseFrom(hc.Wrist) // checked with the config
	}
	log := d.Log.With().Str("hand", hc.Name).Logger()
	log.Info().Str("device", hc.Device).Int("sensors", sensors).Bool("right", right).Msg("glove ready")
	h := newHand(hc, log, pipe, dev, rec, d.Config.OSC.Prefix, wrist, replay)
	h.lossless = replay && hc.Speed == "max"
	return h, nil
}

// Run serves until ctx ends: OSC, every hand's reader and frame loop, the
// systemd notifications. It returns after a clean shutdown (devices
// closed, recordings flushed).
func (d *Daemon) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, 2*len(d.hands)+1)
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := d.Hub.Serve(ctx); err != nil {
			errs <- err
		}
	}()
	stop := make(chan struct{})
	for _, h := range d.hands {
		wg.Add(2)
		go func() {
			defer wg.Done()
			defer close(h.done)
			for {
				err := h.read(stop)
				if errors.Is(err, devices.ErrEnd) && h.cfg.Loop {
					if err = d.rewind(h); err == nil {
						continue
					}
				}
				if err != nil && !errors.Is(err, devices.ErrEnd) {
					errs <- err
				}
				if errors.Is(err, devices.ErrEnd) {
					h.log.Info().Msg("recording played to its end")
				}
				return
			}
		}()
		go func() {
			defer wg.Done()
			d.frames(ctx, h)
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
	if d.ExitWhenDone {
		exitDone = allDone
	}
	sd.SdNotify(false, sd.SdNotifyReady)
	d.Log.Info().Str("osc", d.Hub.Addr().String()).Strs("targets", d.Config.OSC.Targets).Int("hands", len(d.hands)).
		Int("triangles", len(d.Scene.Tris)).Strs("objects", d.Scene.Objects).Msg("gloved running")
	var err error
	select {
	case <-ctx.Done():
	case err = <-errs:
	case <-exitDone:
		d.drain()
	}
	sd.SdNotify(false, sd.SdNotifyStopping)
	cancel()
	close(stop)
	for _, h := range d.hands {
		h.device().Close()
	}
	wg.Wait()
	d.Close()
	return err
}

// epoch is the wall time of a hand's Sample.Time zero: the live device's
// own (so that a timetag is when the sample's bytes arrived), or for a
// replay the daemon's start (NewAt), which keeps replays reproducible.
func (d *Daemon) epoch(h *handRuntime) time.Time {
	if c, ok := h.device().(devices.Clock); ok && !h.replay {
		return c.Epoch()
	}
	return d.start
}

// drain waits for the frame loops to take their last samples.
func (d *Daemon) drain() {
	for _, h := range d.hands {
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); {
			h.mu.Lock()
			fresh := h.fresh
			h.mu.Unlock()
			if !fresh && h.frameIdle.Load() {
				break
			}
			time.Sleep(time.Millisecond)
		}
	}
}

// rewind reopens a looping replay.
func (d *Daemon) rewind(h *handRuntime) error {
	r, err := devices.OpenReplay(d.Config.Resolve(h.cfg.Recording), true)
	if err != nil {
		return err
	}
	h.mu.Lock()
	h.dev = r
	h.mu.Unlock()
	return nil
}

// frames is a hand's frame loop.
func (d *Daemon) frames(ctx context.Context, h *handRuntime) {
	var s devices.Sample
	var seq int32
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	watchdog, _ := sd.SdWatchdogEnabled(false)
	var lastPing time.Time
	var lastOverrunLog time.Time
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
		h.frameIdle.Store(false)
		wrist, status, ok := h.take(&s)
		if !ok {
			h.frameIdle.Store(true)
			continue
		}
		t0 := time.Now()
		if err := h.pipe.Frame(&s, wrist); err != nil {
			h.log.Error().Err(err).Msg("frame failed")
			continue
		}
		ms := float64(time.Since(t0).Nanoseconds()) / 1e6
		t1 := time.Now()
		h.build(seq, ms, status, t1)
		h.writer.Begin(osc.Timetag(d.epoch(h).Add(s.Time)))
		osc.AppendFrame(&h.writer, h.addr, &h.frame)
		d.Hub.Send(h.writer.Packets())
		if d.OnFrame != nil {
			d.OnFrame(h.cfg.Name, h.writer.Packets())
		}
		stages := h.pipe.Stages
		stages[StageOSC] = time.Since(t1)
		total := time.Since(t0)
		seq++
		h.Stats.Frames.Add(1)
		h.Stats.Contacts.Add(uint64(len(h.frame.Contacts)))
		h.Stats.Touching.Store(int32(len(h.frame.Contacts)))
		d.record(total, stages)
		if total > d.budget {
			h.Stats.Overruns.Add(1)
			if time.Since(lastOverrunLog) >= time.Second {
				slow := Stage(0)
				for k := range stages {
					if stages[k] > stages[slow] {
						slow = Stage(k)
					}
				}
				h.log.Warn().Dur("frame", total).Dur("budget", d.budget).Str("stage", slow.String()).Dur("stage_time", stages[slow]).
					Uint64("overruns", h.Stats.Overruns.Load()).Msg("frame over budget")
				lastOverrunLog = time.Now()
			}
		}
		if watchdog > 0 && time.Since(lastPing) >= watchdog/2 {
			sd.SdNotify(false, sd.SdNotifyWatchdog)
			lastPing = time.Now()
		}
		h.frameIdle.Store(true)
	}
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
	d.Hub.Send(h.writer.Packets())
}

func (h *handRuntime) peekStatus() (geom.Transform, string, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.wrist, h.status, h.fresh
}

func (d *Daemon) record(total time.Duration, stages [NumStages]time.Duration) {
	d.mu.Lock()
	d.times[d.nTime%len(d.times)] = total
	d.nTime++
	now := time.Now()
	if d.fps.since.IsZero() {
		d.fps.since = now
	}
	d.fps.count++
	if el := now.Sub(d.fps.since); el >= time.Second {
		d.fps.value = float64(d.fps.count) / el.Seconds()
		d.fps.count, d.fps.since = 0, now
	}
	d.mu.Unlock()
	for k, o := range d.stages {
		if o != nil {
			o.Observe(stages[k].Seconds())
		}
	}
}

// Status is a snapshot for a live status line.
type Status struct {
	FPS           float64
	P50, P99      time.Duration
	Contacts      int
	Frames        uint64
	Overruns      uint64
	Dropped       uint64
	DeviceErrors  uint64
	Subscribers   int
	OSCMalformed  uint64
	OSCSentErrors uint64
	Hands         map[string]string // name -> status
}

// Snapshot returns the current status.
func (d *Daemon) Snapshot() Status {
	d.mu.Lock()
	n := min(d.nTime, len(d.times))
	ts := slices.Clone(d.times[:n])
	st := Status{FPS: d.fps.value, Hands: map[string]string{}}
	d.mu.Unlock()
	slices.Sort(ts)
	if n > 0 {
		st.P50, st.P99 = ts[n/2], ts[int(math.Ceil(0.99*float64(n)))-1]
	}
	for _, h := range d.hands {
		_, s, _ := h.peekStatus()
		st.Hands[h.cfg.Name] = s
		st.Contacts += int(h.Stats.Touching.Load())
		st.Frames += h.Stats.Frames.Load()
		st.Overruns += h.Stats.Overruns.Load()
		st.Dropped += h.Stats.Dropped.Load()
		st.DeviceErrors += h.Stats.DeviceErrors.Load()
	}
	st.Subscribers = len(d.Hub.Subscribers())
	st.OSCMalformed = d.Hub.Stats.Malformed.Load()
	st.OSCSentErrors = d.Hub.Stats.SendErrors.Load()
	return st
}

// Close releases the devices, recordings, socket and metrics server.
func (d *Daemon) Close() {
	for _, h := range d.hands {
		h.device().Close()
		if h.rec != nil {
			if err := h.rec.Close(); err != nil {
				d.Log.Error().Err(err).Str("hand", h.cfg.Name).Msg("closing the recording")
			}
			h.rec = nil
		}
	}
	if d.Hub != nil {
		d.Hub.Close()
	}
	if d.metrics != nil {
		d.metrics.Close()
	}
}

func (d *Daemon) startMetrics(addr string) {
	reg := prometheus.NewRegistry()
	hist := prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "gloved_stage_seconds", Help: "Time per frame stage.",
		Buckets: prometheus.ExponentialBuckets(1e-6, 2, 16),
	}, []string{"stage"})
	reg.MustRegister(hist)
	for k := range d.stages {
		d.stages[k] = hist.WithLabelValues(Stage(k).String())
	}
	counter := func(name, help string, f func() float64) {
		reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help}, f))
	}
	sum := func(get func(h *handRuntime) uint64) func() float64 {
		return func() float64 {
			t := uint64(0)
			for _, h := range d.hands {
				t += get(h)
			}
			return float64(t)
		}
	}
	counter("gloved_frames_total", "Frames processed.", sum(func(h *handRuntime) uint64 { return h.Stats.Frames.Load() }))
	counter("gloved_overruns_total", "Frames over budget.", sum(func(h *handRuntime) uint64 { return h.Stats.Overruns.Load() }))
	counter("gloved_dropped_samples_total", "Samples replaced by a newer one before processing.", sum(func(h *handRuntime) uint64 { return h.Stats.Dropped.Load() }))
	counter("gloved_contacts_total", "Contacts published.", sum(func(h *handRuntime) uint64 { return h.Stats.Contacts.Load() }))
	counter("gloved_device_errors_total", "Reads without a sample (no glove, reconnecting, glove errors).", sum(func(h *handRuntime) uint64 { return h.Stats.DeviceErrors.Load() }))
	for _, f := range []struct {
		name string
		get  func(devices.Faults) uint64
	}{
		{"bad_frames", func(f devices.Faults) uint64 { return f.BadFrames }},
		{"resyncs", func(f devices.Faults) uint64 { return f.Resyncs }},
		{"reconnects", func(f devices.Faults) uint64 { return f.Reconnects }},
		{"no_glove", func(f devices.Faults) uint64 { return f.NoGlove }},
		{"open_failures", func(f devices.Faults) uint64 { return f.OpenFailures }},
	} {
		counter("gloved_serial_"+f.name+"_total", "Serial faults: "+f.name+".", sum(func(h *handRuntime) uint64 {
			if fc, ok := h.device().(devices.FaultCounter); ok {
				return f.get(fc.Faults())
			}
			return 0
		}))
	}
	counter("gloved_osc_packets_sent_total", "OSC packets sent.", func() float64 { return float64(d.Hub.Stats.PacketsSent.Load()) })
	counter("gloved_osc_send_errors_total", "OSC send errors.", func() float64 { return float64(d.Hub.Stats.SendErrors.Load()) })
	counter("gloved_osc_packets_received_total", "OSC packets received.", func() float64 { return float64(d.Hub.Stats.PacketsReceived.Load()) })
	counter("gloved_osc_malformed_total", "Malformed OSC packets dropped.", func() float64 { return float64(d.Hub.Stats.Malformed.Load()) })
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	d.metrics = &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() {
		if err := d.metrics.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
			d.Log.Error().Err(err).Str("listen", addr).Msg("metrics endpoint")
		}
	}()
}
