package view

import (
	"sort"
	"time"

	"github.com/gloved/gloved/osc"
)

// Timeline is a whole session computed ahead, every hand's frames by time:
// the page shows a slider over it and asks for the frames at a time.
type Timeline struct {
	hands [][]handFrame
	end   time.Duration
}

// NewTimeline makes an empty timeline for n hands.
func NewTimeline(n int) *Timeline { return &Timeline{hands: make([][]handFrame, n)} }

// Add appends hand's frame f at info.T. Frames of a hand must come in time
// order; a frame no later than the one before replaces it.
func (t *Timeline) Add(hand int, f *osc.Frame, info Info) {
	h := convert(hand, f, &info)
	h.Times = []float32{float32(info.FrameMS)}
	fs := t.hands[hand]
	if n := len(fs); n > 0 && h.T <= fs[n-1].T {
		fs[n-1] = h
	} else {
		t.hands[hand] = append(fs, h)
	}
	t.end = max(t.end, info.T)
}

// Duration is the time of the last frame.
func (t *Timeline) Duration() time.Duration { return t.end }

// Frames returns how many frames hand has.
func (t *Timeline) Frames(hand int) int { return len(t.hands[hand]) }

// at appends every hand's frame at sec seconds: the last one at or before
// it (or the first frame, before the start).
func (t *Timeline) at(sec float64, dst []handFrame) []handFrame {
	for _, fs := range t.hands {
		if len(fs) == 0 {
			continue
		}
		i := sort.Search(len(fs), func(i int) bool { return fs[i].T > sec }) - 1
		dst = append(dst, fs[max(i, 0)])
	}
	return dst
}
