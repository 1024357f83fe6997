package daemon

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/rs/zerolog"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/internal/loglimit"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/session"
)

// Hand states reported on <prefix>/<hand>/status.
const (
	StatusStreaming    = "streaming"
	StatusDegraded     = "degraded" // streaming, but samples are lost: the rate measured is well below the glove's, or its frames fail
	StatusNoGlove      = "no-glove"
	StatusReconnecting = "reconnecting"
	StatusReplay       = "replay"
	StatusStalled      = "stalled" // the glove is connected but has sent nothing for frame.stall_ms; a looping replay's passes yield no sample
	StatusEnded        = "ended"   // a replay without loop has played to its end
	// StatusReloading: a reload (SIGHUP) is replacing the daemon; the
	// hands of the new config report their own states once it runs.
	StatusReloading = "reloading"
)

// handStatuses lists every status, for metrics.
var handStatuses = []string{StatusStreaming, StatusDegraded, StatusNoGlove, StatusReconnecting, StatusStalled, StatusReplay, StatusEnded, StatusReloading}

// statusEvery is the longest a hand's status goes unsent: half the
// contract's second, so that a timer or a frame late by a busy machine
// still keeps every gap under it.
const statusEvery = 500 * time.Millisecond

// HandStats counts one hand's frames and faults.
type HandStats struct {
	Frames, Dropped, Overruns, Contacts, DeviceErrors, Stalls atomic.Uint64
	// OpenFailures counts attempts to open a glove absent at start (the
	// driver counts those of reopening it once it has been open).
	OpenFailures atomic.Uint64
	// RecordingFailures counts recordings that stopped or never started
	// (a full disk): the contacts go on without them.
	RecordingFailures atomic.Uint64
	// FeedbackLines counts the force-feedback lines queued to the glove.
	FeedbackLines atomic.Uint64
	// Touching is the last frame's number of contacts.
	Touching atomic.Int32
}

// handRuntime runs one glove: a reader goroutine keeps the newest sample,
// the frame goroutine processes it (older unprocessed samples are dropped,
// never queued).
type handRuntime struct {
	cfg    HandConfig
	index  int          // in the daemon's hands (and its HandPairs)
	spec   session.Spec // paths resolved
	scene  *env.Mesh
	opt    session.PipelineOptions
	log    zerolog.Logger
	addr   *osc.Addresses
	replay bool
	// onLine: the glove's samples come over a serial line or the network,
	// where they can be lost: their rate is measured, against the glove's
	// own steady rate where its driver sets none.
	onLine bool
	// stallAfter is how long a connected glove may send nothing before
	// the hand is reported stalled.
	stallAfter time.Duration
	Stats      HandStats
	// rate measures the glove's samples as they arrive (the reader's).
	rate *sampleRate

	mu       sync.Mutex
	sess     *session.Session // nil until the glove has opened
	latest   devices.Sample
	fresh    bool
	status   string
	wrist    geom.Transform
	wristSet bool // set by OSC input: overrides the spec's and the recording's
	ready    chan struct{}
	changed  chan struct{} // the status changed: publish it now

	// held: the status is held (reloading), the reader no longer sets it.
	// sentState and sentAt are the status last sent and when, in a frame
	// or in a bundle of its own.
	held      bool
	sentState string
	sentAt    time.Time
	// sending serializes the frame loop's and the status loop's sends:
	// each takes the status to send and sends it while holding it, so a
	// status never follows a newer one on the wire.
	sending sync.Mutex
	// sentTag is the timetag of the hand's last frame sent, its sample's
	// time (0 before the first): a status bundle carries it (statusTag).
	sentTag atomic.Uint64

	// lossless: the reader waits for each sample to be processed (replay
	// at full speed) instead of replacing it.
	lossless bool
	consumed chan struct{}
	done     chan struct{} // closed when the reader has stopped
	// onAttach, if set, runs when a glove absent at start opens (on the
	// reader's goroutine): the live page is told of the hand's links.
	onAttach func()

	// Frame-loop state (frame goroutine only).
	frame   osc.Frame
	touches *session.Touches
	writer  osc.Writer
	outs    []handOutput // the [[osc.profile]]s' encoders, built at the first frame
	fbOn    bool         // [feedback] enabled
	fb      handFeedback
	// busySince is when the frame loop took its current sample
	// (busyStamp), 0 while it waits: the watchdog's measure of a wedged
	// loop.
	busySince      atomic.Int64
	lastOverrunLog time.Time
	lastPairLog    time.Time
	// failing: the last frame failed (frameFailed), so the hand is
	// degraded whatever its samples; failSaid limits the failures' log.
	failing  atomic.Bool
	failSaid loglimit.Limiter
	// The log's status lines come at most once a second: a hand whose
	// status flaps (a tracker sent refused and accepted poses in turn)
	// logs a line a second counting the changes held back, and the
	// status it settled on once it holds (statusDue). loggedAt is when
	// the last line was logged, linesHeld the changes since not logged
	// (under mu). refusedSaid limits the warning that every record is
	// refused to one a minute.
	loggedAt    time.Time
	linesHeld   int
	refusedSaid loglimit.Limiter
}

