package feedback

import (
	"fmt"
	"math"
	"time"

	"github.com/gloved/gloved/contact"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
)

// Fingers is how many fingers a hand has feedback for: thumb, index,
// middle, ring, little.
const Fingers = 5

// EndFrames is how many frames without a contact release a finger: the
// touch messages' hysteresis (osc.TouchTracker).
const EndFrames = 3

// Deadband is how far past its limit (in curl, 0 open to 1 closed) a
// held finger must read before the limit follows it closed: 0.02, twenty
// servo steps. Within it, a finger held at its limit but read a hair
// beyond (sensor noise, the servo's stop, the calibration's rounding)
// leaves the limit where it is; without it the hold crept shut about a
// step a frame on the emulator (604 to 574 in 30 frames).
const Deadband = 0.02

// Defaults of Options.
const (
	DefaultRate     = 100.0                  // lines a second
	DefaultRefresh  = time.Second            // an unchanged state is sent again
	DefaultApproach = 0.5                    // m/s: a full pulse (the vrchat profile's approach_mps)
	DefaultPulseHz  = 160.0                  // Hz: the vibration's frequency
	DefaultPulse    = 40 * time.Millisecond  // the pulse's duration
	MaxRate         = 1000.0                 // the most lines a second Options.Rate may ask
	MaxPulse        = 2 * time.Second        // the longest pulse
	minRefresh      = 100 * time.Millisecond // the shortest refresh
)

// Options tune a hand's feedback; a zero field is its default.
type Options struct {
	// Rate is the most lines a second to the glove. The glove reads one
	// line after each of its own, so a daemon sends at most one a frame
	// too.
	Rate float64
	// Refresh is how often an unchanged state is sent again, so that a
	// glove that restarted or lost a line is set right.
	Refresh time.Duration
	// Approach is the approach speed (m/s) of a pulse of amplitude 1.
	Approach float64
	// PulseHz and Pulse are a pulse's frequency and duration.
	PulseHz float64
	Pulse   time.Duration
}

// Check reports an option out of range; zero fields are the defaults.
func (o Options) Check() error {
	switch {
	case !(o.Rate >= 0 && o.Rate <= MaxRate):
		return fmt.Errorf("feedback: rate %v lines a second: want 1 to %v", o.Rate, MaxRate)
	case o.Refresh != 0 && o.Refresh < minRefresh:
		return fmt.Errorf("feedback: refresh %v: want %v or more", o.Refresh, minRefresh)
	case !(o.Approach >= 0 && o.Approach <= 10):
		return fmt.Errorf("feedback: approach speed %v m/s: want above 0 and at most 10", o.Approach)
	case !(o.PulseHz >= 0 && o.PulseHz <= 1000):
		return fmt.Errorf("feedback: pulse frequency %v Hz: want above 0 and at most 1000", o.PulseHz)
	case o.Pulse < 0 || o.Pulse > MaxPulse:
		return fmt.Errorf("feedback: pulse duration %v: want above 0 and at most %v", o.Pulse, MaxPulse)
	}
	return nil
}

func (o *Options) defaults() {
	if o.Rate == 0 {
		o.Rate = DefaultRate
	}
	if o.Refresh == 0 {
		o.Refresh = DefaultRefresh
	}
	if o.Approach == 0 {
		o.Approach = DefaultApproach
	}
	if o.PulseHz == 0 {
		o.PulseHz = DefaultPulseHz
	}
	if o.Pulse == 0 {
		o.Pulse = DefaultPulse
	}
}

// State is a hand's feedback at a frame.
type State struct {
	// Force is each finger's force, 0 free to 1 unable to curl at all:
	// 1 - the curl it is stopped at, while held.
	Force [Fingers]float64
	// Held says which fingers are stopped.
	Held [Fingers]bool
	// Pulse is the amplitude (0 to 1) of a pulse that began at this
	// frame, 0 for none.
	Pulse float64
}

