package view

import (
	"sync"

	"github.com/gloved/gloved/osc"
)

// ringLen bounds the frame times and events a browser catches up on when
// it asks for the next frame: at 100 frames/s, 2.5 s of them.
const ringLen = 256

// event kinds in a slot's event ring.
const (
	kindTouch = iota
	kindPinch
	kindFist
)

// event is a touch, pinch or fist edge, kept so that a browser that
// skipped the frame it came in still flashes it.
type event struct {
	n            uint64 // the frame it came in (slot.frames after it)
	kind         int
	link, object string
	begin        bool
}

// slot is a hand's newest frame, the frame loop's only meeting point with
// the browsers. The frame loop writes it under mu (a copy into grown
// buffers); each browser's goroutine copies it out under mu.
type slot struct {
	mu     sync.Mutex
	frame  osc.Frame
	info   Info
	frames uint64 // frames published
	// version counts every change, frames and status alike.
	version uint64
	times   [ringLen]float32 // frame times (ms) of frames n-ringLen+1..n by n%ringLen
	events  [ringLen]event
	nEvents uint64
}

func (s *slot) publish(f *osc.Frame, info *Info) {
	s.mu.Lock()
	copyFrame(&s.frame, f)
	s.info = *info
	s.frames++
	s.version++
	s.times[s.frames%ringLen] = float32(info.FrameMS)
	for _, t := range f.Touches {
		s.addEvent(event{kind: kindTouch, link: t.Link, object: t.Object, begin: t.Begin})
	}
	for _, p := range f.Pinches {
		s.addEvent(event{kind: kindPinch, link: p.Finger, begin: p.Begin})
	}
	for _, e := range f.Fists {
		s.addEvent(event{kind: kindFist, begin: e.Begin})
	}
	s.mu.Unlock()
}

func (s *slot) addEvent(e event) {
	e.n = s.frames
	s.events[s.nEvents%ringLen] = e
	s.nEvents++
}

func (s *slot) setStatus(status string, rate float64) {
	s.mu.Lock()
	if s.info.Status != status || s.info.Rate != rate {
		s.info.Status, s.info.Rate = status, rate
		s.version++
	}
	s.mu.Unlock()
}

// cursor is how far one browser has seen a slot.
type cursor struct {
	version, frames uint64
}

// pending is what a browser takes from a slot: the newest frame, with the
// touch, pinch and fist events of every frame since its last take (not
// only the newest frame's), their frame times, and how many frames it
// never saw.
type pending struct {
	frame   osc.Frame
	info    Info
	times   []float32
	skipped uint64
}

// take fills p with what changed since c and moves c on. It reports false
// if nothing changed.
func (s *slot) take(c *cursor, p *pending) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.version == c.version {
		return false
	}
	copyFrame(&p.frame, &s.frame)
	p.info = s.info
	p.times, p.skipped = p.times[:0], 0
	from := c.frames + 1
	if s.frames >= ringLen && from+ringLen <= s.frames {
		from = s.frames - ringLen + 1
	}
	for n := from; n <= s.frames; n++ {
		p.times = append(p.times, s.times[n%ringLen])
	}
	if s.frames > c.frames+1 {
		p.skipped = s.frames - c.frames - 1
	}
	f := &p.frame
	f.Touches, f.Pinches, f.Fists = f.Touches[:0], f.Pinches[:0], f.Fists[:0]
	first := uint64(0)
	if s.nEvents > ringLen {
		first = s.nEvents - ringLen
	}
	for k := first; k < s.nEvents; k++ {
		e := &s.events[k%ringLen]
		if e.n <= c.frames {
			continue
		}
		switch e.kind {
		case kindTouch:
			f.Touches = append(f.Touches, osc.Touch{Link: e.link, Object: e.object, Begin: e.begin})
		case kindPinch:
			f.Pinches = append(f.Pinches, osc.Pinch{Finger: e.link, Begin: e.begin})
		case kindFist:
			f.Fists = append(f.Fists, osc.Fist{Begin: e.begin})
		}
	}
	c.version, c.frames = s.version, s.frames
	return true
}
