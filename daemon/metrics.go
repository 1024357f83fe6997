package daemon

import (
	"errors"
	"fmt"
	"math"
	"net"
	"net/http"
	"slices"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/gloved/gloved/access"
	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/mdns"
	"github.com/gloved/gloved/oscquery"
	"github.com/gloved/gloved/session"
)

// The frame rate is counted in tenths of a second and told over the
// last fpsTenths whole ones before now: it falls to 0 within that and a
// tenth of frames stopping (a silent glove, an ended replay), where a
// rate taken only when a frame arrives kept its last value for ever.
const (
	fpsTenth  = 100 * time.Millisecond
	fpsTenths = 10
)

// frameRate counts the frames of every hand; the frame loop adds, Snapshot
// reads, both under Daemon.mu.
type frameRate struct {
	start time.Time            // tenths are numbered from the first frame's
	tenth [fpsTenths + 1]int64 // the tenth each slot counts
	count [fpsTenths + 1]int
}

// add counts a frame at now.
func (r *frameRate) add(now time.Time) {
	if r.start.IsZero() {
		r.start = now
	}
	n := int64(now.Sub(r.start) / fpsTenth)
	k := n % int64(len(r.tenth))
	if r.tenth[k] != n {
		r.tenth[k], r.count[k] = n, 0
	}
	r.count[k]++
}

// at returns the frames a second over the fpsTenths whole tenths before
// now's; 0 until that long has passed since the first frame.
func (r *frameRate) at(now time.Time) float64 {
	if r.start.IsZero() {
		return 0
	}
	n := int64(now.Sub(r.start) / fpsTenth)
	if n < fpsTenths {
		return 0
	}
	sum := 0
	for k, t := range r.tenth {
		if t >= n-fpsTenths && t < n {
			sum += r.count[k]
		}
	}
	return float64(sum) / (fpsTenths * fpsTenth).Seconds()
}

// measured reports whether at measures: fpsTenths whole tenths have
// passed since the first frame.
func (r *frameRate) measured(now time.Time) bool {
	return !r.start.IsZero() && int64(now.Sub(r.start)/fpsTenth) >= fpsTenths
}

func (d *Daemon) record(total time.Duration, stages [session.NumStages]time.Duration) {
	d.mu.Lock()
	d.times[d.nTime%len(d.times)] = total
	d.nTime++
	d.fps.add(time.Now())
	d.mu.Unlock()
	for k, o := range d.stages {
		if o != nil {
			o.Observe(stages[k].Seconds())
		}
	}
}

// Status is a snapshot for a live status line.
type Status struct {
	FPS float64 // frames a second over the last second: 0 once frames stop
	// FPSMeasured: a whole second has passed since the first frame, so
	// FPS is a measure (before, it is 0 for want of one).
	FPSMeasured   bool
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
	now := time.Now()
	st := Status{FPS: d.fps.at(now), FPSMeasured: d.fps.measured(now), Hands: map[string]string{}}
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
	st.Subscribers = len(d.hub.Subscribers())
	st.OSCMalformed = d.hub.Stats.Malformed.Load()
	st.OSCSentErrors = d.hub.Stats.SendErrors.Load()
	return st
}

// listenMetrics binds the metrics address: before any hand opens, so that
// a busy port fails the start before a recording is created.
func listenMetrics(addr string) (net.Listener, error) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		if errors.Is(err, syscall.EADDRINUSE) {
			return nil, fmt.Errorf("metrics.listen = %q: the port is in use: choose a free port for metrics.listen", addr)
		}
		return nil, fmt.Errorf("metrics.listen = %q: %w", addr, err)
	}
	return l, nil
}

// startMetrics serves the metrics on l.
func (d *Daemon) startMetrics(l net.Listener) {
	reg := prometheus.NewRegistry()
	reg.MustRegister(d.tally.stages)
	for k := range d.stages {
		d.stages[k] = d.tally.stages.WithLabelValues(session.Stage(k).String())
	}
	for _, c := range d.counters() {
		reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Name: c.name, Help: c.help}, func() float64 { return d.tally.value(c) }))
	}
	for _, h := range d.hands {
		reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "gloved_hand_sample_rate", Help: "Glove samples a second that arrived over the last 2 s (a glove on a serial line or the network; 0 for a simulation or a replay). Compare with gloved_hand_nominal_rate: a hand well below it is degraded.",
			ConstLabels: prometheus.Labels{"hand": h.cfg.Name}}, h.rate.Measured))
		reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "gloved_hand_nominal_rate", Help: "Samples a second the hand is judged against: those the glove was set to send, or for a glove that sets none (OpenGloves, a tracker) the steady rate it reached since it opened (0: not measured, or not yet known).",
			ConstLabels: prometheus.Labels{"hand": h.cfg.Name}}, h.rate.Nominal))
		for _, st := range handStatuses {
			reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "gloved_hand_status", Help: "1 for each hand's current status.",
				ConstLabels: prometheus.Labels{"hand": h.cfg.Name, "status": st}}, func() float64 {
				if _, s, _ := h.peekStatus(); s == st {
					return 1
				}
				return 0
			}))
		}
	}
	d.oscqueryGauges(reg)
	d.serveMetrics(l, promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
}

