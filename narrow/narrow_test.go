package narrow

import (
	"math"
	"math/rand/v2"
	"testing"


	"github.com/gloved/gloved/geom"
)

func query(a, b hullShape, xa, xb geom.Transform, c *Cache) (DistanceResult, PenetrationResult) {
	sa, sb := Shape{P: a.poly, X: xa}, Shape{P: b.poly, X: xb}
	d := Distance(&sa, &sb, c)
	var p PenetrationResult
	if d.Overlap {
		p = Penetration(&sa, &sb, &d)
	}
	return d, p
}

func TestRandomPairsAgainstReferences(t *testing.T) {
	r := rand.New(rand.NewPCG(61, 61))
	overlaps, apart := 0, 0
	for i := range 1500 {
		a := randomHull(r, 6+r.IntN(20), 1)
		b := randomHull(r, 6+r.IntN(20), 1)
		xa, xb := randTransform(r, 0.3), randTransform(r, 1.6)
		d, p := query(a, b, xa, xb, nil)
		pd, pdir := refPenetration(a, b, xa, xb)
		if d.Overlap != (pd >= -1e-9) {
			t.Fatalf("pair %d: GJK overlap %v but reference separation %v", i, d.Overlap, -pd)
		}
		if d.Overlap {
			overlaps++
			if !p.Exact {
				t.Fatalf("pair %d: penetration not converged: %+v", i, p)
			}
			if math.Abs(p.Depth-pd) > 1e-9*(1+pd) {
				t.Fatalf("pair %d: depth %v, reference %v", i, p.Depth, pd)
			}
			// Pushing A along the normal by the depth separates.
			if got := supportOf(worldVerts(a, xa), p.Normal.Mul(-1)) + supportOf(worldVerts(b, xb), p.Normal); math.Abs(got-p.Depth) > 1e-9*(1+pd) {
				t.Fatalf("pair %d: normal %v is not a minimal direction (%v vs %v; reference %v)", i, p.Normal, got, p.Depth, pdir)
			}
			continue
		}
		apart++
		want := refDistance(a, b, xa, xb)
		if math.Abs(d.Distance-want) > 1e-9*(1+want) {
			t.Fatalf("pair %d: distance %v, reference %v", i, d.Distance, want)
		}
		if math.Abs(d.PointA.Sub(d.PointB).Len()-d.Distance) > 1e-12 {
			t.Fatalf("pair %d: witnesses do not match the distance", i)
		}
	}
	if overlaps < 300 || apart < 300 {
		t.Fatalf("workload lopsided: %d overlaps, %d apart", overlaps, apart)
	}
}
