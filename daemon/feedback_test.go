package daemon

import (
	"testing"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/feedback"
	"github.com/gloved/gloved/handmodel"
)

// reopening is a glove whose port reopens: its Reconnects count, as a
// serial driver's Line keeps it.
type reopening struct{ faults devices.Faults }

func (g *reopening) Read(*devices.Sample) error { return devices.ErrTimeout }
func (g *reopening) Close() error               { return nil }
func (g *reopening) Faults() devices.Faults     { return g.faults }

// TestFeedbackIsSentAgainAtTheFrameAfterTheGloveReconnects: a hand's
// feedback line, sent and unchanged, is not sent again before the
// refresh; once the glove's port reopened (its Reconnects count went up,
// its sequence numbers still counting on), the next frame sends it, for
// a glove whose firmware rebooted has every servo free.
func TestFeedbackIsSentAgainAtTheFrameAfterTheGloveReconnects(t *testing.T) {
	fb, err := feedback.NewHand(&handmodel.DefaultLimits, feedback.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f := handFeedback{fb: fb}
	g := &reopening{}
	var q handmodel.Angles
	frame := func(seq uint64) bool {
		f.follow(seq, g)
		at := time.Duration(seq) * 10 * time.Millisecond
		fb.Frame(at, &q, nil, nil)
		_, due := fb.Due(at)
		return due
	}
	if !frame(0) {
		t.Fatal("the first frame sent no line")
	}
	for seq := uint64(1); seq < 5; seq++ {
		if frame(seq) {
			t.Fatalf("frame %d sent an unchanged line before the refresh", seq)
		}
	}
	g.faults.Reconnects++
	if !frame(5) {
		t.Fatal("the frame after the glove reconnected sent no line")
	}
	if frame(6) {
		t.Fatal("the frame after that sent an unchanged line again")
	}
}
