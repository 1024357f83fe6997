package view

import (
	"math"
	"time"

	"github.com/gloved/gloved/osc"
)

// Info is what a frame says about its hand beside the OSC frame: the
// device's state and the hand's counters, shown in the hand's panel.
type Info struct {
	// Status is the hand's state (streaming, no-glove, replay...).
	Status string
	// Rate is the glove's samples a second over the last 2 s (0: not
	// measured): what a degraded status is judged on.
	Rate float64
	// T is the sample's time in the session.
	T time.Duration
	// FrameMS is how long the frame took.
	FrameMS float64
	// Frames, Dropped (samples the frame loop never took) and Overruns
	// (frames over budget) count since the hand started.
	Frames, Dropped, Overruns uint64
}

// handFrame is one hand's frame as a browser receives it (JSON).
type handFrame struct {
	Hand     int         `json:"hand"`
	Seq      int32       `json:"seq"`
	T        float64     `json:"t"`
	Status   string      `json:"status"`
	Rate     float32     `json:"rate"` // samples a second arriving from the glove, 0: not measured
	Frames   uint64      `json:"frames"`
	Dropped  uint64      `json:"dropped"`
	Overruns uint64      `json:"overruns"`
	Skipped  uint64      `json:"skipped"` // this browser's view frames skipped, in all
	Times    []float32   `json:"ms"`      // frame times since this browser's last frame, oldest first
	Links    []float32   `json:"links"`   // px py pz qx qy qz qw per link
	Contacts []contactJS `json:"contacts"`
	Near     []nearJS    `json:"near"`
	Touches  []eventJS   `json:"touches"`
	Self     []selfJS    `json:"self"`
	Pinches  []eventJS   `json:"pinches"`
	Fists    []eventJS   `json:"fists"`
	Hands    []handJS    `json:"hand_contacts"`
	HandNear []handJS    `json:"hand_near"`
	Live     bool        `json:"live"` // false: from the timeline
}

type contactJS struct {
	Link   string     `json:"link"`
	Object string     `json:"object"`
	Depth  float32    `json:"depth"`
	Point  [3]float32 `json:"point"`
	Normal [3]float32 `json:"normal"`
}

type nearJS struct {
	Link     string     `json:"link"`
	Object   string     `json:"object"`
	Distance float32    `json:"distance"`
	Point    [3]float32 `json:"point"`
}

// eventJS is a touch (link, object), pinch (link: the finger) or fist
// beginning or ending.
type eventJS struct {
	Link   string `json:"link,omitempty"`
	Object string `json:"object,omitempty"`
	Begin  bool   `json:"begin"`
}

type selfJS struct {
	A     string     `json:"a"`
	B     string     `json:"b"`
	Depth float32    `json:"depth"`
	Point [3]float32 `json:"point"`
}

type handJS struct {
	Other     string     `json:"other"`
	Link      string     `json:"link"`
	OtherLink string     `json:"other_link"`
	Depth     float32    `json:"depth,omitempty"`
	Distance  float32    `json:"distance,omitempty"`
	Point     [3]float32 `json:"point"`
	Normal    [3]float32 `json:"normal"`
}

// finite32 reports whether every value is a finite float32.
func finite32(v ...float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.Abs(x) > math.MaxFloat32 {
			return false
		}
	}
	return true
}

func vec32(v [3]float64) [3]float32 { return [3]float32{float32(v[0]), float32(v[1]), float32(v[2])} }

