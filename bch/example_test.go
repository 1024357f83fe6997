package bch_test

import (
	"fmt"

	"github.com/gloved/gloved/bch"
	"github.com/gloved/gloved/geom"
)

// Two parallel strips of triangles 2 cm apart, as trees about the z axis, built as trees and queried at
// full depth and at the coarsest level.
func Example() {
	strip := func(y float64) []geom.Triangle { // 20 cm long, 1 cm wide
		var out []geom.Triangle
		for i := range 20 {
			x := 0.01 * float64(i)
			out = append(out, geom.Triangle{{X: x, Y: y}, {X: x + 0.01, Y: y}, {X: x, Y: y + 0.01, Z: 0.05}})
		}
		return out
	}
	var a, b bch.Tree
	up := geom.Vec3{Z: 1}
	a.Build(strip(0), up, bch.DefaultOptions)
	b.Build(strip(0.03), up, bch.DefaultOptions) // beside a, 2 cm apart
	full := bch.Query(&a, &b, -1, nil)
	coarse := bch.Query(&a, &b, 0, nil)
	fmt.Printf("full depth: collide %v\n", full.Hit)
	fmt.Printf("single cylinders: collide %v at level %d\n", coarse.Hit, coarse.Level)
	// Output:
	// full depth: collide false
	// single cylinders: collide true at level 0
}
