package session_test

import (
	"context"
	"fmt"
	"log"

	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/session"
)

// Replay a recorded glove session over a scene file and collect which
// links touched which objects.
func Example() {
	scene, err := session.LoadScene([]session.SceneFile{{Path: "../testdata/scenes/grasp.obj"}}, "")
	if err != nil {
		log.Fatal(err)
	}
	spec := session.Spec{Device: session.DeviceReplay, Recording: "../testdata/recordings/grasp.glove", Speed: session.SpeedMax}
	s, err := session.Open(spec, scene, session.PipelineOptions{Proximity: 0.01})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	touched := map[string]bool{}
	err = s.Each(context.Background(), 0, func() error {
		for _, c := range s.Pipeline.Contacts() {
			touched[handmodel.Link(c.Link).String()+" in "+scene.Objects[c.Object]] = true
		}
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("frames:", s.Frames)
	fmt.Println("index fingertip in the ball:", touched["index3 in ball"])
	fmt.Println("anything in the table:", touched["palm in table"] || touched["index3 in table"])
	// Output:
	// frames: 201
	// index fingertip in the ball: true
	// anything in the table: false
}
