package animation_test

import (
	"bytes"
	"context"
	"fmt"
	"log"

	"github.com/qmuntal/gltf"

	"github.com/gloved/gloved/animation"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/session"
)

// Record a simulated grasp of the built-in ball as one animated glTF file,
// then read it back and see where the index fingertip was 0.9 s
// in, and how many contacts were shown then.
func Example() {
	scene, err := session.LoadScene(session.ScenePaths(session.BuiltinScene), "")
	if err != nil {
		log.Fatal(err)
	}
	spec := session.Spec{Device: session.DeviceSim, Speed: session.SpeedMax, Wrist: session.PoseValues(env.GraspWrist())}
	if err := spec.Normalize(); err != nil {
		log.Fatal(err)
	}
	s, err := session.Open(spec, scene, session.PipelineOptions{})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	p := s.Pipeline
	rec := animation.NewRecorder(p.Hand(), p.Scene())
	err = s.Each(context.Background(), 100, func() error {
		return rec.Add(animation.Frame{Time: s.Sample.Time, Links: p.Poses(), Angles: p.Angles(), Contacts: p.Contacts()})
	})
	if err != nil {
		log.Fatal(err)
	}
	var glb bytes.Buffer
	if err := rec.Write(&glb, true); err != nil {
		log.Fatal(err)
	}
	doc := new(gltf.Document)
	if err := gltf.NewDecoder(&glb).Decode(doc); err != nil {
		log.Fatal(err)
	}
	clip, err := animation.ReadClip(doc, 0)
	if err != nil {
		log.Fatal(err)
	}
	tip := clip.Sample(animation.FindNode(doc, "index3"), 0.9)
	shown := 0
	for i := range rec.Markers() {
		if clip.Sample(animation.FindNode(doc, animation.MarkerName(i)), 0.9).Scale[0] > 0 {
			shown++
		}
	}
	fmt.Printf("%d frames, %d contact markers\n", rec.Frames(), rec.Markers())
	fmt.Printf("index3 at %.3f m, %d contacts shown at 0.9 s\n", tip.Translation, shown)
	// Output:
	// 100 frames, 6 contact markers
	// index3 at [-0.025 0.836 0.001] m, 6 contacts shown at 0.9 s
}
