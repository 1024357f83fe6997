package geom_test

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
)

// A point a metre up and half a metre ahead of gloved's origin, and a
// quarter turn about gloved's up axis, in each preset: Unity flips Z (and
// so the turn's sense: the quaternion's x and y change sign), Unreal and
// ROS put up on Z and ahead on X, Unreal in centimetres.
func ExampleConvention() {
	p := mgl64.Vec3{0, 1, -0.5}
	q := mgl64.QuatRotate(mgl64.DegToRad(90), mgl64.Vec3{0, 1, 0})
	for _, c := range geom.Conventions {
		r := c.Quat(q)
		fmt.Printf("%-6s point %v, turn (%v, %v, %v, %v)\n", c.Name(), c.Point(p), r3(r.V[0]), r3(r.V[1]), r3(r.V[2]), r3(r.W))
	}
	// Output:
	// gloved point [0 1 -0.5], turn (0, 0.707, 0, 0.707)
	// unity  point [0 1 0.5], turn (0, -0.707, 0, 0.707)
	// unreal point [50 0 100], turn (0, 0, -0.707, 0.707)
	// ros    point [0.5 0 1], turn (0, 0, 0.707, 0.707)
}

// r3 rounds to three decimals, -0 to 0.
func r3(x float64) float64 { return math.Round(x*1000)/1000 + 0 }
