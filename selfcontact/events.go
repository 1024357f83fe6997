package selfcontact

import "github.com/gloved/gloved/handmodel"

// EventKind says what an event is about.
type EventKind int

// The events.
const (
	PinchEvent EventKind = iota // a finger against the thumb
	FistEvent                   // all four fingertips against the palm
)

// Event is a pinch or a fist beginning or ending.
type Event struct {
	Kind EventKind
	// Finger is the pinching finger's distal link (index3 .. little3);
	// the palm for a fist.
	Finger handmodel.Link
	Begin  bool
	// Distance is the thumb's distal phalanx from the finger's two outer
	// phalanges (a tip or a key pinch), or for a fist the largest fingertip
	// distance from the palm (m).
	Distance float64
}

// FingerTips are the distal links of the four fingers, index to little.
var FingerTips = [4]handmodel.Link{handmodel.IndexDistal, handmodel.MiddleDistal, handmodel.RingDistal, handmodel.LittleDistal}

// events records the pinch and fist events the hysteresis gives. A
// distance is measured exactly only when its bounds from the last
// measurement straddle the threshold that could change the state, so a
// frame far from any threshold measures none; the events are those of
// measuring every distance every frame.
func (d *Detector) events() {
	d.Events = d.Events[:0]
	o := &d.opts
	for f, tip := range FingerTips {
		loD, hiD := d.bounds(handmodel.ThumbDistal, tip)
		loM, hiM := d.bounds(handmodel.ThumbDistal, tip-1)
		switch {
		case !d.pinching[f] && min(loD, loM) <= o.PinchOn:
			if dist := d.PinchDistance(f); dist <= o.PinchOn {
				d.pinching[f] = true
				d.Events = append(d.Events, Event{Kind: PinchEvent, Finger: tip, Begin: true, Distance: dist})
			}
		case d.pinching[f] && min(hiD, hiM) >= o.PinchOff:
			if dist := d.PinchDistance(f); dist >= o.PinchOff {
				d.pinching[f] = false
				d.Events = append(d.Events, Event{Kind: PinchEvent, Finger: tip, Distance: dist})
			}
		}
	}
	// A fist begins when every tip is within FistOn of the palm, so one
	// tip known to be further rules it out; it ends when one tip is
	// FistOff away, ruled out while every tip is known to be nearer.
	maybe := true
	for _, tip := range FingerTips {
		lo, hi := d.bounds(handmodel.Palm, tip)
		if d.fist {
			maybe = maybe && hi < o.FistOff
		} else {
			maybe = maybe && lo <= o.FistOn
		}
	}
	if maybe == d.fist { // in a fist and surely staying; open and surely staying
		return
	}
	worst := 0.0
	for _, tip := range FingerTips {
		worst = max(worst, d.distance(handmodel.Palm, tip))
	}
	switch {
	case !d.fist && worst <= o.FistOn:
		d.fist = true
		d.Events = append(d.Events, Event{Kind: FistEvent, Finger: handmodel.Palm, Begin: true, Distance: worst})
	case d.fist && worst >= o.FistOff:
		d.fist = false
		d.Events = append(d.Events, Event{Kind: FistEvent, Finger: handmodel.Palm, Distance: worst})
	}
}

// PinchDistance measures finger f's (0 index .. 3 little) pinch distance
// now: the thumb's distal phalanx from the finger's two outer phalanges
// (a tip or a key pinch), exactly (m).
func (d *Detector) PinchDistance(f int) float64 {
	tip := FingerTips[f]
	return min(d.distance(handmodel.ThumbDistal, tip), d.distance(handmodel.ThumbDistal, tip-1))
}

// Pinching reports whether finger f (0 index .. 3 little) is pinching.
func (d *Detector) Pinching(f int) bool { return d.pinching[f] }

// InFist reports whether the hand is a fist.
func (d *Detector) InFist() bool { return d.fist }
