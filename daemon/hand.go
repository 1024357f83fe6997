package daemon

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/rs/zerolog"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/session"
)

// Hand states reported on <prefix>/<hand>/status.
const (
	StatusStreaming    = "streaming"
	StatusNoGlove      = "no-glove"
	StatusReconnecting = "reconnecting"
	StatusReplay       = "replay"
)

// HandStats counts one hand's frames and faults.
type HandStats struct {
	Frames, Dropped, Overruns, Contacts, DeviceErrors atomic.Uint64
	// Touching is the last frame's number of contacts.
	Touching atomic.Int32
}

// handRuntime runs one glove: a reader goroutine keeps the newest sample,
// the frame goroutine processes it (older unprocessed samples are dropped,
// never queued).
type handRuntime struct {
	cfg    HandConfig
	log    zerolog.Logger
	sess   *session.Session
	addr   *osc.Addresses
	replay bool
	Stats  HandStats

	mu       sync.Mutex
	latest   devices.Sample
	fresh    bool
	status   string
	wrist    geom.Transform
	wristSet bool // set by OSC input: overrides the spec's and the recording's
	ready    chan struct{}
	changed  chan struct{} // the status changed: publish it now
	// lossless: the reader waits for each sample to be processed (replay
	// at full speed) instead of replacing it.
	lossless bool
	consumed chan struct{}
	done     chan struct{} // closed when the reader has stopped

	// Frame-loop state (frame goroutine only).
	frame          osc.Frame
	touching       [][2]int
	touch          osc.TouchTracker
	sentState      string
	sentAt         time.Time
	linkNames      []string
	objNames       []string
	writer         osc.Writer
	frameIdle      atomic.Bool // the frame loop is waiting, not processing
	lastOverrunLog time.Time
}

func newHand(cfg HandConfig, log zerolog.Logger, sess *session.Session, prefix string) *handRuntime {
	h := &handRuntime{cfg: cfg, log: log, sess: sess, addr: osc.HandAddresses(prefix, cfg.Name),
		replay: sess.Replay() != nil, wrist: sess.Wrist(), ready: make(chan struct{}, 1), changed: make(chan struct{}, 1), status: StatusStreaming,
		consumed: make(chan struct{}, 1), done: make(chan struct{})}
	if h.replay {
		h.status = StatusReplay
	}
	n := sess.Pipeline.Hand().NumLinks()
	for l := range n {
		h.linkNames = append(h.linkNames, handmodel.Link(l).String())
	}
	h.objNames = sess.Pipeline.Scene().Objects
	h.touch.Reset(n, len(h.objNames))
	h.frameIdle.Store(true)
	return h
}

// setWrist is the OSC wrist input.
func (h *handRuntime) setWrist(p mgl64.Vec3, q mgl64.Quat) {
	x, err := geom.FromQuat(q, p)
	if err != nil {
		return
	}
	h.mu.Lock()
	h.wrist, h.wristSet = x, true
	h.mu.Unlock()
}

func (h *handRuntime) setStatus(s string) {
	h.mu.Lock()
	changed := h.status != s
	h.status = s
	h.mu.Unlock()
	if changed {
		h.log.Info().Str("status", s).Msg("hand status")
		select {
		case h.changed <- struct{}{}:
		default:
		}
	}
}

// read runs until stop is closed: each sample replaces the previous
// unprocessed one and wakes the frame loop.
func (h *handRuntime) read(stop <-chan struct{}) error {
	var s devices.Sample
	for {
		select {
		case <-stop:
			return nil
		default:
		}
		err := h.sess.Read(&s)
		if rerr := h.sess.RecordingFailed(); rerr != nil {
			h.log.Error().Err(rerr).Msg("recording stopped")
		}
		switch {
		case err == nil:
			if h.replay {
				h.setStatus(StatusReplay)
			} else {
				h.setStatus(StatusStreaming)
			}
			for h.lossless {
				// Wait until the frame loop has taken the previous
				// sample; a token left from an earlier take is stale,
				// so look again after each one.
				h.mu.Lock()
				waiting := h.fresh
				h.mu.Unlock()
				if !waiting {
					break
				}
				select {
				case <-h.consumed:
				case <-stop:
					return nil
				}
			}
			h.mu.Lock()
			if h.fresh {
				h.Stats.Dropped.Add(1)
			}
			h.latest, h.fresh = s, true
			if !h.wristSet {
				h.wrist = h.sess.Wrist()
			}
			h.mu.Unlock()
			select {
			case h.ready <- struct{}{}:
			default:
			}
		case errors.Is(err, devices.ErrClosed):
			return nil
		case errors.Is(err, devices.ErrEnd):
			return err
		case errors.Is(err, devices.ErrNoGlove):
			h.Stats.DeviceErrors.Add(1)
			h.setStatus(StatusNoGlove)
		case errors.Is(err, devices.ErrDisconnected):
			h.Stats.DeviceErrors.Add(1)
			h.setStatus(StatusReconnecting)
		case devices.Transient(err):
			h.Stats.DeviceErrors.Add(1)
		default:
			return fmt.Errorf("hand %s: %w", h.cfg.Name, err)
		}
	}
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

// build fills the OSC frame from the pipeline's results.
func (h *handRuntime) build(seq int32, ms float64, status string, now time.Time) {
	p := h.sess.Pipeline
	f := &h.frame
	f.Seq, f.PipelineMS = seq, ms
	p.FillFrame(f)
	h.touching = h.touching[:0]
	for _, c := range p.Contacts() {
		h.touching = append(h.touching, [2]int{c.Link, c.Object})
	}
	f.Touches = h.touch.Update(h.touching, h.linkNames, h.objNames, f.Touches[:0])
	f.Status = ""
	if status != h.sentState || now.Sub(h.sentAt) >= time.Second {
		f.Status, h.sentState, h.sentAt = status, status, now
	}
}

// device returns the hand's current device (a looping replay replaces it).
func (h *handRuntime) device() devices.Device { return h.sess.Device() }
