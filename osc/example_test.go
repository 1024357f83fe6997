package osc_test

import (
	"fmt"
	"log"
	"time"

	goosc "github.com/hypebeast/go-osc/osc"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/osc"
)

// A frame as the daemon sends it, decoded as an app receiving it would
// (here with go-osc): one bundle per frame, the contact's link, object,
// depth (m), point and normal in the message's arguments.
func ExampleAppendFrame() {
	f := osc.Frame{Seq: 7, Contacts: []osc.Contact{{
		Link: "index3", Object: "ball", Depth: 0.002,
		Point: mgl64.Vec3{0, 0.84, 0.01}, Normal: mgl64.Vec3{0, 1, 0},
	}}}
	var w osc.Writer
	w.Begin(osc.Timetag(time.Unix(1_700_000_000, 0)))
	osc.AppendFrame(&w, osc.HandAddresses("/gloved", "right"), &f)

	for _, packet := range w.Packets() {
		p, err := goosc.ParsePacket(string(packet))
		if err != nil {
			log.Fatal(err)
		}
		for _, m := range p.(*goosc.Bundle).Messages {
			if m.Address == "/gloved/right/contact" {
				fmt.Printf("%s touches the %s, %.1f mm deep, pushed out along %v\n",
					m.Arguments[0], m.Arguments[1], m.Arguments[2].(float32)*1e3, m.Arguments[6:9])
			} else {
				fmt.Println(m.Address, len(m.Arguments), "arguments")
			}
		}
	}
	// Output:
	// /gloved/right/frame 3 arguments
	// /gloved/right/sample 1 arguments
	// /gloved/right/joints 0 arguments
	// /gloved/right/links 0 arguments
	// index3 touches the ball, 2.0 mm deep, pushed out along [0 1 0]
}

// How an app finds the samples it missed: /frame's number counts the
// frames the daemon sent, /sample's the samples the glove delivered. Both
// are int32s that wrap, so the step between two is their int32
// difference. Here frame 8 follows frame 7, but its sample is 3 after
// the previous one (in the wrap from 2^31-1 to -2^31): the daemon dropped
// two samples between them (its frames ran slower than the glove).
func ExampleAppendFrame_sampleGaps() {
	addr := osc.HandAddresses("/gloved", "right")
	var frame, sample [2]int32
	for i, f := range []osc.Frame{{Seq: 7, Sample: 1<<31 - 2}, {Seq: 8, Sample: 1<<31 + 1}} {
		var w osc.Writer
		w.Begin(osc.Timetag(time.Unix(1_700_000_000, 0)))
		osc.AppendFrame(&w, addr, &f)
		p, err := goosc.ParsePacket(string(w.Packets()[0]))
		if err != nil {
			log.Fatal(err)
		}
		for _, m := range p.(*goosc.Bundle).Messages {
			switch m.Address {
			case addr.Frame:
				frame[i] = m.Arguments[0].(int32)
			case addr.Sample:
				sample[i] = m.Arguments[0].(int32)
			}
		}
	}
	fmt.Println("sample numbers on the wire:", sample[0], sample[1])
	framesLost := frame[1] - frame[0] - 1
	samplesMissed := sample[1] - sample[0] - 1
	fmt.Printf("%d frames lost on the way, %d samples dropped by the daemon\n", framesLost, samplesMissed-framesLost)
	// Output:
	// sample numbers on the wire: 2147483646 -2147483647
	// 0 frames lost on the way, 2 samples dropped by the daemon
}
