package osc

import (
	"math"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl64"
	goosc "github.com/hypebeast/go-osc/osc"
)

func TestWriterRoundTripsThroughGoOSC(t *testing.T) {
	var w Writer
	now := time.Date(2026, 11, 22, 10, 0, 0, 500_000_000, time.UTC)
	w.Begin(Timetag(now))
	w.Message("/gloved/right/frame")
	w.Int(7)
	w.Float(0.25)
	w.Int(2)
	w.End()
	w.Message("/gloved/right/contact")
	w.String("index3")
	w.String("ball")
	w.Float(0.0125)
	w.End()
	pk := w.Packets()
	if len(pk) != 1 {
		t.Fatalf("%d packets, want 1", len(pk))
	}
	p, err := goosc.ParsePacket(string(pk[0]))
	if err != nil {
		t.Fatal(err)
	}
	b, ok := p.(*goosc.Bundle)
	if !ok || len(b.Messages) != 2 {
		t.Fatalf("got %T %+v", p, p)
	}
	if got := b.Timetag.Time(); got.Sub(now).Abs() > time.Microsecond {
		t.Errorf("timetag decodes to %v, want %v", got, now)
	}
	m := b.Messages[0]
	if m.Address != "/gloved/right/frame" || m.Arguments[0] != int32(7) || m.Arguments[1] != float32(0.25) || m.Arguments[2] != int32(2) {
		t.Errorf("frame message %v", m)
	}
	c := b.Messages[1]
	if c.Arguments[0] != "index3" || c.Arguments[1] != "ball" || c.Arguments[2] != float32(0.0125) {
		t.Errorf("contact message %v", c)
	}
}

// TestWriterDropsNonFiniteMessages: a message holding a NaN, an infinity
// or a value beyond float32's range is not written, and is counted.
func TestWriterDropsNonFiniteMessages(t *testing.T) {
	var w Writer
	var dropped atomic.Uint64
	w.NonFinite = &dropped
	w.Begin(1)
	for i, v := range []float64{0.5, math.NaN(), math.Inf(1), math.Inf(-1), 1e39, -1e39, math.MaxFloat32, 0} {
		w.Message("/gloved/right/near")
		w.Int(int32(i))
		w.Float(v)
		w.End()
	}
	var got []int32
	for _, pk := range w.Packets() {
		p, err := goosc.ParsePacket(string(pk))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range p.(*goosc.Bundle).Messages {
			f := m.Arguments[1].(float32)
			if f != f || math.IsInf(float64(f), 0) {
				t.Errorf("message %v sent a non-finite value", m)
			}
			got = append(got, m.Arguments[0].(int32))
		}
	}
	if !slices.Equal(got, []int32{0, 6, 7}) || dropped.Load() != 5 {
		t.Errorf("got messages %v and %d dropped, want [0 6 7] and 5", got, dropped.Load())
	}
}

func TestWriterSplitsLargeFrames(t *testing.T) {
	var w Writer
	w.Begin(1)
	for i := range 100 {
		w.Message("/gloved/right/contact")
		w.String("middle3")
		w.String("a rather long object name")
		for range 7 {
			w.Float(float64(i))
		}
		w.End()
	}
	total := 0
	for _, pk := range w.Packets() {
		if len(pk) > MaxPacket {
			t.Fatalf("packet of %d bytes", len(pk))
		}
		p, err := goosc.ParsePacket(string(pk))
		if err != nil {
			t.Fatal(err)
		}
		total += len(p.(*goosc.Bundle).Messages)
	}
	if total != 100 || len(w.Packets()) < 2 {
		t.Fatalf("%d messages in %d packets", total, len(w.Packets()))
	}
}

func TestWriterAllocatesNothing(t *testing.T) {
	var w Writer
	frame := func() {
		w.Begin(42)
		for range 30 {
			w.Message("/gloved/right/links")
			for k := range 40 {
				w.Float(float64(k))
			}
			w.End()
		}
	}
	frame()
	if n := testing.AllocsPerRun(100, frame); n != 0 {
		t.Fatalf("%v allocations per frame", n)
	}
}

// BenchmarkAppendFrame: one hand's frame as the daemon sends it: 23 joint
// angles, 16 link poses, four contacts, two near links and a self-contact.
func BenchmarkAppendFrame(b *testing.B) {
	f := frameFor(7)
	f.Joints = make([]float64, 23)
	f.Links = make([]Pose, 16)
	for i := range f.Links {
		f.Links[i] = Pose{P: mgl64.Vec3{0.01 * float64(i), 0.9, 0.1}, Q: mgl64.QuatRotate(0.1*float64(i), mgl64.Vec3{1, 0, 0})}
	}
	for range 3 {
		f.Contacts = append(f.Contacts, f.Contacts[0])
	}
	f.Near = append(f.Near, f.Near[0])
	f.Self = []SelfContact{{A: "index2", B: "middle2", Depth: 0.001, Point: mgl64.Vec3{0, 0.9, 0}}}
	addr := HandAddresses("/gloved", "right")
	var w Writer
	b.ReportAllocs()
	for b.Loop() {
		w.Begin(1)
		AppendFrame(&w, addr, f)
	}
}

// TestWriterBoolsDecodeAsBools: Bool writes the type tags T and F, with
// no data, and go-osc reads them back as true and false between other
// arguments.
func TestWriterBoolsDecodeAsBools(t *testing.T) {
	var w Writer
	w.Begin(1)
	w.Message("/avatar/parameters/touch")
	w.Bool(true)
	w.Float(0.5)
	w.Bool(false)
	w.Int(3)
	w.End()
	p, err := goosc.ParsePacket(string(w.Packets()[0]))
	if err != nil {
		t.Fatal(err)
	}
	m := p.(*goosc.Bundle).Messages[0]
	tags, _ := m.TypeTags()
	if tags != ",TfFi" || m.Arguments[0] != true || m.Arguments[1] != float32(0.5) || m.Arguments[2] != false || m.Arguments[3] != int32(3) {
		t.Errorf("got %s %v, want ,TfFi [true 0.5 false 3]", tags, m.Arguments)
	}
}

// TestWriterWritesBareMessages: after BeginMessages each message is a
// packet of its own, not a bundle, and a frame's bundles follow Begin as
// before with the same buffers.
func TestWriterWritesBareMessages(t *testing.T) {
	var w Writer
	frame := func() {
		w.BeginMessages()
		for i := range 3 {
			w.Message("/avatar/parameters/curl")
			w.Float(float64(i) / 4)
			w.End()
		}
	}
	frame()
	pk := w.Packets()
	if len(pk) != 3 {
		t.Fatalf("%d packets, want 3", len(pk))
	}
	for i, b := range pk {
		p, err := goosc.ParsePacket(string(b))
		if err != nil {
			t.Fatal(err)
		}
		m, ok := p.(*goosc.Message)
		if !ok || m.Arguments[0] != float32(i)/4 {
			t.Errorf("packet %d: %T %v, want a bare message with %v", i, p, p, float32(i)/4)
		}
	}
	w.Begin(7)
	w.Message("/gloved/right/frame")
	w.Int(1)
	w.End()
	if p, err := goosc.ParsePacket(string(w.Packets()[0])); err != nil || len(w.Packets()) != 1 {
		t.Fatalf("after bare messages, a frame: %v, %d packets", err, len(w.Packets()))
	} else if _, ok := p.(*goosc.Bundle); !ok {
		t.Fatalf("after bare messages, a frame is a %T", p)
	}
	if n := testing.AllocsPerRun(100, frame); n != 0 {
		t.Errorf("%v allocations per batch of bare messages", n)
	}
}
