package main

import (
	"bytes"
	"strings"
	"testing"

	goosc "github.com/hypebeast/go-osc/osc"
)

// TestWatchBoundsWhatASenderWithoutFramesMakesItShow: a sender that never
// sends /frame (which empties a hand's lists) and sends contacts, touches
// and hands without end, with long names, makes watch show a line of
// bounded length that counts them all, and keep bounded lists.
func TestWatchBoundsWhatASenderWithoutFramesMakesItShow(t *testing.T) {
	hands := map[string]*watchState{}
	long := strings.Repeat("x", 1000)
	for range 2000 {
		for _, m := range []*goosc.Message{
			goosc.NewMessage("/gloved/right/contact", long, "ball", float32(0.002)),
			goosc.NewMessage("/gloved/right/touch", "index_tip", long, int32(1)),
			goosc.NewMessage("/gloved/right/hand", "left", "thumb_tip", "index_tip", float32(0.001)),
			goosc.NewMessage("/gloved/right/lod", long, int32(3)),
		} {
			watchMessage(hands, "/gloved", m)
		}
	}
	h := hands["right"]
	for name, l := range map[string]watchList{"contacts": h.contacts, "touches": h.touches, "hands": h.hands, "lod": h.lod} {
		if l.n != 2000 || len(l.items) != maxWatchedItems {
			t.Errorf("%s: %d counted, %d kept; want 2000 and %d", name, l.n, len(l.items), maxWatchedItems)
		}
	}
	var out bytes.Buffer
	printWatch(&out, hands)
	line := out.String()
	if len(line) > 4*maxWatchedItems*(2*maxWatchedText+40) || !strings.Contains(line, "2000 contacts") || !strings.Contains(line, "and 1968 more") {
		t.Errorf("a line of %d bytes: %.300s", len(line), line)
	}
	watchMessage(hands, "/gloved", goosc.NewMessage("/gloved/right/frame", int32(1)))
	out.Reset()
	printWatch(&out, hands)
	if got := out.String(); !strings.Contains(got, "0 contacts, 0 near") || strings.Contains(got, "touch") {
		t.Errorf("after a /frame: %q", got)
	}
}