// convert makes a browser's frame of a hand's frame. Entries holding a
// NaN or infinity are left out, as AppendFrame leaves them out of OSC; a
// link pose holding one is sent as the identity at the origin (the page
// never receives a non-number).
func convert(hand int, f *osc.Frame, info *Info) handFrame {
	h := handFrame{Hand: hand, Seq: f.Seq, T: info.T.Seconds(), Status: info.Status, Rate: float32(info.Rate), Frames: info.Frames, Dropped: info.Dropped, Overruns: info.Overruns,
		Links: make([]float32, 0, 7*len(f.Links)), Contacts: []contactJS{}, Near: []nearJS{}, Touches: []eventJS{}, Self: []selfJS{},
		Pinches: []eventJS{}, Fists: []eventJS{}, Hands: []handJS{}, HandNear: []handJS{}}
	for _, p := range f.Links {
		if !finite32(p.P[0], p.P[1], p.P[2], p.Q.V[0], p.Q.V[1], p.Q.V[2], p.Q.W) {
			h.Links = append(h.Links, 0, 0, 0, 0, 0, 0, 1)
			continue
		}
		h.Links = append(h.Links, float32(p.P[0]), float32(p.P[1]), float32(p.P[2]), float32(p.Q.V[0]), float32(p.Q.V[1]), float32(p.Q.V[2]), float32(p.Q.W))
	}
	for _, c := range f.Contacts {
		if finite32(c.Depth, c.Point[0], c.Point[1], c.Point[2], c.Normal[0], c.Normal[1], c.Normal[2]) {
			h.Contacts = append(h.Contacts, contactJS{Link: c.Link, Object: c.Object, Depth: float32(c.Depth), Point: vec32(c.Point), Normal: vec32(c.Normal)})
		}
	}
	for _, n := range f.Near {
		if finite32(n.Distance, n.Point[0], n.Point[1], n.Point[2]) {
			h.Near = append(h.Near, nearJS{Link: n.Link, Object: n.Object, Distance: float32(n.Distance), Point: vec32(n.Point)})
		}
	}
	for _, t := range f.Touches {
		h.Touches = append(h.Touches, eventJS{Link: t.Link, Object: t.Object, Begin: t.Begin})
	}
	for _, s := range f.Self {
		if finite32(s.Depth, s.Point[0], s.Point[1], s.Point[2]) {
			h.Self = append(h.Self, selfJS{A: s.A, B: s.B, Depth: float32(s.Depth), Point: vec32(s.Point)})
		}
	}
	for _, p := range f.Pinches {
		h.Pinches = append(h.Pinches, eventJS{Link: p.Finger, Begin: p.Begin})
	}
	for _, e := range f.Fists {
		h.Fists = append(h.Fists, eventJS{Begin: e.Begin})
	}
	for _, c := range f.Hands {
		if finite32(c.Depth, c.Point[0], c.Point[1], c.Point[2], c.Normal[0], c.Normal[1], c.Normal[2]) {
			h.Hands = append(h.Hands, handJS{Other: c.Other, Link: c.Link, OtherLink: c.OtherLink, Depth: float32(c.Depth), Point: vec32(c.Point), Normal: vec32(c.Normal)})
		}
	}
	for _, n := range f.HandNear {
		if finite32(n.Distance) {
			h.HandNear = append(h.HandNear, handJS{Other: n.Other, Link: n.Link, OtherLink: n.OtherLink, Distance: float32(n.Distance)})
		}
	}
	return h
}

// copyFrame copies src into dst, reusing dst's buffers: once they have
// grown it allocates nothing.
func copyFrame(dst, src *osc.Frame) {
	dst.Seq, dst.PipelineMS, dst.Status = src.Seq, src.PipelineMS, src.Status
	dst.Joints = append(dst.Joints[:0], src.Joints...)
	dst.Links = append(dst.Links[:0], src.Links...)
	dst.Contacts = append(dst.Contacts[:0], src.Contacts...)
	dst.Near = append(dst.Near[:0], src.Near...)
	dst.Touches = append(dst.Touches[:0], src.Touches...)
	dst.Self = append(dst.Self[:0], src.Self...)
	dst.Pinches = append(dst.Pinches[:0], src.Pinches...)
	dst.Fists = append(dst.Fists[:0], src.Fists...)
	dst.Hands = append(dst.Hands[:0], src.Hands...)
	dst.HandNear = append(dst.HandNear[:0], src.HandNear...)
	dst.LOD = append(dst.LOD[:0], src.LOD...)
}
