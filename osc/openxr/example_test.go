package openxr_test

import (
	"fmt"
	"log"
	"time"

	goosc "github.com/hypebeast/go-osc/osc"

	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/osc/openxr"
)

// A flat right hand at the origin, fingers up (+Y), sent as OpenXR
// joints and read back as an XR app would: the index fingertip's joint,
// its -Z along the finger (a quarter turn about X takes -Z to +Y), and
// its radius.
func ExampleHand_Frame() {
	hand, err := handmodel.New(handmodel.DefaultParams)
	if err != nil {
		log.Fatal(err)
	}
	poses := make([]geom.Transform, hand.NumLinks())
	hand.Pose(&handmodel.Angles{}, geom.Identity(), poses)
	f := osc.Frame{Joints: make([]float64, handmodel.NumJoints)}
	for _, x := range poses {
		f.Links = append(f.Links, osc.PoseOf(x))
	}

	e := openxr.NewHand(hand, "/gloved", "right", geom.Gloved)
	var w osc.Writer
	e.Frame(&w, &f, time.Unix(1_700_000_000, 0))
	for _, pk := range w.Packets() {
		p, err := goosc.ParsePacket(string(pk))
		if err != nil {
			log.Fatal(err)
		}
		for _, m := range p.(*goosc.Bundle).Messages {
			if m.Address == "/gloved/right/xr/index-finger-tip" {
				a := m.Arguments
				fmt.Printf("at (%.3f, %.3f, %.3f) m, rotation (%.3f, %.3f, %.3f, %.3f), radius %.1f mm\n",
					a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7].(float32)*1e3)
			}
		}
	}
	// Output:
	// at (-0.025, 0.167, 0.000) m, rotation (0.707, 0.000, 0.000, 0.707), radius 5.0 mm
}
