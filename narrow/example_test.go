package narrow_test

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/narrow"
)

// cube returns an axis-aligned cube of edge 1 centered on its frame's
// origin.
func cube() *narrow.Polytope {
	var verts []geom.Vec3
	for i := range 8 {
		half := func(bit int) float64 { // corner i is on the - side where its bit is set
			if i&bit != 0 {
				return -0.5
			}
			return 0.5
		}
		verts = append(verts, geom.Vec3{X: half(1), Y: half(2), Z: half(4)})
	}
	p, err := narrow.NewPolytope(verts, nil) // few vertices: no faces needed
	if err != nil {
		panic(err)
	}
	return p
}

// at returns the pose that moves a shape to p without turning it.
func at(p geom.Vec3) geom.Transform { return geom.Transform{R: mgl64.Ident3(), T: p} }

// Two unit cubes 1 m apart along x: their facing faces are x = 0.5 and
// x = 1.5. Faces facing faces make any facing pair of points closest, so
// only the x coordinates of the closest points are fixed.
func ExampleDistance() {
	p := cube()
	a := narrow.Shape{P: p, X: at(geom.Vec3{})}
	b := narrow.Shape{P: p, X: at(geom.Vec3{X: 2})}
	var cache narrow.Cache // kept per pair, it warm-starts the next frame
	d := narrow.Distance(&a, &b, &cache)
	fmt.Printf("overlap %v, distance %.3f\n", d.Overlap, d.Distance)
	fmt.Printf("closest points at x = %.3f on A and x = %.3f on B\n", d.PointA.X, d.PointB.X)
	// Output:
	// overlap false, distance 1.000
	// closest points at x = 0.500 on A and x = 1.500 on B
}

// A unit cube sunk 0.1 into another from above: the shortest way out is
// 0.1 straight up. A's bottom face (z = 0.4) is inside B, whose top face
// is z = 0.5.
func ExamplePenetration() {
	p := cube()
	a := narrow.Shape{P: p, X: at(geom.Vec3{X: 0.2, Y: -0.1, Z: 0.9})}
	b := narrow.Shape{P: p, X: at(geom.Vec3{})}
	d := narrow.Distance(&a, &b, nil)
	if !d.Overlap {
		return
	}
	pen := narrow.Penetration(&a, &b, &d, nil)
	fmt.Printf("depth %.3f, normal (%.3f, %.3f, %.3f), exact %v\n", pen.Depth, pen.Normal.X, pen.Normal.Y, pen.Normal.Z, pen.Exact)
	fmt.Printf("deepest point of A at z = %.3f, on B's surface at z = %.3f\n", pen.PointA.Z, pen.PointB.Z)
	// Output:
	// depth 0.100, normal (0.000, 0.000, 1.000), exact true
	// deepest point of A at z = 0.400, on B's surface at z = 0.500
}

// Intersects answers only whether two shapes share a point, and stops at
// the first separating plane it finds.
func ExampleIntersects() {
	p := cube()
	a := narrow.Shape{P: p, X: at(geom.Vec3{})}
	touching := narrow.Shape{P: p, X: at(geom.Vec3{X: 1})}
	apart := narrow.Shape{P: p, X: at(geom.Vec3{X: 1.001})}
	fmt.Println(narrow.Intersects(&a, &touching), narrow.Intersects(&a, &apart))
	// Output:
	// true false
}
