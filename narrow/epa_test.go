package narrow

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
)

// TestContactPointsFaceEachOther: the contact points of every overlap are
// a point of A and a point of B, each on its shape's support plane, Depth
// apart along Normal. Where an edge of A crosses an edge of B the facet
// of A - B is a parallelogram split into triangles at the same distance;
// weights taken in the triangle that does not hold the origin's
// projection put the points on the right edges but not facing each other.
func TestContactPointsFaceEachOther(t *testing.T) {
	r := rand.New(rand.NewPCG(66, 66))
	cases := 0
	check := func(name string, a, b hullShape, xa, xb geom.Transform) {
		t.Helper()
		d, p := query(a, b, xa, xb, nil)
		if !d.Overlap || !p.Exact {
			return
		}
		cases++
		tol := 1e-9 * (1 + p.Depth)
		if got := p.PointB.Sub(p.PointA).Sub(p.Normal.Mul(p.Depth)).Len(); got > tol {
			t.Fatalf("%s: PointB - PointA is %v off Depth·Normal (points %v %v, depth %v, normal %v)", name, got, p.PointA, p.PointB, p.Depth, p.Normal)
		}
		// PointA is A's deepest point along -Normal, PointB B's furthest
		// along Normal.
		if got := -supportOf(worldVerts(a, xa), p.Normal.Mul(-1)) - p.PointA.Dot(p.Normal); math.Abs(got) > tol {
			t.Fatalf("%s: PointA %v is %v off A's support plane", name, p.PointA, got)
		}
		if got := supportOf(worldVerts(b, xb), p.Normal) - p.PointB.Dot(p.Normal); math.Abs(got) > tol {
			t.Fatalf("%s: PointB %v is %v off B's support plane", name, p.PointB, got)
		}
	}
	for range 1500 {
		a, b := randomHull(r, 6+r.IntN(20), 1), randomHull(r, 6+r.IntN(20), 1)
		check("random pair", a, b, randTransform(r, 0.3), randTransform(r, 1.6))
	}
	// Crossed bars turned at random about the vertical: edge across edge.
	bar := boxHull(geom.Vec3{X: 5, Y: 1, Z: 1})
	for range 200 {
		turn := mgl64.HomogRotate3DZ(r.Float64() * math.Pi).Mat3()
		xa := geom.Transform{R: mgl64.HomogRotate3DX(math.Pi / 4).Mat3(), T: geom.Vec3{X: r.Float64() - 0.5, Y: r.Float64() - 0.5, Z: math.Sqrt2 - 0.05}}
		xb := geom.Transform{R: turn.Mul3(mgl64.HomogRotate3DX(math.Pi / 4).Mat3()), T: geom.Vec3{Z: -math.Sqrt2 + 0.05}}
		check("crossed bars", bar, bar, xa, xb)
	}
	if cases < 500 {
		t.Fatalf("only %d overlaps checked", cases)
	}
}
