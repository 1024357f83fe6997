package geom

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// bruteMinBall is the smallest of the balls through at most four of the
// points (a minimal enclosing ball is fixed by at most four) that hold
// them all.
func bruteMinBall(pts []Vec3) Ball {
	best := Ball{Radius: math.Inf(1)}
	n := len(pts)
	try := func(s ...Vec3) {
		b := boundaryBall(s)
		if b.Radius >= best.Radius {
			return
		}
		for _, p := range pts {
			if !b.Contains(p) {
				return
			}
		}
		best = b
	}
	for i := range n {
		try(pts[i])
		for j := i + 1; j < n; j++ {
			try(pts[i], pts[j])
			for k := j + 1; k < n; k++ {
				try(pts[i], pts[j], pts[k])
				for l := k + 1; l < n; l++ {
					try(pts[i], pts[j], pts[k], pts[l])
				}
			}
		}
	}
	return best
}

// TestMinBallIsTheSmallest: on seeded random clouds, including coplanar,
// collinear, lattice and repeated points, MinBall holds every point and
// its radius is the brute-force minimum's.
func TestMinBallIsTheSmallest(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 4))
	for trial := range 3000 {
		n := 1 + r.IntN(11)
		pts := make([]Vec3, n)
		for i := range pts {
			switch trial % 5 {
			case 0:
				pts[i] = Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
			case 1: // coplanar
				pts[i] = Vec3{r.Float64(), r.Float64(), 0.5}
			case 2: // collinear
				x := r.Float64()
				pts[i] = Vec3{x, 2 * x, -x}
			case 3: // a lattice: many cospherical and repeated points
				pts[i] = Vec3{float64(r.IntN(3)), float64(r.IntN(3)), float64(r.IntN(3))}
			default: // on a sphere
				pts[i] = Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize().Add(Vec3{5, -3, 1})
			}
		}
		want := bruteMinBall(pts)
		got := MinBall(slices.Clone(pts))
		for _, p := range pts {
			if !got.Contains(p) {
				t.Fatalf("trial %d: %v is outside %+v", trial, p, got)
			}
		}
		if math.Abs(got.Radius-want.Radius) > 1e-9*(1+want.Radius) {
			t.Fatalf("trial %d (%d points): radius %v, brute force %v", trial, n, got.Radius, want.Radius)
		}
	}
}

// TestMinBallOfManyPointsOnASphere: 20,000 points on the unit sphere have
// the unit ball, to the spread of the points.
func TestMinBallOfManyPointsOnASphere(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	pts := make([]Vec3, 20000)
	for i := range pts {
		pts[i] = Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize()
	}
	b := MinBall(pts)
	if b.Radius > 1+1e-12 || b.Radius < 0.999 || b.Center.Len() > 1e-3 {
		t.Errorf("got %+v, want about the unit ball", b)
	}
	if e := MinBall(nil); e.Radius != -1 {
		t.Errorf("the empty set's ball has radius %v, want -1", e.Radius)
	}
}

// TestBoundaryBallPassesThroughItsPoints: the ball through three points
// has its centre in their plane and the ball through four is their
// circumsphere: every point at the radius.
func TestBoundaryBallPassesThroughItsPoints(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	for range 2000 {
		for _, n := range []int{2, 3, 4} {
			s := make([]Vec3, n)
			for i := range s {
				s[i] = Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
			}
			b := boundaryBall(s)
			for _, p := range s {
				if d := p.Sub(b.Center).Len(); math.Abs(d-b.Radius) > 1e-9*b.Radius {
					t.Fatalf("%d points: %v is %v from the centre, radius %v", n, p, d, b.Radius)
				}
			}
			if n == 3 {
				nrm := s[1].Sub(s[0]).Cross(s[2].Sub(s[0])).Normalize()
				if off := math.Abs(nrm.Dot(b.Center.Sub(s[0]))); off > 1e-9*b.Radius {
					t.Fatalf("the centre is %g off the three points' plane", off)
				}
			}
		}
	}
}