// newHand prepares a hand; its session is opened by attach (at once for
// a replay or a simulation, by the reader while a glove is absent).
func newHand(cfg HandConfig, spec session.Spec, scene *env.Mesh, opt session.PipelineOptions, log zerolog.Logger, prefix string, stallAfter time.Duration) *handRuntime {
	h := &handRuntime{cfg: cfg, spec: spec, scene: scene, opt: opt, log: log, addr: osc.HandAddresses(prefix, cfg.Name),
		replay: spec.Replays(), stallAfter: stallAfter, wrist: geom.Identity(),
		ready: make(chan struct{}, 1), changed: make(chan struct{}, 1), status: StatusStreaming,
		consumed: make(chan struct{}, 1), done: make(chan struct{}), rate: newSampleRate(0, stallAfter),
		failSaid: loglimit.Limiter{Every: frameEvery}, refusedSaid: loglimit.Limiter{Every: time.Minute}}
	// Only the simulation streams from the start: any other live glove
	// (serial, a tracker on the network) is no-glove until its first
	// sample, so the hand never says it streams what it has not heard.
	switch {
	case spec.Replays():
		h.status = StatusReplay
	case spec.Device != session.DeviceSim:
		h.status = StatusNoGlove
	}
	h.lossless = h.replay && spec.Speed == session.SpeedMax
	if d, err := spec.Driver(); err == nil {
		h.onLine = d.Serial || d.Listens != nil
	}
	h.touches = session.NewTouches(scene.Objects)
	return h
}

// attach gives the hand its opened session.
func (h *handRuntime) attach(s *session.Session) {
	if n := s.Pipeline.Hand().NumLinks(); n != h.touches.Links() {
		panic(fmt.Sprintf("daemon: a hand of %d links, %d expected", n, h.touches.Links()))
	}
	h.rate.restart(s.Info.Rate, h.onLine) // before the reader delivers this session's samples
	h.mu.Lock()
	h.sess = s
	if !h.wristSet {
		h.wrist = s.Wrist()
	}
	h.mu.Unlock()
}

// logReady says the hand's glove is open.
func (h *handRuntime) logReady(s *session.Session) {
	if s.Info.Assumed {
		h.log.Warn().Int("sensors", s.Info.Sensors).Bool("right", s.Info.Right).
			Msg("the glove answered no queries (?S ?G ?R): taking its sensors and side from the config")
	}
	h.log.Info().Str("device", h.spec.Device).Int("sensors", s.Info.Sensors).Bool("right", s.Info.Right).Msg("glove ready")
}

// session returns the hand's session, or nil while its glove is absent.
func (h *handRuntime) session() *session.Session {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.sess
}

