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

// events measures the pinch and fist distances and records the events
// their hysteresis gives.
func (d *Detector) events() {
	d.Events = d.Events[:0]
	o := &d.opts
	worst := 0.0
	for f, tip := range FingerTips {
		d.Pinch[f] = min(d.distance(handmodel.ThumbDistal, tip), d.distance(handmodel.ThumbDistal, tip-1))
		switch {
		case !d.pinching[f] && d.Pinch[f] <= o.PinchOn:
			d.pinching[f] = true
			d.Events = append(d.Events, Event{Kind: PinchEvent, Finger: tip, Begin: true, Distance: d.Pinch[f]})
		case d.pinching[f] && d.Pinch[f] >= o.PinchOff:
			d.pinching[f] = false
			d.Events = append(d.Events, Event{Kind: PinchEvent, Finger: tip, Distance: d.Pinch[f]})
		}
		d.Fist[f] = d.distance(handmodel.Palm, tip)
		worst = max(worst, d.Fist[f])
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

// Pinching reports whether finger f (0 index .. 3 little) is pinching.
func (d *Detector) Pinching(f int) bool { return d.pinching[f] }

// InFist reports whether the hand is a fist.
func (d *Detector) InFist() bool { return d.fist }