// Hand is one hand's feedback state machine, fed each frame by the
// hand's frame loop alone.
type Hand struct {
	o      Options
	curls  handmodel.Curls
	finger [handmodel.MaxLinks]int8 // a link's finger, -1 for the palm and forearm

	state State
	limit [Fingers]float64 // the curl a held finger is stopped at
	miss  [Fingers]int     // frames since a held finger's last contact

	prev   [handmodel.MaxLinks]geom.Transform // the last frame's link poses
	prevT  time.Duration
	framed bool

	// What the glove was last sent, and when; a pulse not yet sent.
	sent     [Fingers]uint16
	sentAt   time.Duration
	sentEver bool
	pending  float64
}

// NewHand returns the feedback of a hand whose joints have limits.
func NewHand(limits *[handmodel.NumJoints]handmodel.Limit, o Options) (*Hand, error) {
	if err := o.Check(); err != nil {
		return nil, err
	}
	o.defaults()
	h := &Hand{o: o, curls: handmodel.NewCurls(limits)}
	for l := range h.finger {
		h.finger[l] = -1
		if l >= int(handmodel.ThumbMetacarpal) && l <= int(handmodel.LittleDistal) {
			// Thumb1..3, then three links a finger.
			h.finger[l] = int8((l - int(handmodel.ThumbMetacarpal)) / 3)
		}
	}
	return h, nil
}

// Options returns the options in force, defaults filled in.
func (h *Hand) Options() Options { return h.o }

// State returns the last frame's state.
func (h *Hand) State() *State { return &h.state }

// Reset forgets the holds and the last frame, as for a new stream (a
// replay's next pass, a glove reopened); the glove is sent the state
// again.
func (h *Hand) Reset() {
	h.state, h.limit, h.miss = State{}, [Fingers]float64{}, [Fingers]int{}
	h.framed, h.sentEver, h.pending = false, false, 0
}

// Frame takes a frame at time t (the sample's): the hand's joint angles,
// its link poses and its contacts with the scene.
func (h *Hand) Frame(t time.Duration, q *handmodel.Angles, poses []geom.Transform, contacts []contact.Contact) {
	var touching [Fingers]bool
	var speed [Fingers]float64
	dt := (t - h.prevT).Seconds()
	moved := h.framed && dt > 0 && len(poses) <= len(h.prev)
	for i := range contacts {
		c := &contacts[i]
		if c.Link < 0 || c.Link >= len(h.finger) || c.Link >= len(poses) || h.finger[c.Link] < 0 {
			continue
		}
		f := h.finger[c.Link]
		touching[f] = true
		if moved {
			speed[f] = max(speed[f], h.approach(c, poses, dt))
		}
	}
	h.state.Pulse = 0
	for f := range Fingers {
		curl := h.curls.Curl(f, q[:])
		switch {
		case touching[f] && !h.state.Held[f]:
			h.state.Held[f], h.limit[f] = true, curl
			h.state.Pulse = max(h.state.Pulse, min(1, speed[f]/h.o.Approach))
		case h.state.Held[f] && !touching[f]:
			if h.miss[f]++; h.miss[f] >= EndFrames {
				h.state.Held[f] = false
			}
		}
		if touching[f] {
			h.miss[f] = 0
		}
		h.state.Force[f] = 0
		if h.state.Held[f] {
			// Never more open than the finger: a limit only stops it. A
			// finger read a hair past its limit (its sensor's noise, the
			// servo's own stop) moves it not: that would ratchet the
			// hold shut a step a frame.
			if curl > h.limit[f]+Deadband {
				h.limit[f] = curl
			}
			h.state.Force[f] = 1 - h.limit[f]
		}
	}
	h.pending = max(h.pending, h.state.Pulse)
	copy(h.prev[:], poses)
	h.prevT, h.framed = t, true
}

// approach is the speed (m/s) at which contact c's link closed on the
// object since the last frame: the displacement, along the contact's
// normal into the object, of the link's point now at the contact.
func (h *Hand) approach(c *contact.Contact, poses []geom.Transform, dt float64) float64 {
	local := poses[c.Link].Inverse().Apply(c.Point)
	was := h.prev[c.Link].Apply(local)
	v := was.Sub(c.Point).Dot(c.Normal) / dt // the normal points out of the object
	if !(v > 0) || math.IsInf(v, 0) {
		return 0
	}
	return v
}
