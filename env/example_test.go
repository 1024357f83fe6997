package env_test

import (
	"fmt"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
)

// Load reads OBJ, STL and glTF files. Polygons become triangle fans, every
// `o` or `g` line starts an object, and each object is tested for being
// closed and convex (the narrow phase treats those as solids).
func ExampleLoad() {
	m, err := env.Load("../testdata/scenes/two_objects.obj", env.LoadOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(m.Tris), "triangles")
	for o, name := range m.Objects {
		fmt.Printf("%s: convex %v\n", name, m.Convex[o])
	}
	// Output:
	// 16 triangles
	// cube: convex true
	// table top: convex false
}

// LoadOptions place a file in gloved's Y-up world in metres: here a Z-up
// file written in millimetres.
func ExampleLoad_options() {
	m, err := env.Load("../testdata/scenes/two_objects.obj", env.LoadOptions{Scale: 0.001, Up: env.UpZ})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.3f\n", m.Verts[6]) // the cube's corner (1, 1, 1)
	// Output: [0.001 0.001 -0.001]
}

// Build makes the OBBTree over a mesh: n triangles give n-1 nodes in one
// flat array, each triangle its own leaf.
func ExampleBuild() {
	ball := env.Sphere("ball", geom.Vec3{}, 1, 2) // 8·4² triangles
	tree, err := env.Build(ball, env.BuildOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(ball.Tris), "triangles,", len(tree.Nodes), "nodes, valid:", tree.Validate() == nil)
	// Output: 128 triangles, 127 nodes, valid: true
}

// GraspScene is the built-in demo scene: a table and a ball whose
// triangle count is set by its subdivision level.
func ExampleGraspScene() {
	scene := env.GraspScene(3)
	fmt.Println(scene.Objects, len(scene.Tris), "triangles")
	// Output: [table ball] 524 triangles
}
