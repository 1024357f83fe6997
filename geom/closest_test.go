package geom

import (
	"math"
	"math/rand/v2"
	"testing"
)

// sampledDist is the least distance between sampled points of segment ab
// and of triangle t: an upper bound that tends to the distance.
func sampledDist(a, b Vec3, t Triangle, n int) float64 {
	best := math.Inf(1)
	for i := 0; i <= n; i++ {
		p := a.Add(b.Sub(a).Mul(float64(i) / float64(n)))
		q, _ := ClosestOnTriangle(t, p)
		best = math.Min(best, q.Sub(p).Len())
	}
	return best
}

func rv3(r *rand.Rand) Vec3 {
	return Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
}

func TestClosestOnTriangleIsNearestOfDenseSamples(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		tri := Triangle{rv3(r), rv3(r), rv3(r)}
		if r.IntN(10) == 0 {
			tri[2] = tri[0].Add(tri[1].Sub(tri[0]).Mul(r.Float64())) // collinear
		}
		p := rv3(r).Mul(2)
		q, f := ClosestOnTriangle(tri, p)
		d := q.Sub(p).Len()
		for i := 0; i <= 40; i++ {
			for j := 0; i+j <= 40; j++ {
				s := tri[0].Add(tri[1].Sub(tri[0]).Mul(float64(i) / 40)).Add(tri[2].Sub(tri[0]).Mul(float64(j) / 40))
				if s.Sub(p).Len() < d-1e-12 {
					t.Fatalf("triangle %v point %v: closest %v (%v) at %v, sample %v nearer", tri, p, q, f, d, s)
				}
			}
		}
		if k, ok := f.Corner(); ok && q != tri[k] {
			t.Fatalf("corner feature %v but point %v", f, q)
		}
	}
}

func TestSegmentTriangleDistAgainstSampling(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	crossing := 0
	for range 3000 {
		tri := Triangle{rv3(r), rv3(r), rv3(r)}
		a, b := rv3(r).Mul(1.5), rv3(r).Mul(1.5)
		got, want := SegmentTriangleDist(a, b, tri), sampledDist(a, b, tri, 4000)
		if got > want+1e-12 || got < want-2e-3 {
			t.Fatalf("segment %v %v triangle %v: %v, sampled %v", a, b, tri, got, want)
		}
		if got < 1e-12 {
			crossing++
		}
	}
	if crossing < 100 {
		t.Fatalf("only %d crossing segments: the cases test little", crossing)
	}
}
