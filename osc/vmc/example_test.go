package vmc_test

import (
	"fmt"
	"log"
	"math"
	"time"

	goosc "github.com/hypebeast/go-osc/osc"

	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/osc/vmc"
)

// A left hand with its index finger bent 90 degrees at the knuckle, as a
// marionette receives it: the index's proximal bone turns a quarter about
// Unity's Z (the avatar's left hand points along -X; the finger curls
// down, toward -Y), its middle and distal bones stay straight on it.
func ExampleHand_Frame() {
	hand, err := handmodel.New(handmodel.Params{Length: 0.19, Breadth: 0.085})
	if err != nil {
		log.Fatal(err)
	}
	var q handmodel.Angles
	q[handmodel.IndexMCP] = 0.5 * 3.141592653589793
	poses := make([]geom.Transform, hand.NumLinks())
	hand.Pose(&q, geom.Identity(), poses)
	f := osc.Frame{Joints: q[:]}
	for _, x := range poses {
		f.Links = append(f.Links, osc.PoseOf(x))
	}

	start := time.Unix(1_700_000_000, 0)
	var w osc.Writer
	vmc.NewHand(hand, vmc.NewPerformer(start, 1), 0).Frame(&w, &f, start.Add(time.Second))
	for _, pk := range w.Packets() {
		p, err := goosc.ParsePacket(string(pk))
		if err != nil {
			log.Fatal(err)
		}
		for _, m := range p.(*goosc.Bundle).Messages {
			if m.Address == vmc.AddrBone && (m.Arguments[0] == "LeftIndexProximal" || m.Arguments[0] == "LeftIndexIntermediate") {
				a := m.Arguments
				fmt.Printf("%s at (%v, %v, %v) turned (%v, %v, %v, %v)\n", a[0], mm(a[1]), mm(a[2]), mm(a[3]), mm(a[4]), mm(a[5]), mm(a[6]), mm(a[7]))
			} else if m.Address != vmc.AddrBone {
				fmt.Println(m.Address, m.Arguments)
			}
		}
	}
	// Output:
	// /VMC/Ext/OK [1 3 0 1]
	// /VMC/Ext/T [1]
	// LeftIndexProximal at (-0.071, 0, 0.025) turned (0, 0, 0.707, 0.707)
	// LeftIndexIntermediate at (-0.05, 0, 0) turned (0, 0, 0, 1)
}

// mm rounds a float32 argument to three decimals (and -0 to 0).
func mm(a any) float64 { return math.Round(float64(a.(float32))*1000)/1000 + 0 }
