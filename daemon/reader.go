package daemon

import (
	"errors"
	"fmt"
	"runtime"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/session"
)

// Retry pacing while a glove is absent at start, or a looping replay's
// passes yield no sample, and how often an absent glove's reason is
// logged again.
const (
	openRetryMin = 100 * time.Millisecond
	openRetryMax = 2 * time.Second
	openLogEvery = 30 * time.Second
)

// serve is a hand's reader goroutine: it opens the glove, retrying while
// it is absent (status no-glove), then keeps the newest sample for the
// frame loop until stop is closed. A looping replay starts again at its
// end, in the file it opened; one whose passes yield no sample (the file
// emptied or overwritten where it was read) is stalled and tries again
// less and less often, never spinning. It returns ErrEnd when a replay
// has played to its end.
func (h *handRuntime) serve(stop <-chan struct{}) error {
	if s := h.session(); s != nil {
		h.logReady(s)
	} else if ok, err := h.open(stop); !ok {
		return err
	}
	wait := openRetryMin
	var damage string // the damage last logged: said once, not every pass
	for {
		n, err := h.read(stop)
		if !errors.Is(err, devices.ErrEnd) {
			return err
		}
		s := h.session()
		if w := s.Warning(); w != nil && w.Error() != damage {
			h.log.Warn().Err(w).Msg("the recording is damaged: played the samples before the damage")
			damage = w.Error()
		}
		if !h.cfg.Loop {
			h.log.Info().Msg("recording played to its end")
			h.setStatus(StatusEnded)
			return err
		}
		if n > 0 {
			wait = openRetryMin
		} else {
			if h.setStatus(StatusStalled) {
				h.Stats.Stalls.Add(1)
				h.log.Warn().Str("recording", h.spec.Recording).
					Msg("the looping recording played a pass without a sample (emptied or overwritten in place?): backing off to a try every 2 s; write it back, or reload (SIGHUP) to open the file its path names now")
			}
			select {
			case <-stop:
				return nil
			case <-time.After(wait):
			}
			wait = min(2*wait, openRetryMax)
		}
		if err := s.Rewind(); errors.Is(err, devices.ErrClosed) {
			return nil // the daemon is stopping
		} else if err != nil {
			return fmt.Errorf("hand %s: %w", h.cfg.Name, err)
		}
	}
}

// stopped is a hand whose reader ended on an error: the daemon and its
// other hands go on, this one reports no-glove and the log says why.
func (h *handRuntime) stopped(err error) {
	h.setStatus(StatusNoGlove)
	h.log.Error().Err(err).Msg("hand stopped; gloved and its other hands go on: fix what is named, then reload (SIGHUP) or restart gloved")
}

// open opens the hand's session, retrying with backoff while the glove
// does not open (a session.DeviceError), until it opens or stop is closed
// (false, nil). Each such failure counts as a device error; its reason is
// logged when it changes, and every openLogEvery. Any other failure (a
// calibration for another sensor count than the glove reports) is the
// config's and ends the hand (false and the error).
func (h *handRuntime) open(stop <-chan struct{}) (bool, error) {
	wait := openRetryMin
	var said string
	var saidAt time.Time
	for {
		s, err := session.Open(h.spec, h.scene, h.opt)
		if err == nil {
			h.attach(s)
			h.logReady(s)
			if h.onAttach != nil {
				h.onAttach()
			}
			return true, nil
		}
		if !errors.As(err, new(*session.DeviceError)) {
			return false, fmt.Errorf("hand %s: %w", h.cfg.Name, err)
		}
		h.Stats.DeviceErrors.Add(1)
		h.Stats.OpenFailures.Add(1)
		h.setStatus(StatusNoGlove)
		if err.Error() != said || time.Since(saidAt) >= openLogEvery {
			h.log.Warn().Err(err).Str("port", h.spec.Port).Msg("glove not available: is it plugged in and powered? retrying")
			said, saidAt = err.Error(), time.Now()
		}
		select {
		case <-stop:
			return false, nil
		case <-time.After(wait):
		}
		wait = min(2*wait, openRetryMax)
	}
}

// startupLossless is how many samples of a hand's start are handed to
// the frame loop one by one, none replaced: those a glove streamed while
// the daemon prepared the hand and started come in a burst, which the
// first frames, slower than the rest, dropped 7 to 11 of. Past them, a sample the frame loop has not taken when the next
// comes is dropped, so that frames stay on the newest.
const startupLossless = 32

