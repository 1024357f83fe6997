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
	"github.com/gloved/gloved/devices/recording"
	"github.com/gloved/gloved/devices/sim"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/osc"
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
	dev    devices.Device
	rec    *recording.Recorder
	pipe   *Pipeline
	addr   *osc.Addresses
	replay bool
	Stats  HandStats

	mu       sync.Mutex
	latest   devices.Sample
	fresh    bool
	status   string
	wrist    geom.Transform
	wristSet bool // set by OSC input: overrides the recording's
	ready    chan struct{}
	changed  chan struct{} // the status changed: publish it now
	// lossless: the reader waits for each sample to be processed (replay
	// at full speed) instead of replacing it.
	lossless bool
	consumed chan struct{}
	done     chan struct{} // closed when the reader has stopped

	// Frame-loop state (frame goroutine only).
	frame     osc.Frame
	touching  [][2]int
	touch     osc.TouchTracker
	sentState string
	sentAt    time.Time
	linkNames []string
	objNames  []string
	writer    osc.Writer
	frameIdle atomic.Bool // the frame loop is waiting, not processing
}

func newHand(cfg HandConfig, log zerolog.Logger, pipe *Pipeline, dev devices.Device, rec *recording.Recorder, prefix string, wrist geom.Transform, replay bool) *handRuntime {
	h := &handRuntime{cfg: cfg, log: log, dev: dev, rec: rec, pipe: pipe, addr: osc.HandAddresses(prefix, cfg.Name),
		replay: replay, wrist: wrist, ready: make(chan struct{}, 1), changed: make(chan struct{}, 1), status: StatusStreaming,
		consumed: make(chan struct{}, 1), done: make(chan struct{})}
	if replay {
		h.status = StatusReplay
	}
	n := pipe.Hand.NumLinks()
	for l := range n {
		h.linkNames = append(h.linkNames, handmodel.Link(l).String())
	}
	h.objNames = pipe.Scene.Objects
	h.touch.Reset(n, len(h.objNames))
	h.frameIdle.Store(true)
	h.frame.Joints = make([]float64, handmodel.NumJoints)
	h.frame.Links = make([]osc.Pose, n)
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
		err := h.device().Read(&s)
		switch {
		case err == nil:
			if h.replay {
				h.setStatus(StatusReplay)
			} else {
				h.setStatus(StatusStreaming)
			}
			if h.rec != nil {
				if _, ok := h.device().(*sim.Glove); ok {
					if err := h.rec.WriteSample(&s); err != nil {
						h.log.Error().Err(err).Msg("recording stopped")
						h.rec = nil
					}
				}
			}
			if r, ok := h.device().(*recording.Replay); ok {
				if v, ok := r.Wrist(); ok {
					h.replayWrist(v)
				}
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

func (h *handRuntime) replayWrist(v [7]float64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.wristSet {
		return
	}
	if x, err := geom.FromQuat(mgl64.Quat{W: v[0], V: mgl64.Vec3{v[1], v[2], v[3]}}, mgl64.Vec3{v[4], v[5], v[6]}); err == nil {
		h.wrist = x
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
	p := h.pipe
	f := &h.frame
	f.Seq, f.PipelineMS = seq, ms
	for j := range f.Joints {
		f.Joints[j] = p.Angles[j]
	}
	for l, x := range p.Poses {
		f.Links[l] = osc.Pose{P: x.T, Q: mgl64.Mat4ToQuat(x.R.Mat4()).Normalize()}
	}
	f.Contacts, f.Near, f.Touches = f.Contacts[:0], f.Near[:0], f.Touches[:0]
	h.touching = h.touching[:0]
	for _, c := range p.Solver.Contacts {
		f.Contacts = append(f.Contacts, osc.Contact{Link: h.linkNames[c.Link], Object: h.objNames[c.Object], Depth: c.Depth, Point: c.Point, Normal: c.Normal})
		h.touching = append(h.touching, [2]int{c.Link, c.Object})
	}
	for _, n := range p.Solver.Near {
		f.Near = append(f.Near, osc.Near{Link: h.linkNames[n.Link], Object: h.objNames[n.Object], Distance: n.Distance, Point: n.Point})
	}
	f.Touches = h.touch.Update(h.touching, h.linkNames, h.objNames, f.Touches)
	f.Status = ""
	if status != h.sentState || now.Sub(h.sentAt) >= time.Second {
		f.Status, h.sentState, h.sentAt = status, status, now
	}
}

// device returns the hand's current device (a looping replay replaces it).
func (h *handRuntime) device() devices.Device {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.dev
}