// metricsConns caps the connections the metrics server holds: a
// scraper or two.
const metricsConns = 16

// serveMetrics serves h at /metrics on l, by the rules of the page and
// the OSCQuery tree: to loopback and osc.allow's hosts, naming this
// server (package access). Listening beyond loopback without osc.allow
// is warned of: no other machine may read them then.
func (d *Daemon) serveMetrics(l net.Listener, h http.Handler) {
	warn := func(msg string, kv ...any) { d.log.Warn().Fields(kv).Msg(msg) }
	policy, _ := d.config.OSC.Policy() // checked when the daemon opened
	rules := access.Rules{Allow: policy.Allow}
	if at := l.Addr().(*net.TCPAddr); !at.IP.IsLoopback() && len(rules.Allow) == 0 {
		warn("metrics: metrics.listen is beyond loopback but osc.allow is empty, and only loopback and osc.allow's hosts may read the metrics: add the address of the host that scrapes them to osc.allow",
			"listen", at.String())
	}
	gate := access.NewGate("metrics", warn)
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", h)
	d.metrics = access.Serve(l, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if gate.Let(w, r, rules, l.Addr()) {
			mux.ServeHTTP(w, r)
		}
	}), access.Limits{Conns: metricsConns, Source: rules.Source}, "metrics", warn)
}

// counters lists the daemon's Prometheus counters: the hands' and
// devices' sums, the watchdog's pings, the OSC hub's, OSCQuery's and
// mDNS's.
func (d *Daemon) counters() []counter {
	sum := func(get func(h *handRuntime) uint64) func() float64 {
		return func() float64 {
			t := uint64(0)
			for _, h := range d.hands {
				t += get(h)
			}
			return float64(t)
		}
	}
	cs := []counter{
		{"gloved_frames_total", "Frames processed.", fromDaemon, sum(func(h *handRuntime) uint64 { return h.Stats.Frames.Load() })},
		{"gloved_overruns_total", "Frames over budget.", fromDaemon, sum(func(h *handRuntime) uint64 { return h.Stats.Overruns.Load() })},
		{"gloved_dropped_samples_total", "Samples replaced by a newer one before processing.", fromDaemon, sum(func(h *handRuntime) uint64 { return h.Stats.Dropped.Load() })},
		{"gloved_contacts_total", "Contacts published.", fromDaemon, sum(func(h *handRuntime) uint64 { return h.Stats.Contacts.Load() })},
		{"gloved_device_errors_total", "Reads without a sample (no glove, reconnecting, glove errors).", fromDaemon, sum(func(h *handRuntime) uint64 { return h.Stats.DeviceErrors.Load() })},
		{"gloved_recording_failures_total", "Recordings that stopped or could not start (a full disk): the contacts went on.", fromDaemon, sum(func(h *handRuntime) uint64 { return h.Stats.RecordingFailures.Load() })},
		{"gloved_stalls_total", "Times a connected glove fell silent for frame.stall_ms, or a looping replay began passes without a sample.", fromDaemon, sum(func(h *handRuntime) uint64 { return h.Stats.Stalls.Load() })},
		{"gloved_watchdog_pings_total", "systemd watchdog pings sent.", fromDaemon, func() float64 { return float64(d.watchdogPings.Load()) }},
	}
	for _, f := range []struct {
		name string
		get  func(devices.Faults) uint64
	}{
		{"bad_frames", func(f devices.Faults) uint64 { return f.BadFrames }},
		{"resyncs", func(f devices.Faults) uint64 { return f.Resyncs }},
		{"reconnects", func(f devices.Faults) uint64 { return f.Reconnects }},
		{"no_glove", func(f devices.Faults) uint64 { return f.NoGlove }},
		{"open_failures", func(f devices.Faults) uint64 { return f.OpenFailures }},
		{"out_of_range", func(f devices.Faults) uint64 { return f.OutOfRange }},
		{"unknown_keys", func(f devices.Faults) uint64 { return f.UnknownKeys }},
		{"dropped_replies", func(f devices.Faults) uint64 { return f.DroppedReplies }},
		{"denied", func(f devices.Faults) uint64 { return f.Denied }},
	} {
		cs = append(cs, counter{"gloved_serial_" + f.name + "_total", "Serial faults: " + f.name + ".", fromDaemon, sum(func(h *handRuntime) uint64 {
			n := uint64(0)
			if f.name == "open_failures" {
				n = h.Stats.OpenFailures.Load() // a glove absent at start
			}
			if fc, ok := h.device().(devices.FaultCounter); ok {
				n += f.get(fc.Faults())
			}
			return n
		})})
	}
	for _, c := range d.hub.Stats.Counters() {
		cs = append(cs, counter{"gloved_osc_" + c.Name + "_total", c.Help, fromHub, func() float64 { return float64(c.Value.Load()) }})
	}
	return append(cs, d.oscqueryCounters()...)
}

