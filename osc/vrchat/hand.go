package vrchat

import (
	"math"
	"time"

	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/osc"
)

// Defaults and limits of the options.
const (
	DefaultRate     = 10.0 // ticks a second: VRChat's parameter sync rate
	MaxRate         = 50.0
	DefaultApproach = 0.5 // m/s: velocity 1
	// Refresh is how often every parameter is sent, changed or not.
	Refresh = time.Second
	// quantum is the smallest change of a float parameter sent: VRChat
	// syncs floats as multiples of 1/127.
	quantum = 1.0 / 127
	// DefaultPort is where VRChat takes OSC.
	DefaultPort = 9000
)

// Options tune the profile.
type Options struct {
	Names Names
	// Rate is the most ticks a second (0: DefaultRate).
	Rate float64
	// Band is the near band (m), frame.proximity_m: proximity is 0 at
	// its edge.
	Band float64
	// Approach is the closing speed (m/s) that reads as velocity 1 (0:
	// DefaultApproach).
	Approach float64
}

// The parameters of a hand, in the order a tick sends them: per finger
// curl, proximity, velocity and touch, then pinch for index to little,
// then fist.
const (
	perFinger = 4
	numParams = 5*perFinger + 4 + 1
	pinch0    = 5 * perFinger
	fistParam = numParams - 1
)

// param is one avatar parameter: its address ("" when it is off), and
// the value last sent.
type param struct {
	addr   string
	isBool bool
	sent   float64
	ever   bool
}

// Hand turns one hand's frames into avatar parameters. It is built once
// per hand and used by the hand's frame loop alone.
type Hand struct {
	o      Options
	period time.Duration
	params [numParams]param
	curls  handmodel.Curls

	// State between ticks. Pinch and fist are the events' (selfcontact's
	// hysteresis) and are taken even from a frame not sent, so an end is
	// never lost; touch is read from each frame's contacts.
	pinching [4]bool // index to little
	fist     bool
	held     [numParams]bool // a bool parameter was true at a frame since the last tick
	peak     [5]float64      // proximity since the last tick
	dist     [5]float64      // this frame's nearest surface, -depth when touching; +Inf beyond the band

	ticked   bool
	lastTick time.Time
	lastFull time.Time
	tickDist [5]float64 // the nearest surface at the last tick, clamped to the band
	sample   uint64
	framed   bool
}

// NewHand returns the profile's encoder for hand, named name in the
// config.
func NewHand(hand *handmodel.Hand, name string, o Options) *Hand {
	if o.Rate <= 0 {
		o.Rate = DefaultRate
	}
	if o.Approach <= 0 {
		o.Approach = DefaultApproach
	}
	e := &Hand{o: o, period: time.Duration(float64(time.Second) / o.Rate)}
	set := func(i int, template, finger string, isBool bool) {
		if template != "" {
			e.params[i] = param{addr: Prefix + expand(template, name, finger), isBool: isBool}
		}
	}
	for f, finger := range Fingers {
		set(f*perFinger, o.Names.Curl, finger, false)
		set(f*perFinger+1, o.Names.Proximity, finger, false)
		set(f*perFinger+2, o.Names.Velocity, finger, false)
		set(f*perFinger+3, o.Names.Touch, finger, true)
		if f > 0 {
			set(pinch0+f-1, o.Names.Pinch, finger, true)
		}
	}
	set(fistParam, o.Names.Fist, "", true)
	e.curls = handmodel.NewCurls(&hand.Limits)
	e.restart()
	return e
}

// restart forgets what was sent, the gestures and the distances: a new
// stream, whose events start again.
func (e *Hand) restart() {
	e.ticked = false
	for i := range e.params {
		e.params[i].ever = false
	}
	for f := range e.tickDist {
		e.tickDist[f] = math.NaN()
	}
	clear(e.pinching[:])
	e.fist = false
	clear(e.held[:])
	clear(e.peak[:])
}

// finger returns the finger of a link named name (thumb1 ... little3): 0
// for the thumb to 4 for the little finger, -1 for the palm.
func finger(name string) int {
	if name == "" {
		return -1
	}
	switch name[0] {
	case 't':
		return 0
	case 'i':
		return 1
	case 'm':
		return 2
	case 'r':
		return 3
	case 'l':
		return 4
	}
	return -1
}

