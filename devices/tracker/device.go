package tracker

import (
	"net/netip"
	"sync"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/handmodel"
)

// readTimeout is how long a Read waits for a pose before it says the
// tracker is silent (devices.ErrTimeout): the daemon marks the hand
// stalled once it has been silent for frame.stall_ms. A tracker that has
// sent no pose for readTimeout has lost the tracking: the hold starts
// then, and not at each pose (a hold shorter than the tracker's gap
// between poses would open the hand between every two).
const readTimeout = 100 * time.Millisecond

// maxPoseRate bounds the poses a second a tracker hand takes: a tracker
// sends 60 to 90, and one sending faster (or a flood on loopback) is
// coalesced to its newest pose every minPoseGap, so that it cannot make
// the daemon pose, test and send a hand thousands of times a second and
// starve the other hands.
const maxPoseRate = 200

// minPoseGap is the least time between two samples a Read returns.
const minPoseGap = time.Second / maxPoseRate

// decoder reads one kind of tracker's messages into joint angles.
type decoder interface {
	handler
	// begin starts a datagram's messages, the rejected ones counted in
	// f; end ends a well-formed one and reports whether it posed the
	// hand; pose gives the joint angles of the last that did, from q's
	// (the previous sample's). The angles are solved in pose, not end:
	// of a flood of poses only the one a Read returns is solved.
	begin(f *devices.Faults)
	end() (posed bool)
	pose(q *handmodel.Angles)
	// lost reports whether the last datagram said the hand is not
	// tracked (VMC's OK with tracking 0, OpenXR's active 0).
	lost() bool
}

// Glove is a hand tracker as a glove: a devices.Device whose samples are
// the joint angles of the poses the tracker sends. Before the first pose
// a Read says there is no glove (devices.ErrNoGlove); once the tracker
// falls silent, that it timed out (devices.ErrTimeout, stalled), and
// while it sends only datagrams whose messages are refused, that
// (devices.ErrRefused, degraded). When
// the tracking is lost, the tracker silent for readTimeout or saying so,
// the hand holds its last pose for hold from that moment, then opens: one
// sample of the flat hand (a hold < 0 holds it for good).
type Glove struct {
	info  devices.GloveInfo
	allow []netip.Prefix
	hold  time.Duration
	dec   decoder
	box   *inbox
	sock  *socket
	start time.Time
	timer *time.Timer
	done  chan struct{}
	once  sync.Once

	q        handmodel.Angles
	seq      uint64
	seen     bool      // a pose has come
	tracking bool      // and the tracker has not said it lost the hand since
	poseAt   time.Time // when the last pose came
	sampleAt time.Time // when Read last returned a sample
	saidAt   time.Time // when the tracker said it lost the hand (tracking false)
	open     bool      // the hand has opened since
	log      devices.FaultLog
}

var (
	_ devices.Device       = (*Glove)(nil)
	_ devices.Info         = (*Glove)(nil)
	_ devices.Clock        = (*Glove)(nil)
	_ devices.FaultCounter = (*Glove)(nil)
)

// newGlove listens at addr for the decoder's messages.
func newGlove(addr netip.AddrPort, allow []netip.Prefix, hold time.Duration, dec decoder, info devices.GloveInfo) (*Glove, error) {
	g := &Glove{info: info, allow: allow, hold: hold, dec: dec, box: newInbox(), start: time.Now(), done: make(chan struct{})}
	s, err := join(addr, g.box)
	if err != nil {
		return nil, err
	}
	g.sock = s
	g.timer = time.NewTimer(readTimeout)
	return g, nil
}

// GloveInfo describes the tracker.
func (g *Glove) GloveInfo() devices.GloveInfo { return g.info }

// Epoch returns when Sample.Time was zero.
func (g *Glove) Epoch() time.Time { return g.start }

// Faults returns the counts of datagrams and messages dropped.
func (g *Glove) Faults() devices.Faults { return g.log.Load() }

