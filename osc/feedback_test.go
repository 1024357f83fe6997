package osc_test

import (
	"testing"

	goosc "github.com/hypebeast/go-osc/osc"

	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/osc/osctest"
)

// TestTheFeedbackMessageCarriesEachFingersForceThenThePulse: a frame with
// feedback on sends <prefix>/<hand>/feedback with the five forces, thumb
// to little, then the pulse; one with feedback off sends none; encoding
// it allocates nothing.
func TestTheFeedbackMessageCarriesEachFingersForceThenThePulse(t *testing.T) {
	addr := osc.HandAddresses("/gloved", "right")
	f := &osc.Frame{Feedback: osc.Feedback{On: true, Force: [5]float64{0, 0.625, 0.5, 0, 1}, Pulse: 0.25}}
	var w osc.Writer
	w.Begin(1)
	osc.AppendFrame(&w, addr, f)
	var got []any
	for _, pk := range w.Packets() {
		p, err := goosc.ParsePacket(string(pk))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range p.(*goosc.Bundle).Messages {
			if m.Address == addr.Feedback {
				got = m.Arguments
			}
		}
	}
	want := []any{float32(0), float32(0.625), float32(0.5), float32(0), float32(1), float32(0.25)}
	if len(got) != len(want) {
		t.Fatalf("feedback arguments %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("feedback arguments %v, want %v", got, want)
		}
	}
	f.Feedback.On = false
	w.Begin(1)
	osc.AppendFrame(&w, addr, f)
	for _, pk := range w.Packets() {
		if p, _ := goosc.ParsePacket(string(pk)); p != nil {
			for _, m := range p.(*goosc.Bundle).Messages {
				if m.Address == addr.Feedback {
					t.Fatal("a frame with feedback off sent it")
				}
			}
		}
	}
	f.Feedback.On = true
	osctest.AllocatesNothing(t, func() {
		w.Begin(1)
		osc.AppendFrame(&w, addr, f)
	})
}
