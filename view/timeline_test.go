package view

import (
	"testing"
	"time"

	"github.com/gloved/gloved/osc"
)

// TestATimelineKeepsABoundedNumberOfFramesOfALongSession: a session five
// times longer than a timeline keeps leaves it holding no more than
// MaxTimelineFrames+1 frames, at every step; the slider still spans all
// of it, each time answered by a frame at most a kept frame's span
// earlier (the first kept, before it), the last frame is kept, and no
// touch edge is lost.
func TestATimelineKeepsABoundedNumberOfFramesOfALongSession(t *testing.T) {
	const step = 10 * time.Millisecond // a 100 Hz glove
	n := 5*MaxTimelineFrames + 3
	tl := NewTimeline(1)
	touches := 0
	most := 0
	for seq := range n {
		f := testFrame(int32(seq))
		if seq%1000 == 7 {
			f.Touches = []osc.Touch{{Link: "index3", Object: "ball", Begin: seq%2000 == 7}}
			touches++
		}
		tl.Add(0, f, Info{T: time.Duration(seq) * step})
		most = max(most, tl.Frames(0))
	}
	if most > MaxTimelineFrames+1 {
		t.Fatalf("the timeline held %d frames; the bound is %d", most, MaxTimelineFrames+1)
	}
	if tl.Frames(0) < MaxTimelineFrames/2 {
		t.Errorf("the timeline keeps %d frames of %d; want at least half its bound, %d", tl.Frames(0), n, MaxTimelineFrames/2)
	}
	if want := time.Duration(n-1) * step; tl.Duration() != want {
		t.Errorf("duration %v, want %v", tl.Duration(), want)
	}
	span := 8 * step // 5 times the bound: every 8th frame kept
	for _, sec := range []float64{0, 0.005, 1, 99.99, 500, 1234.567, float64(n-2) * step.Seconds(), float64(n-1) * step.Seconds(), 1e9} {
		got := tl.at(sec, nil)
		if len(got) != 1 {
			t.Fatalf("at %v s: %d frames", sec, len(got))
		}
		want := min(sec, float64(n-1)*step.Seconds())
		if f := got[0]; f.T > want+1e-9 && f.T >= span.Seconds() || want-f.T >= span.Seconds() {
			t.Errorf("at %v s: the frame of %v s (seq %d); want one within %v before %v s (or, before the first kept, that one)", sec, f.T, f.Seq, span, want)
		}
	}
	if last := tl.at(1e9, nil)[0]; last.Seq != int32(n-1) {
		t.Errorf("the last frame kept is %d, want %d", last.Seq, n-1)
	}
	kept := 0
	for _, f := range tl.hands[0].frames {
		kept += len(f.Touches)
	}
	if kept != touches {
		t.Errorf("%d touch edges kept of %d", kept, touches)
	}
}