// oscqueryGauges registers whether the OSCQuery service is advertised
// and how many apps it found are sent to.
func (d *Daemon) oscqueryGauges(reg *prometheus.Registry) {
	reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "gloved_oscquery_advertised",
		Help: "1 while the OSCQuery service is advertised over mDNS, 0 when it is off or cannot be."}, func() float64 {
		if d.oscq != nil && d.oscq.Advertised() {
			return 1
		}
		return 0
	}))
	reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "gloved_oscquery_apps",
		Help: "Apps found over mDNS (osc.targets oscquery:GLOB); frames go to 8 of a glob, 16 in all, and the rest wait (gloved_oscquery_apps_left_out_total)."}, func() float64 {
		if d.oscq == nil {
			return 0
		}
		return float64(d.oscq.Found())
	}))
}

// oscqueryCounters are the OSCQuery service's counters: its HTTP requests
// and refusals, and the mDNS traffic.
func (d *Daemon) oscqueryCounters() []counter {
	server := func(get func(s oscquery.Stats) uint64) func() float64 {
		return func() float64 {
			if d.oscq == nil {
				return 0
			}
			return float64(get(d.oscq.Server.Stats()))
		}
	}
	mdnsCount := func(get func(s *mdns.Stats) uint64) func() float64 {
		return func() float64 {
			if d.oscq == nil || d.oscq.MDNS() == nil {
				return 0
			}
			return float64(get(d.oscq.MDNS()))
		}
	}
	cs := []counter{
		{"gloved_oscquery_requests_total", "OSCQuery HTTP requests.", fromOSCQuery, server(func(s oscquery.Stats) uint64 { return s.Requests })},
		{"gloved_oscquery_refused_total", "OSCQuery HTTP requests refused by the allow rules.", fromOSCQuery, server(func(s oscquery.Stats) uint64 { return s.Refused })},
		{"gloved_oscquery_apps_left_out_total", "Apps found over mDNS beyond the caps (8 of a glob, 16 in all, per destination list): they wait for one sent to to go.", fromOSCQuery, func() float64 {
			if d.apps == nil {
				return 0
			}
			return float64(d.apps.leftOut.Load())
		}},
		{"gloved_oscquery_apps_self_total", "Apps found over mDNS whose address is gloved's own osc.listen or a tracker hand's options.listen: refused, or gloved would send its frames to itself (each app once).", fromOSCQuery, func() float64 {
			if d.oscq == nil {
				return 0
			}
			return float64(d.oscq.SelfRefused())
		}},
	}
	for _, m := range []struct {
		name, help string
		get        func(s *mdns.Stats) uint64
	}{
		{"received", "mDNS datagrams received.", func(s *mdns.Stats) uint64 { return s.Received.Load() }},
		{"malformed", "mDNS datagrams that did not decode.", func(s *mdns.Stats) uint64 { return s.Malformed.Load() }},
		{"ignored", "mDNS datagrams ignored (off the link, or a response from a port other than 5353).", func(s *mdns.Stats) uint64 { return s.Ignored.Load() }},
		{"sent", "mDNS datagrams sent.", func(s *mdns.Stats) uint64 { return s.Sent.Load() }},
		{"send_errors", "mDNS datagrams that could not be sent.", func(s *mdns.Stats) uint64 { return s.SendErrors.Load() }},
		{"answered", "mDNS queries answered.", func(s *mdns.Stats) uint64 { return s.Answered.Load() }},
		{"limited", "mDNS answers held back by the rate limits.", func(s *mdns.Stats) uint64 { return s.Limited.Load() }},
		{"conflicts", "mDNS name conflicts met.", func(s *mdns.Stats) uint64 { return s.Conflicts.Load() }},
		{"renames", "Times the advertised name was taken and another was tried.", func(s *mdns.Stats) uint64 { return s.Renames.Load() }},
		{"refused", "Addresses of apps found that were not taken: off the link they were heard on and not the sender's nor in osc.allow, or another machine's loopback (each app and address once).", func(s *mdns.Stats) uint64 { return s.Refused.Load() }},
	} {
		cs = append(cs, counter{"gloved_mdns_" + m.name + "_total", m.help, fromOSCQuery, mdnsCount(m.get)})
	}
	return cs
}
