package vrchat_test

import (
	"fmt"
	"log"
	"strings"
	"time"

	goosc "github.com/hypebeast/go-osc/osc"

	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/osc/vrchat"
)

// A right hand whose index fingertip touches a ball and whose middle
// finger is 4 mm from it, as VRChat receives the index and middle
// finger's parameters at the first tick (all of them are due then).
func ExampleHand_Frame() {
	hand, err := handmodel.New(handmodel.DefaultParams)
	if err != nil {
		log.Fatal(err)
	}
	var q handmodel.Angles
	q[handmodel.IndexMCP] = 0.6
	poses := make([]geom.Transform, hand.NumLinks())
	hand.Pose(&q, geom.Identity(), poses)
	f := osc.Frame{Joints: q[:],
		Contacts: []osc.Contact{{Link: "index3", Object: "ball", Depth: 0.001}},
		Touches:  []osc.Touch{{Link: "index3", Object: "ball", Begin: true}},
		Near:     []osc.Near{{Link: "middle3", Object: "ball", Distance: 0.004}},
	}
	for _, x := range poses {
		f.Links = append(f.Links, osc.PoseOf(x))
	}

	e := vrchat.NewHand(hand, "right", vrchat.Options{Names: vrchat.DefaultNames, Band: 0.01})
	var w osc.Writer
	e.Frame(&w, &f, time.Unix(1_700_000_000, 0))
	for _, pk := range w.Packets() {
		p, err := goosc.ParsePacket(string(pk))
		if err != nil {
			log.Fatal(err)
		}
		m := p.(*goosc.Message)
		if strings.Contains(m.Address, "/index/") || strings.Contains(m.Address, "/middle/") {
			tags, _ := m.TypeTags()
			fmt.Println(m.Address, tags, m.Arguments[0])
		}
	}
	// Output:
	// /avatar/parameters/gloved/right/index/curl ,f 0.12277667
	// /avatar/parameters/gloved/right/index/proximity ,f 1
	// /avatar/parameters/gloved/right/index/velocity ,f 0
	// /avatar/parameters/gloved/right/index/touch ,T true
	// /avatar/parameters/gloved/right/middle/curl ,f 0
	// /avatar/parameters/gloved/right/middle/proximity ,f 0.6
	// /avatar/parameters/gloved/right/middle/velocity ,f 0
	// /avatar/parameters/gloved/right/middle/touch ,F false
	// /avatar/parameters/gloved/right/index/pinch ,F false
	// /avatar/parameters/gloved/right/middle/pinch ,F false
}
