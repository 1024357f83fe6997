package daemon

import (
	"maps"

	"github.com/prometheus/client_golang/prometheus"
)

// tally carries the metrics' counts across reloads: a Prometheus counter
// resets only with the process, while a reload rebuilds the hands (their
// frames and contacts), the devices and the watchdog's count, and, when
// their settings change, the OSC hub and the OSCQuery service. A tally
// is never changed once a daemon serves it (the next daemon gets a new
// one), so a scrape of the stopping daemon's endpoint reads it safely.
type tally struct {
	// base is what the daemons before this one counted, by metric name,
	// from the sources that were not handed on.
	base map[string]float64
	// stages is the histogram of stage times, one for the process.
	stages *prometheus.HistogramVec
}

// source is the part of a daemon a counter reads: whether a reload hands
// it on decides whether its count so far goes into the next tally.
type source int

const (
	fromDaemon   source = iota // hands, devices, watchdog: rebuilt by every reload
	fromHub                    // the OSC hub: handed on while osc.listen and osc.prefix stay
	fromOSCQuery               // the OSCQuery service and its mDNS: handed on while [oscquery] stays
)

// counter is one of the daemon's Prometheus counters.
type counter struct {
	name, help string
	from       source
	count      func() float64 // this daemon's own count (its source's, when handed on)
}

// newTally returns the tally of a process's first daemon.
func newTally() *tally {
	return &tally{base: map[string]float64{}, stages: prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "gloved_stage_seconds", Help: "Time per frame stage.",
		Buckets: prometheus.ExponentialBuckets(1e-6, 2, 16),
	}, []string{"stage"})}
}

// value is c's exported value: what the daemons before counted, and this
// one's count.
func (t *tally) value(c counter) float64 { return t.base[c.name] + c.count() }

// next returns the tally for the daemon that follows d, stopped, taking
// over what c carries: d's counts go into its base, but for the sources
// handed on, which go on counting themselves.
func (t *tally) next(d *Daemon, c *carried) *tally {
	n := &tally{base: maps.Clone(t.base), stages: t.stages}
	for _, k := range d.counters() {
		if k.from == fromHub && c.hub != nil || k.from == fromOSCQuery && c.oscq != nil {
			continue
		}
		n.base[k.name] += k.count()
	}
	return n
}
