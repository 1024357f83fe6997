package osc

import (
	"math"
	"sync/atomic"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
	goosc "github.com/hypebeast/go-osc/osc"
)

// decodeAll returns the messages of a frame's packets, in order.
func decodeAll(t *testing.T, packets [][]byte) []*goosc.Message {
	t.Helper()
	var ms []*goosc.Message
	for _, pk := range packets {
		p, err := goosc.ParsePacket(string(pk))
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, p.(*goosc.Bundle).Messages...)
	}
	return ms
}

// TestAppendFrameDropsNonFinite: a contact or near entry with a NaN or an
// infinity is left out (and the frame's contact count says so); a frame
// whose joints, link poses or timing are not finite is not written at
// all. Each drop is counted; nothing non-finite reaches the wire.
func TestAppendFrameDropsNonFinite(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		name     string
		spoil    func(f *Frame)
		messages int   // messages written
		contacts int32 // the frame message's contact count
		dropped  uint64
	}{
		{"finite", func(f *Frame) {}, 8, 1, 0},
		{"contact depth", func(f *Frame) { f.Contacts[0].Depth = nan }, 7, 0, 1},
		{"contact normal", func(f *Frame) { f.Contacts[0].Normal[2] = inf }, 7, 0, 1},
		{"contact point beyond float32", func(f *Frame) { f.Contacts[0].Point[0] = 1e39 }, 7, 0, 1},
		{"near", func(f *Frame) { f.Near[0].Distance = nan }, 7, 1, 1},
		{"one of two contacts", func(f *Frame) {
			f.Contacts = append(f.Contacts, f.Contacts[0])
			f.Contacts[0].Point[1] = nan
		}, 8, 1, 1},
		{"link position", func(f *Frame) { f.Links[0].P[1] = nan }, 0, 0, 1},
		{"link rotation", func(f *Frame) { f.Links[0].Q.W = inf }, 0, 0, 1},
		{"joint", func(f *Frame) { f.Joints[1] = nan }, 0, 0, 1},
		{"pipeline time", func(f *Frame) { f.PipelineMS = inf }, 0, 0, 1},
	}
	for _, tc := range tests {
		f := frameFor(3)
		f.Links = append(f.Links, Pose{P: mgl64.Vec3{0, 1, 0}, Q: mgl64.QuatIdent()})
		tc.spoil(f)
		var w Writer
		var dropped atomic.Uint64
		w.NonFinite = &dropped
		w.Begin(1)
		AppendFrame(&w, HandAddresses("/gloved", "right"), f)
		ms := decodeAll(t, w.Packets())
		if len(ms) != tc.messages || dropped.Load() != tc.dropped {
			t.Errorf("%s: got %d messages, %d dropped, want %d, %d", tc.name, len(ms), dropped.Load(), tc.messages, tc.dropped)
			continue
		}
		if len(ms) > 0 && ms[0].Arguments[2] != tc.contacts {
			t.Errorf("%s: frame says %v contacts, want %d", tc.name, ms[0].Arguments[2], tc.contacts)
		}
		for _, m := range ms {
			for _, a := range m.Arguments {
				if f, ok := a.(float32); ok && (f != f || math.IsInf(float64(f), 0)) {
					t.Errorf("%s: %s sent %v", tc.name, m.Address, f)
				}
			}
		}
	}
}

