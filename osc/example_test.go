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
	// /gloved/right/joints 0 arguments
	// /gloved/right/links 0 arguments
	// index3 touches the ball, 2.0 mm deep, pushed out along [0 1 0]
}