// setWrist is the OSC wrist input.
func (h *handRuntime) setWrist(p mgl64.Vec3, q mgl64.Quat) {
	x, err := geom.FromQuat(q, geom.FromMgl(p))
	if err != nil {
		return
	}
	h.mu.Lock()
	h.wrist, h.wristSet = x, true
	h.mu.Unlock()
}

// setStatus sets the hand's status and reports whether it changed; a
// change is logged and published at once. A held status does not change.
func (h *handRuntime) setStatus(s string) bool { return h.changeStatus(s, false) }

// hold sets the status to s for good: what the reader sees no longer
// changes it.
func (h *handRuntime) hold(s string) { h.changeStatus(s, true) }

func (h *handRuntime) changeStatus(s string, hold bool) bool {
	h.mu.Lock()
	changed := h.status != s && (hold || !h.held)
	if changed {
		h.status = s
	}
	h.held = h.held || hold
	h.mu.Unlock()
	if changed {
		h.logStatus(time.Now(), true)
		select {
		case h.changed <- struct{}{}:
		default:
		}
	}
	return changed
}

// statusLineEvery is the least time between two status lines of a hand.
const statusLineEvery = time.Second

// logStatus logs the hand's status, as it is now, unless a status line
// was logged less than statusLineEvery ago: a change (change) is then
// held and counted, for the next line or statusDue.
func (h *handRuntime) logStatus(now time.Time, change bool) {
	h.mu.Lock()
	if !h.loggedAt.IsZero() && now.Sub(h.loggedAt) < statusLineEvery {
		if change {
			h.linesHeld++
		}
		h.mu.Unlock()
		return
	}
	status, held := h.status, h.linesHeld
	h.loggedAt, h.linesHeld = now, 0
	h.mu.Unlock()
	ev := h.log.Info().Str("status", status)
	if held > 0 {
		ev = ev.Int("status_lines_held", held)
	}
	ev.Msg("hand status")
}

// statusDue returns the hand's status and whether it must be sent now: it
// changed, or statusEvery has passed since it was last sent; if so it
// counts as sent at now. Else it says how long until it is due. The
// caller holds h.sending and sends a due status before letting it go.
func (h *handRuntime) statusDue(now time.Time) (string, bool, time.Duration) {
	h.mu.Lock()
	if wait := h.sentAt.Add(statusEvery).Sub(now); h.status == h.sentState && wait > 0 {
		status := h.status
		h.mu.Unlock()
		return status, false, wait
	}
	h.sentState, h.sentAt = h.status, now
	status := h.status
	settled := h.linesHeld > 0 && now.Sub(h.loggedAt) >= statusLineEvery
	h.mu.Unlock()
	if settled {
		h.logStatus(now, false) // the status it settled on, once the log allows
	}
	return status, true, statusEvery
}

// unsent takes back statusDue's last "sent": the frame that was to carry
// the status was not sent (it held a NaN), so the status is due again.
func (h *handRuntime) unsent() {
	h.mu.Lock()
	h.sentState, h.sentAt = "", time.Time{}
	h.mu.Unlock()
}

// take returns the newest unprocessed sample, the wrist and the status.
func (h *handRuntime) take(s *devices.Sample) (geom.Transform, string, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.fresh {
		return h.wrist, h.status, false
	}
	*s, h.fresh = h.latest, false
	select {
	case h.consumed <- struct{}{}:
	default:
	}
	return h.wrist, h.status, true
}

// build fills the OSC frame from the pipeline's results (the status is
// the send's).
func (h *handRuntime) build(seq int32, ms float64) {
	p := h.session().Pipeline
	f := &h.frame
	f.Seq, f.PipelineMS = seq, ms
	p.FillFrame(f)
	f.Touches = h.touches.Update(p, f.Touches[:0])
}

// device returns the hand's device, or nil while the glove is absent.
func (h *handRuntime) device() devices.Device {
	if s := h.session(); s != nil {
		return s.Device()
	}
	return nil
}
