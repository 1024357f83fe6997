package contact_test

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/cab"
	"github.com/gloved/gloved/contact"
	_ "github.com/gloved/gloved/contact/all" // the methods gloved ships
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/narrow"
)

// A scene's objects each carry a contact method chosen at load; each
// frame, Traverse finds the candidate pairs of a body's refitted hierarchy
// and Solve answers them. Here the body is one 2 cm cube pressed 5 mm
// into a convex crate and 3 mm from an open sheet, with a 1 cm band.
func ExampleNewScene() {
	scene := env.Box("crate", geom.Vec3{}, geom.Vec3{X: 0.1, Y: 0.1, Z: 0.1})
	scene.Append(&env.Mesh{Objects: []string{"sheet"}, Verts: []geom.Vec3{{X: 0.118, Y: -1, Z: -1}, {X: 0.118, Y: -1, Z: 1}, {X: 0.118, Y: 1, Z: 1}, {X: 0.118, Y: 1, Z: -1}},
		Tris: [][3]int32{{0, 1, 2}, {0, 2, 3}}, Object: []int32{0, 0}})
	scene.DetectConvex()

	// The body: one link, its hierarchy, and its convex polytope.
	link := env.Box("finger", geom.Vec3{}, geom.Vec3{X: 0.01, Y: 0.01, Z: 0.01})
	bl, _ := cab.NewLink("finger", -1, link.Verts, link.Tris, true)
	body, _ := cab.Build(&cab.Body{Name: "finger", Links: []cab.Link{bl}})
	refit, _ := cab.NewRefitter(cab.CAB, body)
	poly, _ := narrow.NewPolytope(link.Verts, link.Tris)
	links, _ := contact.NewLinks(body.Body, []*narrow.Polytope{poly})

	s, err := contact.NewScene(scene, links, contact.Options{Proximity: 0.01, CountTris: true})
	if err != nil {
		panic(err)
	}
	fmt.Println("methods:", s.Method)

	poses := []geom.Transform{{R: mgl64.Ident3(), T: geom.Vec3{X: 0.105}}}
	refit.Refit(poses)
	s.Traverse(body, poses)
	s.Solve(poses)
	for _, c := range s.Contacts {
		fmt.Printf("touching the %s %.1f mm deep, pushed out along %.0f\n", scene.Objects[c.Object], c.Depth*1000, c.Normal)
	}
	for _, n := range s.Near {
		fmt.Printf("%.1f mm from the %s\n", n.Distance*1000, scene.Objects[n.Object])
	}
	// Output:
	// methods: [convex surface]
	// touching the crate 5.0 mm deep, pushed out along [1 0 0]
	// 3.0 mm from the sheet
}