// Frame takes f, the hand's frame at time at, and encodes with w the
// parameters due: none between ticks, those that changed at a tick, all
// of them once a second. The messages are bare (w.BeginMessages). A frame
// that is not finite (osc.Frame.Finite) sends nothing and is otherwise
// passed over, but for its pinch and fist events: a gesture that ends in
// it ends. A frame whose sample does not follow the last one's starts a
// new stream (a looping replay's next pass), from no gesture. Once its
// buffers have grown it allocates nothing.
func (e *Hand) Frame(w *osc.Writer, f *osc.Frame, at time.Time) {
	w.BeginMessages()
	if e.framed && f.Sample <= e.sample || e.ticked && at.Before(e.lastTick) {
		e.restart()
	}
	e.sample, e.framed = f.Sample, true
	e.gestures(f)
	if !f.Finite() {
		return
	}
	e.take(f)
	if e.ticked && at.Sub(e.lastTick) < e.period {
		return
	}
	full := !e.ticked || at.Sub(e.lastFull) >= Refresh
	dt := at.Sub(e.lastTick).Seconds()
	e.lastTick, e.ticked = at, true
	if full {
		e.lastFull = at
	}
	for i := range e.params {
		p := &e.params[i]
		v := e.value(i, f, dt)
		if p.addr == "" {
			continue
		}
		if p.ever && !full && (p.isBool && v == p.sent || !p.isBool && math.Abs(v-p.sent) < quantum) {
			continue
		}
		w.Message(p.addr)
		if p.isBool {
			w.Bool(v != 0)
		} else {
			w.Float(v)
		}
		w.End()
		p.sent, p.ever = v, true
	}
	clear(e.peak[:])
	clear(e.held[:])
}

// gestures takes f's pinch and fist events: a gesture that began at a
// frame since the last tick is held for it.
func (e *Hand) gestures(f *osc.Frame) {
	for _, p := range f.Pinches {
		if k := finger(p.Finger); k > 0 {
			e.pinching[k-1] = p.Begin
			e.held[pinch0+k-1] = e.held[pinch0+k-1] || p.Begin
		}
	}
	for _, x := range f.Fists {
		e.fist = x.Begin
		e.held[fistParam] = e.held[fistParam] || x.Begin
	}
}

// take updates the state from f's contacts and the gestures.
func (e *Hand) take(f *osc.Frame) {
	var touching [5]bool
	for k := range e.dist {
		e.dist[k] = math.Inf(1)
	}
	// A non-finite entry is one the gloved profile leaves out too.
	near := func(link string, d float64, touch bool) {
		if k := finger(link); k >= 0 && d-d == 0 {
			e.dist[k] = min(e.dist[k], d)
			touching[k] = touching[k] || touch
		}
	}
	for i := range f.Contacts {
		near(f.Contacts[i].Link, -f.Contacts[i].Depth, true)
	}
	for i := range f.Near {
		near(f.Near[i].Link, f.Near[i].Distance, false)
	}
	for i := range f.Hands {
		near(f.Hands[i].Link, -f.Hands[i].Depth, true)
	}
	for i := range f.HandNear {
		near(f.HandNear[i].Link, f.HandNear[i].Distance, false)
	}
	for k := range e.dist {
		e.peak[k] = max(e.peak[k], e.proximity(e.dist[k]))
		touch := k*perFinger + 3
		e.held[touch] = e.held[touch] || touching[k]
	}
	for k, on := range e.pinching {
		e.held[pinch0+k] = e.held[pinch0+k] || on
	}
	e.held[fistParam] = e.held[fistParam] || e.fist
}

// proximity is 1 touching (d <= 0), falling to 0 at the band's edge.
func (e *Hand) proximity(d float64) float64 {
	switch {
	case d <= 0:
		return 1
	case d >= e.o.Band:
		return 0
	}
	return 1 - d/e.o.Band
}

// value is parameter i's value at a tick, dt seconds after the last one
// (a bool's as 0 or 1: whether it was true at a frame since).
func (e *Hand) value(i int, f *osc.Frame, dt float64) float64 {
	k := i / perFinger
	switch {
	case i >= pinch0 || i%perFinger == 3:
		return b2f(e.held[i])
	case i%perFinger == 0:
		return e.curls.Curl(k, f.Joints)
	case i%perFinger == 1:
		return e.peak[k]
	}
	// Velocity: how fast the nearest surface came closer since the last
	// tick, as a share of the approach speed; beyond the band it is at
	// the band's edge.
	d := min(e.dist[k], e.o.Band)
	prev := e.tickDist[k]
	e.tickDist[k] = d
	if math.IsNaN(prev) || !(dt > 0) {
		return 0
	}
	return max(-1, min(1, (prev-d)/dt/e.o.Approach))
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