// read runs until stop is closed, or the device ends: each sample
// replaces the previous unprocessed one and wakes the frame loop. It
// returns how many samples it delivered.
func (h *handRuntime) read(stop <-chan struct{}) (int, error) {
	n := 0
	sess := h.session()
	var s devices.Sample
	lastSample := time.Now()
	refusedSaid := false
	for {
		select {
		case <-stop:
			return n, nil
		default:
		}
		err := sess.Read(&s)
		if rerr := sess.RecordingFailed(); rerr != nil {
			h.Stats.RecordingFailures.Add(1)
			h.log.Error().Err(rerr).Msg("recording stopped; the contacts go on")
		}
		if jump := sess.Jump(); jump != nil {
			h.log.Warn().Err(jump).Msg("played on through a jump in the recording's clock")
		}
		if bad, _ := sess.BadWrist(); bad != nil {
			h.log.Warn().Err(bad).Msg("skipped a damaged wrist pose in the recording, and skips any later one: the wrist stays as it was")
		}
		if err == nil {
			lastSample, refusedSaid = time.Now(), false
			if !h.deliver(&s, sess, stop, n < startupLossless) {
				return n, nil
			}
			n++
			continue
		}
		switch {
		case errors.Is(err, devices.ErrClosed):
			return n, nil
		case errors.Is(err, devices.ErrEnd):
			return n, err
		case errors.Is(err, devices.ErrNoGlove):
			h.setStatus(StatusNoGlove)
			h.rate.reset()
		case errors.Is(err, devices.ErrDisconnected):
			h.setStatus(StatusReconnecting)
			h.rate.reset()
		case errors.Is(err, devices.ErrRefused):
			// Not silent: what arrives is refused, and counted; said once
			// until a sample is taken again.
			h.setStatus(StatusDegraded)
			h.rate.reset()
			if !refusedSaid {
				// Once until a sample is taken, and once a minute at most
				// for a glove whose records are refused and taken in turn.
				if ok, held := h.refusedSaid.Allow("refused", time.Now()); ok {
					ev := h.log.Warn().Err(err)
					if held > 0 {
						ev = ev.Int("times_not_logged", held)
					}
					ev.Msg("the glove sends, but every record is refused: the hand is degraded until one is taken")
				}
				refusedSaid = true
			}
		case errors.Is(err, devices.ErrTimeout):
			if time.Since(lastSample) >= h.stallAfter {
				if h.setStatus(StatusStalled) {
					h.Stats.Stalls.Add(1)
				}
				h.rate.reset() // the stall says why samples are missing
			} else if h.rate.silent(time.Now()) {
				h.setStatus(StatusDegraded)
			}
		case !devices.Transient(err):
			return n, fmt.Errorf("hand %s: %w", h.cfg.Name, err)
		}
		h.Stats.DeviceErrors.Add(1)
	}
}

// deliver hands a sample to the frame loop: it replaces an unprocessed one
// or, lossless (the hand's, or the caller's for this sample: one of the
// first startupLossless), waits for the frame loop to take it. False if
// stop closed while waiting.
func (h *handRuntime) deliver(s *devices.Sample, sess *session.Session, stop <-chan struct{}, lossless bool) bool {
	switch {
	case h.failing.Load():
		h.setStatus(StatusDegraded) // its frames fail: none goes out
	case h.replay:
		h.setStatus(StatusReplay)
	case h.rate.sample(time.Now()):
		h.setStatus(StatusDegraded)
	default:
		h.setStatus(StatusStreaming)
	}
	for h.lossless || lossless {
		// Wait until the frame loop has taken the previous sample; a
		// token left from an earlier take is stale, so look again after
		// each one.
		h.mu.Lock()
		waiting := h.fresh
		h.mu.Unlock()
		if !waiting {
			break
		}
		select {
		case <-h.consumed:
		case <-stop:
			return false
		}
	}
	h.mu.Lock()
	if h.fresh {
		h.Stats.Dropped.Add(1)
	}
	h.latest, h.fresh = *s, true
	if !h.wristSet {
		h.wrist = sess.Wrist()
	}
	h.mu.Unlock()
	select {
	case h.ready <- struct{}{}:
	default:
	}
	// The send made the frame goroutine this thread's next to run; yield
	// so that it runs here now. Else this goroutine goes straight back
	// into its blocking read, and the frame waits for another thread to
	// be woken and steal it: 35 us at the median, 0.2 ms at p99 and up to
	// 2 ms on a 2-core machine (gloved bench latency).
	runtime.Gosched()
	return true
}
