package handcontact_test

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/cab"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handcontact"
	"github.com/gloved/gloved/handmodel"
)

// A right and a left hand held flat, palm against palm and pressed 5 mm
// into each other: where do they touch, and how deep?
func Example() {
	pose := func(right bool, q mgl64.Quat, at geom.Vec3) (handcontact.Hand, *handcontact.Pose) {
		p := handmodel.DefaultParams
		p.Right = right
		model, _ := handmodel.New(p)
		hand, _ := handcontact.NewHand(model)
		wrist, _ := geom.FromQuat(q, at)
		links := make([]geom.Transform, model.NumLinks())
		model.Pose(&handmodel.Angles{}, wrist, links) // flat
		refit, _ := cab.NewRefitter(cab.CAB, hand.Hier)
		refit.Refit(links)
		var out handcontact.Pose
		out.Set(links, hand.Hier)
		return hand, &out
	}
	// Palms toward each other, fingers up: the right hand's palm faces
	// -z, the left hand's (turned half about y) faces +z. A flat palm is
	// 25.5 mm thick.
	right, rp := pose(true, mgl64.QuatIdent(), geom.Vec3{Z: 0.0255 - 0.005})
	left, lp := pose(false, mgl64.QuatRotate(mgl64.DegToRad(180), mgl64.Vec3{0, 1, 0}), geom.Vec3{})
	d, err := handcontact.New(right, left, handcontact.Options{Proximity: 0.01})
	if err != nil {
		panic(err)
	}
	if err := d.Frame(rp, lp, -1); err != nil {
		panic(err)
	}
	for _, c := range d.Contacts {
		if c.Link == handmodel.Palm && c.Other == handmodel.Palm {
			fmt.Printf("palm on palm: %.1f mm deep, pushed along +z by %.2f\n", c.Depth*1e3, c.Normal.Z)
		}
	}
	// Output:
	// palm on palm: 5.0 mm deep, pushed along +z by 1.00
}
