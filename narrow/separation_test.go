package narrow

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
)

// approach is a pair of random hulls, B swept in small steps from apart
// through A and out again, turning as it goes: the frame-to-frame motion a
// cached query is for.
func approach(r *rand.Rand, steps int, fn func(a, b hullShape, xa, xb geom.Transform)) {
	a, b := randomHull(r, 6+r.IntN(30), 1), randomHull(r, 6+r.IntN(30), 1)
	xa := randTransform(r, 0.3)
	from := geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Normalize().Mul(3)
	q0 := mgl64.Quat{W: r.NormFloat64(), V: mgl64.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}}.Normalize()
	spin := mgl64.QuatRotate(0.02, mgl64.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize())
	for i := range steps {
		s := 1 - 2*float64(i)/float64(steps-1) // 1 .. -1: in and out
		q := q0
		for range i {
			q = spin.Mul(q)
		}
		xb, _ := geom.FromQuat(q, xa.T.Add(from.Mul(s)))
		fn(a, b, xa, xb)
	}
}

// TestIntersectsCachedIsIntersects: along approaches, the cached boolean
// query answers as the cold distance query does (itself checked against
// the reference separation), whether the last measurement, the cached
// plane, the warm GJK or a cold one answers, and its gap bounds the
// distance from below.
func TestIntersectsCachedIsIntersects(t *testing.T) {
	r := rand.New(rand.NewPCG(83, 83))
	planes := 0
	for range 300 {
		var c Cache
		approach(r, 120, func(a, b hullShape, xa, xb geom.Transform) {
			sa, sb := Shape{P: a.poly, X: xa}, Shape{P: b.poly, X: xb}
			cold := Distance(&sa, &sb, nil)
			if c.Axis != (geom.Vec3{}) {
				planes++
			}
			got, gap := IntersectsCached(&sa, &sb, &c)
			if got != cold.Overlap {
				t.Fatalf("cached query says overlap %v, the cold one %v at distance %g", got, cold.Overlap, cold.Distance)
			}
			if gap < 0 || gap > cold.Distance+1e-12 || (got && gap != 0) {
				t.Fatalf("cached query gives the lower bound %g on the distance %g", gap, cold.Distance)
			}
		})
	}
	if planes < 5000 {
		t.Errorf("a cached plane was on hand %d times: the test does not reach it", planes)
	}
}

// TestPenetrationCachedIsPenetration: along approaches, the depth started
// from the last frame's deepest face equals the cold query's (itself
// checked against the reference), its normal is a direction of least
// overlap, its points differ by the depth along it, and it never claims
// an overlap the cold query denies; where it cannot start, the cold query
// runs and keeps its face for the next frame.
func TestPenetrationCachedIsPenetration(t *testing.T) {
	r := rand.New(rand.NewPCG(86, 86))
	warm, overlaps := 0, 0
	for range 300 {
		var c Cache
		approach(r, 120, func(a, b hullShape, xa, xb geom.Transform) {
			sa, sb := Shape{P: a.poly, X: xa}, Shape{P: b.poly, X: xb}
			cold := Distance(&sa, &sb, nil)
			var want PenetrationResult
			if cold.Overlap {
				overlaps++
				want = Penetration(&sa, &sb, &cold, nil)
			}
			got, ok := PenetrationCached(&sa, &sb, &c)
			if !ok {
				d := Distance(&sa, &sb, &c)
				if d.Overlap {
					Penetration(&sa, &sb, &d, &c)
				}
				return
			}
			warm++
			if !cold.Overlap {
				t.Fatalf("the warm start claims an overlap at distance %g", cold.Distance)
			}
			size := a.poly.Size() + b.poly.Size()
			if !got.Exact || math.Abs(got.Depth-want.Depth) > 1e-9*size {
				t.Fatalf("warm depth %v (exact %v), cold %v", got.Depth, got.Exact, want.Depth)
			}
			least := supportOf(worldVerts(a, xa), got.Normal.Mul(-1)) + supportOf(worldVerts(b, xb), got.Normal)
			if math.Abs(least-got.Depth) > 1e-9*size || math.Abs(got.Normal.Len()-1) > 1e-12 {
				t.Fatalf("warm normal %v overlaps by %v, not the depth %v", got.Normal, least, got.Depth)
			}
			if got.PointB.Sub(got.PointA).Sub(got.Normal.Mul(got.Depth)).Len() > 1e-9*size {
				t.Fatalf("warm points %v, %v are not the depth %v apart along %v", got.PointA, got.PointB, got.Depth, got.Normal)
			}
		})
	}
	if warm < overlaps/2 {
		t.Errorf("the warm start answered %d of %d overlapping frames", warm, overlaps)
	}
	t.Logf("warm starts: %d of %d overlapping frames", warm, overlaps)
}

// TestDistanceBoundsHoldTheDistance: the bounds from a cache hold the
// distance (the cold query's) however far the pair has moved since its
// last measurement, and right after a Distance query they are the
// distance itself.
func TestDistanceBoundsHoldTheDistance(t *testing.T) {
	r := rand.New(rand.NewPCG(84, 84))
	steps := 0
	for range 300 {
		var c Cache
		approach(r, 120, func(a, b hullShape, xa, xb geom.Transform) {
			sa, sb := Shape{P: a.poly, X: xa}, Shape{P: b.poly, X: xb}
			want := Distance(&sa, &sb, nil).Distance
			lo, hi := DistanceBounds(&sa, &sb, &c)
			if lo > want+1e-9 || hi < want-1e-9 || lo < 0 {
				t.Fatalf("bounds [%g, %g] do not hold the distance %g", lo, hi, want)
			}
			if steps++; steps%7 != 0 {
				return // the pair drifts further from its last measurement
			}
			d := Distance(&sa, &sb, &c)
			// Right after the query the bounds are the distance, to the
			// part in a billion of the pair's size they leave for
			// rounding.
			if lo, hi = DistanceBounds(&sa, &sb, &c); !d.Overlap && (lo > d.Distance || lo < d.Distance-1e-7 || hi < d.Distance || hi > d.Distance+1e-7) {
				t.Fatalf("after the query: bounds [%g, %g], distance %g", lo, hi, d.Distance)
			}
		})
	}
}

// TestCachedQueriesAllocateNothing: the cached boolean query and the bounds
// allocate nothing.
func TestCachedQueriesAllocateNothing(t *testing.T) {
	r := rand.New(rand.NewPCG(85, 85))
	a, b := randomHull(r, 30, 1), randomHull(r, 30, 1)
	sa, sb := Shape{P: a.poly, X: geom.Identity()}, Shape{P: b.poly, X: randTransform(r, 2)}
	var c Cache
	if n := testing.AllocsPerRun(100, func() {
		IntersectsCached(&sa, &sb, &c)
		DistanceBounds(&sa, &sb, &c)
	}); n != 0 {
		t.Fatalf("%v allocations", n)
	}
}
