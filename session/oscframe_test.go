package session

import (
	"testing"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/sim"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/osc"
)

// BenchmarkEncodeFrame: what a frame costs between the pipeline and the
// socket: FillFrame (joints, link poses as quaternions, contacts, near,
// self-contact) and AppendFrame (the bundle), for the simulated grasp
// half-way through, with contacts.
func BenchmarkEncodeFrame(b *testing.B) {
	p := graspPipelineWith(b, 5, PipelineOptions{Proximity: 0.01, SelfContact: true})
	glove, _ := sim.New(sim.Grasp, 22, 10*time.Millisecond, true)
	var s devices.Sample
	for range 150 {
		glove.Read(&s)
		if err := p.Frame(&s, env.GraspWrist()); err != nil {
			b.Fatal(err)
		}
	}
	var f osc.Frame
	var w osc.Writer
	addr := osc.HandAddresses("/gloved", "right")
	encode := func() {
		p.FillFrame(&f)
		w.Begin(1)
		osc.AppendFrame(&w, addr, &f)
	}
	encode() // grow every buffer
	b.ReportAllocs()
	for b.Loop() {
		encode()
	}
	b.ReportMetric(float64(len(f.Contacts)), "contacts")
}