// TestHandMessagesDecode: the messages between hands carry, in order,
// what the schema says, as go-osc decodes them; a hand contact holding a
// NaN is left out.
func TestHandMessagesDecode(t *testing.T) {
	f := frameFor(3)
	f.Hands = []HandContact{
		{Other: "left", Link: "index3", OtherLink: "palm", Depth: 0.004, Point: mgl64.Vec3{0.1, 1, 0.02}, Normal: mgl64.Vec3{0, 0, 1}},
		{Other: "left", Link: "thumb3", OtherLink: "palm", Depth: math.NaN()},
	}
	f.HandNear = []HandNear{{Other: "left", Link: "middle2", OtherLink: "ring3", Distance: 0.006}}
	f.LOD = []LOD{{Other: "left", Level: 3}}
	var w Writer
	var dropped atomic.Uint64
	w.NonFinite = &dropped
	w.Begin(1)
	AppendFrame(&w, HandAddresses("/gloved", "right"), f)
	byAddr := map[string][][]any{}
	for _, m := range decodeAll(t, w.Packets()) {
		byAddr[m.Address] = append(byAddr[m.Address], m.Arguments)
	}
	want := map[string][][]any{
		"/gloved/right/hand":     {{"left", "index3", "palm", float32(0.004), float32(0.1), float32(1), float32(0.02), float32(0), float32(0), float32(1)}},
		"/gloved/right/handnear": {{"left", "middle2", "ring3", float32(0.006)}},
		"/gloved/right/lod":      {{"left", int32(3)}},
	}
	for addr, w := range want {
		got := byAddr[addr]
		if len(got) != len(w) {
			t.Fatalf("%s: %d messages, want %d", addr, len(got), len(w))
		}
		for i := range w {
			if len(got[i]) != len(w[i]) {
				t.Fatalf("%s: %v, want %v", addr, got[i], w[i])
			}
			for k := range w[i] {
				if got[i][k] != w[i][k] {
					t.Fatalf("%s argument %d: %v, want %v", addr, k, got[i][k], w[i][k])
				}
			}
		}
	}
	if dropped.Load() != 1 {
		t.Fatalf("%d messages dropped, want the NaN contact's", dropped.Load())
	}
}

// TestSampleNumberWraps: /sample carries the low 32 bits of the sample's
// number as an int32, second in the frame; an app's int32 difference of
// two numbers is the step between them, across the wrap as well.
func TestSampleNumberWraps(t *testing.T) {
	tests := []struct {
		sample uint64
		want   int32
	}{
		{0, 0},
		{41, 41},
		{1<<31 - 1, 1<<31 - 1},
		{1 << 31, -1 << 31},
		{1<<32 - 1, -1},
		{1<<32 + 3, 3},
	}
	send := func(n uint64) int32 {
		f := frameFor(1)
		f.Sample = n
		var w Writer
		w.Begin(1)
		AppendFrame(&w, HandAddresses("/gloved", "right"), f)
		m := decodeAll(t, w.Packets())[1]
		if tags, _ := m.TypeTags(); m.Address != "/gloved/right/sample" || tags != ",i" {
			t.Fatalf("second message %s %s, want /gloved/right/sample ,i", m.Address, tags)
		}
		return m.Arguments[0].(int32)
	}
	for _, tc := range tests {
		if got := send(tc.sample); got != tc.want {
			t.Errorf("sample %d: got %d, want %d", tc.sample, got, tc.want)
		}
	}
	for _, n := range []uint64{5, 1<<31 - 2, 1<<32 - 2, 1<<32 + 1<<31 - 1} {
		if step := send(n+3) - send(n); step != 3 {
			t.Errorf("from sample %d to %d: an app's step is %d, want 3", n, n+3, step)
		}
	}
}

// TestControlsGoOutOnlyForAGloveThatHasThem: a frame whose glove has
// controls carries one controls message after its links, the joystick,
// trigger and each button as the frame holds them; a frame of a glove
// without has none.
func TestControlsGoOutOnlyForAGloveThatHasThem(t *testing.T) {
	addr := HandAddresses("/gloved", "right")
	for _, on := range []bool{true, false} {
		f := fullFrame()
		f.Controls.On = on
		var w Writer
		w.Begin(1)
		AppendFrame(&w, addr, f)
		var got []*goosc.Message
		ms := decodeAll(t, w.Packets())
		for i, m := range ms {
			if m.Address == addr.Controls {
				got = append(got, m)
				if i == 0 || ms[i-1].Address != addr.Links {
					t.Errorf("the controls follow %s, not the links", ms[i-1].Address)
				}
			}
		}
		if !on {
			if len(got) != 0 {
				t.Errorf("a glove without controls sent %v", got)
			}
			continue
		}
		want := []any{float32(-0.5), float32(1), float32(0.25), int32(0), int32(0), int32(1), int32(0), int32(1), int32(0), int32(0), int32(0)}
		if len(got) != 1 || len(got[0].Arguments) != len(want) {
			t.Fatalf("controls messages %v", got)
		}
		for i, a := range got[0].Arguments {
			if a != want[i] {
				t.Errorf("argument %d (%s): %v, want %v", i, methodsByAddress("/gloved", "right")[addr.Controls].Args[i].Name, a, want[i])
			}
		}
	}
}
