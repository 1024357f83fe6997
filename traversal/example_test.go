package traversal_test

import (
	"fmt"
	"slices"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/traversal"
)

// A Collider tests two trees, the second placed in the first's frame by a
// pose, and reports the crossing triangle pairs; reused, it allocates
// nothing. Here a square post (8 side triangles) is pushed through a cube:
// each side triangle crosses one triangle of the cube's top face and one of
// its bottom face.
func ExampleCollider_Collide() {
	cube, _ := env.Build(env.Box("cube", geom.Vec3{}, geom.Vec3{X: 1, Y: 1, Z: 1}), env.BuildOptions{})
	post, _ := env.Build(env.Box("post", geom.Vec3{}, geom.Vec3{X: 0.25, Y: 0.25, Z: 3}), env.BuildOptions{})
	var c traversal.Collider
	for _, x := range []float64{3, 0.5} {
		pose := geom.Transform{R: mgl64.Ident3(), T: geom.Vec3{X: x, Y: -0.5}}
		n := c.Collide(cube, post, pose)
		same := slices.Equal(c.Pairs, traversal.BruteForce(cube.Mesh, post.Mesh, pose))
		fmt.Printf("post at x=%.1f: %d crossing pairs (as brute force: %v)\n", x, n, same)
	}
	c.FirstContact = true
	fmt.Println("first contact only:", c.Collide(cube, post, geom.Transform{R: mgl64.Ident3(), T: geom.Vec3{X: 0.5, Y: -0.5}}), "pair")
	// Output:
	// post at x=3.0: 0 crossing pairs (as brute force: true)
	// post at x=0.5: 16 crossing pairs (as brute force: true)
	// first contact only: 1 pair
}