// Read blocks until the tracker sends a pose and fills s with its joint
// angles; it waits readTimeout at most (datagrams that pose nothing do
// not prolong it), or until the hold is over and the hand opens. No
// sample comes sooner than minPoseGap after the last: a pose that comes
// sooner waits for it, and a newer pose meanwhile takes its place.
func (g *Glove) Read(s *devices.Sample) error {
	defer g.log.Publish()
	deadline := time.Now().Add(readTimeout)
	due := g.sampleAt.Add(minPoseGap)
	pending := false // a pose has come that is not yet returned
	refused := false // a datagram has come whose messages were refused
	for {
		now := time.Now()
		opens := g.opensAt()
		switch {
		case pending && !now.Before(due):
			// due is within minPoseGap of this Read's start, well
			// before its deadline.
			g.open = false
			g.dec.pose(&g.q)
			g.fill(s)
			return nil
		case !pending && !opens.IsZero() && !now.Before(opens) && !now.Before(due):
			// The tracking is lost and the hold is over: the hand opens.
			g.open = true
			g.q = handmodel.Angles{}
			g.fill(s)
			return nil
		case !pending && !now.Before(deadline):
			g.log.Counts.Timeouts++
			switch {
			case refused:
				return &devices.RefusedError{Why: "poses that do not parse or whose values are out of range (check the tracker's units, coordinates and joint names)"}
			case !g.seen:
				return devices.ErrNoGlove
			}
			return devices.ErrTimeout
		}
		wait := deadline.Sub(now)
		if pending {
			wait = due.Sub(now)
		} else if !opens.IsZero() {
			if opens.Before(due) {
				opens = due
			}
			wait = min(wait, opens.Sub(now))
		}
		g.timer.Reset(max(0, wait))
		select {
		case <-g.done:
			g.timer.Stop()
			return devices.ErrClosed
		case d := <-g.box.in:
			g.timer.Stop()
			posed, bad := g.take(&d)
			pending = pending || posed
			refused = refused || bad
			g.box.free <- d
		case <-g.timer.C:
		}
	}
}

// opensAt is when the hand opens: hold after the tracking was lost (the
// tracker said so, or readTimeout after its last pose); zero if it does
// not (no pose yet, open already, or held for good).
func (g *Glove) opensAt() time.Time {
	if !g.seen || g.open || g.hold < 0 {
		return time.Time{}
	}
	lost := g.poseAt.Add(readTimeout)
	if !g.tracking {
		lost = g.saidAt
	}
	return lost.Add(g.hold)
}

// take reads one datagram: a source neither loopback nor allowed is
// dropped and counted, a malformed datagram counted and ignored as a
// whole. It reports whether the datagram posed the hand, and whether,
// from a trusted source, it posed nothing because its messages were
// refused (malformed, or a joint out of range).
func (g *Glove) take(d *datagram) (posed, refused bool) {
	if !trusted(d.src.Addr(), g.allow) {
		g.log.Counts.Denied++
		return false, false
	}
	bad := g.log.Counts.BadFrames
	g.dec.begin(&g.log.Counts)
	if !walk(d.buf[:d.n], 0, g.dec) {
		g.log.Counts.BadFrames++
		return false, true
	}
	posed = g.dec.end()
	if g.dec.lost() {
		// The hold counts from the moment the tracker said so.
		if g.tracking {
			g.tracking, g.saidAt = false, time.Now()
		}
		return false, false
	}
	if posed {
		g.seen, g.tracking, g.poseAt = true, true, time.Now()
	}
	return posed, !posed && g.log.Counts.BadFrames > bad
}

// fill writes the hand's angles into s, the sample returned now.
func (g *Glove) fill(s *devices.Sample) {
	g.sampleAt = time.Now()
	*s = devices.Sample{Time: time.Since(g.start), Seq: g.seq, Bits: devices.Bits8, NAngles: int(handmodel.NumJoints)}
	copy(s.Angles[:], g.q[:])
	g.seq++
}

// Close stops listening; a Read in progress returns devices.ErrClosed.
func (g *Glove) Close() error {
	g.once.Do(func() {
		close(g.done)
		g.sock.leave(g.box)
	})
	return nil
}

// trusted reports whether a datagram from a may drive a hand: loopback,
// or in osc.allow.
func trusted(a netip.Addr, allow []netip.Prefix) bool {
	a = a.Unmap()
	if a.IsLoopback() {
		return true
	}
	for _, p := range allow {
		if p.Contains(a.WithZone("")) {
			return true
		}
	}
	return false
}
