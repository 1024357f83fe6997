package view

import (
	"sort"
	"time"

	"github.com/gloved/gloved/osc"
)

// Timeline is a whole session computed ahead, every hand's frames by time:
// the page shows a slider over it and asks for the frames at a time.
//
// Its memory is bounded, however long the session: it keeps at most
// MaxTimelineFrames+1 frames a hand (a frame takes about 1.4 KB). A
// longer session is kept at an even fraction of its frames, every 2nd,
// then every 4th, ..., so that the slider still spans all of it, at a
// coarser step; the touch, pinch and fist edges of the frames passed
// over go with the frame kept after them (at most maxMergedEvents of
// each), and the last frame is always kept.
type Timeline struct {
	hands []handLine
	end   time.Duration
}

// MaxTimelineFrames bounds the frames a Timeline keeps of a hand (an even
// number): 32768, five and a half minutes of a 100 Hz glove at full
// resolution, about 45 MB; an hour is kept at every 16th frame (6 a
// second).
const MaxTimelineFrames = 1 << 15

// maxMergedEvents bounds the edges of each kind a kept frame carries for
// the frames passed over before it.
const maxMergedEvents = 64

// handLine is one hand's frames. Every frame but the last stands for
// stride frames added (a power of two), the last for taken of them (1 to
// stride): it is replaced, with the edges of the one before, until it
// stands for stride.
type handLine struct {
	frames []handFrame
	stride int
	taken  int
}

// NewTimeline makes an empty timeline for n hands.
func NewTimeline(n int) *Timeline {
	t := &Timeline{hands: make([]handLine, n)}
	for i := range t.hands {
		t.hands[i].stride = 1
	}
	return t
}

// Add appends hand's frame f at info.T. Frames of a hand must come in time
// order; a frame no later than the one before replaces it.
func (t *Timeline) Add(hand int, f *osc.Frame, info Info) {
	h := convert(hand, f, &info)
	h.Times = []float32{float32(info.FrameMS)}
	l := &t.hands[hand]
	n := len(l.frames)
	switch {
	case n > 0 && h.T <= l.frames[n-1].T:
		l.frames[n-1] = merged(&l.frames[n-1], h)
	case n > 0 && l.taken < l.stride:
		l.frames[n-1] = merged(&l.frames[n-1], h)
		l.taken++
	default:
		l.frames = append(l.frames, h)
		l.taken = 1
		if len(l.frames) > MaxTimelineFrames {
			l.halve()
		}
	}
	t.end = max(t.end, info.T)
}

// halve keeps one frame of every two but the last, each with the edges of
// the one passed over, and doubles the stride.
func (l *handLine) halve() {
	n := len(l.frames) - 1 // the last stands for one frame
	for i := 0; i < n/2; i++ {
		l.frames[i] = merged(&l.frames[2*i], l.frames[2*i+1])
	}
	l.frames[n/2] = l.frames[n]
	clear(l.frames[n/2+1:])
	l.frames = l.frames[:n/2+1]
	l.stride *= 2
}

// merged is frame b, which takes the place of a, with a's touch, pinch and
// fist edges before its own (at most maxMergedEvents of each, the latest).
func merged(a *handFrame, b handFrame) handFrame {
	b.Touches = latest(append(a.Touches, b.Touches...))
	b.Pinches = latest(append(a.Pinches, b.Pinches...))
	b.Fists = latest(append(a.Fists, b.Fists...))
	return b
}

// latest is the last maxMergedEvents of e.
func latest(e []eventJS) []eventJS {
	if len(e) <= maxMergedEvents {
		return e
	}
	return append([]eventJS(nil), e[len(e)-maxMergedEvents:]...)
}

// Duration is the time of the last frame.
func (t *Timeline) Duration() time.Duration { return t.end }

// Frames returns how many frames the timeline keeps of hand.
func (t *Timeline) Frames(hand int) int { return len(t.hands[hand].frames) }

// at appends every hand's frame at sec seconds: the last one kept at or
// before it (or the first frame, before the start).
func (t *Timeline) at(sec float64, dst []handFrame) []handFrame {
	for _, l := range t.hands {
		fs := l.frames
		if len(fs) == 0 {
			continue
		}
		i := sort.Search(len(fs), func(i int) bool { return fs[i].T > sec }) - 1
		dst = append(dst, fs[max(i, 0)])
	}
	return dst
}
