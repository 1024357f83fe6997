package env_test

import (
	"fmt"
	"slices"

	"github.com/go-gl/mathgl/mgl64"

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
	ball := env.Sphere("ball", mgl64.Vec3{}, 1, 2) // 8·4² triangles
	tree, err := env.Build(ball, env.BuildOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(ball.Tris), "triangles,", len(tree.Nodes), "nodes, valid:", tree.Validate() == nil)
	// Output: 128 triangles, 127 nodes, valid: true
}

// A Collider tests two trees, the second placed in the first's frame by a
// pose, and reports the crossing triangle pairs; reused, it allocates
// nothing. Here a square post (8 side triangles) is pushed through a cube:
// each side triangle crosses one triangle of the cube's top face and one of
// its bottom face.
func ExampleCollider_Collide() {
	cube, _ := env.Build(env.Box("cube", mgl64.Vec3{}, mgl64.Vec3{1, 1, 1}), env.BuildOptions{})
	post, _ := env.Build(env.Box("post", mgl64.Vec3{}, mgl64.Vec3{0.25, 0.25, 3}), env.BuildOptions{})
	var c env.Collider
	for _, x := range []float64{3, 0.5} {
		pose := geom.Transform{R: mgl64.Ident3(), T: mgl64.Vec3{x, -0.5, 0}}
		n := c.Collide(cube, post, pose)
		same := slices.Equal(c.Pairs, env.BruteForce(cube.Mesh, post.Mesh, pose))
		fmt.Printf("post at x=%.1f: %d crossing pairs (as brute force: %v)\n", x, n, same)
	}
	c.FirstContact = true
	fmt.Println("first contact only:", c.Collide(cube, post, geom.Transform{R: mgl64.Ident3(), T: mgl64.Vec3{0.5, -0.5, 0}}), "pair")
	// Output:
	// post at x=3.0: 0 crossing pairs (as brute force: true)
	// post at x=0.5: 16 crossing pairs (as brute force: true)
	// first contact only: 1 pair
}

// GraspScene is the built-in demo scene: a table and a ball whose
// triangle count is set by its subdivision level.
func ExampleGraspScene() {
	scene := env.GraspScene(3)
	fmt.Println(scene.Objects, len(scene.Tris), "triangles")
	// Output: [table ball] 524 triangles
}
