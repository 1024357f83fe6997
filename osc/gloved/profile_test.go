package gloved_test

import (
	"bytes"
	"testing"

	goosc "github.com/hypebeast/go-osc/osc"

	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/osc/gloved"
	"github.com/gloved/gloved/osc/osctest"
	"github.com/gloved/gloved/osc/profile"
)

// TestFramesAreGlovedsOwnInTheirCoordinates: in gloved's coordinates a
// frame's bundles are byte for byte gloved's own stream's
// (osc.AppendFrame), in unreal's they are the frame carried into them
// (osc.ConvertFrame), at every frame of the recording.
func TestFramesAreGlovedsOwnInTheirCoordinates(t *testing.T) {
	addr := osc.HandAddresses("/gloved", "right")
	own, unreal := gloved.NewHand(addr, geom.Gloved), gloved.NewHand(addr, geom.Unreal)
	var w, ref osc.Writer
	var conv osc.Frame
	osctest.Run(t, osctest.Recording(), 0, func(f osctest.Frame) {
		ref.Begin(osc.Timetag(f.At))
		osc.AppendFrame(&ref, addr, f.Frame)
		own.Frame(&w, f.Frame, f.At)
		if !samePackets(w.Packets(), ref.Packets()) {
			t.Fatalf("frame %d in gloved's coordinates is not gloved's own", f.Seq)
		}
		osc.ConvertFrame(&conv, f.Frame, geom.Unreal)
		ref.Begin(osc.Timetag(f.At))
		osc.AppendFrame(&ref, addr, &conv)
		unreal.Frame(&w, f.Frame, f.At)
		if !samePackets(w.Packets(), ref.Packets()) {
			t.Fatalf("frame %d in unreal's coordinates is not the frame converted", f.Seq)
		}
	})
}

func samePackets(a, b [][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

// TestStatusIsSentUnlessAFrameCarriedIt: the status loop's status is
// <prefix>/<hand>/status with the state; after a frame, which carries the
// status when it is due, nothing.
func TestStatusIsSentUnlessAFrameCarriedIt(t *testing.T) {
	p, _ := profile.Lookup(gloved.Name)
	cfg, err := p.Configure(profile.Settings{Coords: geom.ROS, Hands: []string{"left", "right"}})
	if err != nil {
		t.Fatal(err)
	}
	out := cfg.Open(profile.Run{Prefix: "/lab", Hands: []string{"left", "right"}})
	var w osc.Writer
	for _, framed := range []bool{false, true} {
		w.Begin(osc.Timetag(osctest.Epoch))
		out.Status(&w, 1, profile.Status{State: "stalled", Now: osctest.Epoch, Framed: framed})
		if framed {
			if len(w.Packets()) != 0 {
				t.Errorf("after a frame: %d packets", len(w.Packets()))
			}
			continue
		}
		p, err := goosc.ParsePacket(string(w.Packets()[0]))
		if err != nil {
			t.Fatal(err)
		}
		if m := p.(*goosc.Bundle).Messages; len(m) != 1 || m[0].Address != "/lab/right/status" || m[0].Arguments[0] != "stalled" {
			t.Errorf("the status bundle: %v", m)
		}
	}
}

// TestMethodsAreWhatAHandsFramesSend: the profile's contract is gloved's
// in its coordinates, less what osc.targets' socket alone sends and
// takes (the subscription's answers, the wrist).
func TestMethodsAreWhatAHandsFramesSend(t *testing.T) {
	p, _ := profile.Lookup(gloved.Name)
	cfg, err := p.Configure(profile.Settings{Coords: geom.Unreal, Hands: []string{"right"}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]osc.Method{}
	for _, m := range cfg.Methods() {
		got[m.Path] = m
	}
	for _, m := range osc.MethodsIn(geom.Unreal) {
		_, in := got[m.Path]
		if want := m.ForHand() && m.Access == osc.Sent; in != want {
			t.Errorf("%s (access %d): in the profile's contract %v, want %v", m.Path, m.Access, in, want)
		}
	}
	if links := got["{prefix}/{hand}/links"]; links.Each[0].Unit != "distance.cm" {
		t.Errorf("links in unreal's coordinates: %+v", links.Each[0])
	}
}

// encoder is the profile encoding the recording's grasp half-way in
// Unreal's coordinates.
func encoder(tb testing.TB) func() {
	return osctest.Repeat(tb, func(osctest.Frame) profile.Encoder {
		return gloved.NewHand(osc.HandAddresses("/gloved", "right"), geom.Unreal)
	})
}

// TestFrameAllocatesNothing: encoding a frame allocates nothing once the
// writer has grown.
func TestFrameAllocatesNothing(t *testing.T) { osctest.AllocatesNothing(t, encoder(t)) }

// BenchmarkFrame: one frame of gloved's contract carried into Unreal's
// coordinates (every pose, point, normal and length) into its bundles.
func BenchmarkFrame(b *testing.B) { osctest.Benchmark(b, encoder(b)) }
