package narrow

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gloved/gloved/geom"
)

// flatHull is a random hull of n points flattened to thickness flat.
func flatHull(r *rand.Rand, n int, flat float64) hullShape {
	pts := make([]geom.Vec3, n)
	for i := range pts {
		pts[i] = geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64() * flat}
	}
	return makeHull(pts)
}

// sphereHull is a hull of n random points on the unit sphere: many
// vertices, so an expansion can run out of room.
func sphereHull(r *rand.Rand, n int) hullShape {
	pts := make([]geom.Vec3, n)
	for i := range pts {
		pts[i] = geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Normalize()
	}
	return makeHull(pts)
}

// TestPenetrationCachedNeverGuesses: over hulls a warm start finds hard
// (slivers 1e-9 thick, boxes with parallel faces, 300-vertex spheres that
// fill the polytope's room, random hulls) moved smoothly, in random jumps
// and in axis-aligned jumps, the warm query answers only when it is exact
// and the shapes overlap, with the cold query's depth to 1e-9 of the
// size; everything else it leaves to the cold queries.
func TestPenetrationCachedNeverGuesses(t *testing.T) {
	kinds := []struct {
		name string
		make func(r *rand.Rand) (hullShape, hullShape)
	}{
		{"random", func(r *rand.Rand) (hullShape, hullShape) {
			return randomHull(r, 6+r.IntN(30), 1), randomHull(r, 6+r.IntN(30), 1)
		}},
		{"spheres", func(r *rand.Rand) (hullShape, hullShape) { return sphereHull(r, 300), sphereHull(r, 300) }},
		{"slivers", func(r *rand.Rand) (hullShape, hullShape) { return flatHull(r, 20, 1e-9), flatHull(r, 20, 1e-9) }},
		{"sliver and hull", func(r *rand.Rand) (hullShape, hullShape) { return flatHull(r, 20, 1e-9), randomHull(r, 20, 1) }},
		{"boxes", func(r *rand.Rand) (hullShape, hullShape) {
			return boxHull(geom.Vec3{X: 1, Y: 0.5, Z: 0.25}), boxHull(geom.Vec3{X: 0.7, Y: 0.7, Z: 0.1})
		}},
	}
	for _, k := range kinds {
		r := rand.New(rand.NewPCG(87, 87))
		warm := 0
		check := func(a, b hullShape, xa, xb geom.Transform, c *Cache) {
			sa, sb := Shape{P: a.poly, X: xa}, Shape{P: b.poly, X: xb}
			got, ok := PenetrationCached(&sa, &sb, c)
			if !ok {
				if d := Distance(&sa, &sb, c); d.Overlap {
					Penetration(&sa, &sb, &d, c)
				}
				return
			}
			warm++
			cold := Distance(&sa, &sb, nil)
			if !cold.Overlap {
				t.Fatalf("%s: the warm query claims an overlap at distance %g", k.name, cold.Distance)
			}
			want := Penetration(&sa, &sb, &cold, nil)
			size := a.poly.Size() + b.poly.Size()
			if !got.Exact || (want.Exact && math.Abs(got.Depth-want.Depth) > 1e-9*size) {
				t.Fatalf("%s: warm depth %v (exact %v), cold %v (exact %v)", k.name, got.Depth, got.Exact, want.Depth, want.Exact)
			}
		}
		for shape := range 40 {
			a, b := k.make(r)
			var c Cache
			switch shape % 3 {
			case 0: // random jumps
				xa := randTransform(r, 0.3)
				for range 80 {
					xb := randTransform(r, 0.3)
					xb.T = xb.T.Add(xa.T).Add(geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Mul(0.8))
					check(a, b, xa, xb, &c)
				}
			case 1: // axis-aligned jumps, faces parallel
				for range 80 {
					xb := geom.Identity()
					xb.T = geom.Vec3{X: float64(r.IntN(9)-4) * 0.3, Y: float64(r.IntN(9)-4) * 0.3, Z: float64(r.IntN(9)-4) * 0.1}
					check(a, b, geom.Identity(), xb, &c)
				}
			default: // smooth approaches
				approach(r, 120, func(_, _ hullShape, xa, xb geom.Transform) { check(a, b, xa, xb, &c) })
			}
		}
		if warm == 0 && k.name != "slivers" {
			t.Errorf("%s: the warm query never answered", k.name)
		}
		t.Logf("%s: %d warm answers", k.name, warm)
	}
}
