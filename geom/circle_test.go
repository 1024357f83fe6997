package geom

import (
	"math"
	"math/rand/v2"
	"testing"
)

// bruteMinCircle is the smallest of the circles through two or three of
// the points (a minimal enclosing circle is fixed by at most three) that
// hold them all.
func bruteMinCircle(x, y []float64) Circle {
	n := len(x)
	if n == 1 {
		return Circle{X: x[0], Y: y[0]}
	}
	best := Circle{Radius: math.Inf(1)}
	try := func(c Circle) {
		if c.Radius >= best.Radius {
			return
		}
		for i := range x {
			if !c.Contains(x[i], y[i]) {
				return
			}
		}
		best = c
	}
	for i := range n {
		for j := i + 1; j < n; j++ {
			try(circ(disk2(x[i], y[i], x[j], y[j])))
			for k := j + 1; k < n; k++ {
				try(circ(disk3(x[i], y[i], x[j], y[j], x[k], y[k])))
			}
		}
	}
	return best
}

// TestMinCircleIsTheSmallest: on seeded random point sets, including
// collinear, repeated, lattice and cocircular points, MinCircle holds
// every point and its radius is the brute-force minimum's, in any order.
func TestMinCircleIsTheSmallest(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 7))
	for trial := range 4000 {
		n := 1 + r.IntN(12)
		x, y := make([]float64, n), make([]float64, n)
		for i := range n {
			switch trial % 5 {
			case 0:
				x[i], y[i] = r.NormFloat64(), r.NormFloat64()
			case 1: // collinear
				s := r.Float64()
				x[i], y[i] = 0.3+2*s, -1+s
			case 2: // lattice, with repeats
				x[i], y[i] = float64(r.IntN(3)), float64(r.IntN(3))
			case 3: // cocircular
				a := 2 * math.Pi * r.Float64()
				x[i], y[i] = 5+math.Cos(a), -2+math.Sin(a)
			case 4: // far from the origin, small
				x[i], y[i] = 1e3+1e-3*r.Float64(), -1e3+1e-3*r.Float64()
			}
		}
		perm := make([]int32, n)
		for i, p := range r.Perm(n) {
			perm[i] = int32(p)
		}
		got, want := MinCircle(x, y, perm), bruteMinCircle(x, y)
		for i := range n {
			if !got.Contains(x[i], y[i]) {
				t.Fatalf("trial %d: %+v leaves out point %d (%v, %v)", trial, got, i, x[i], y[i])
			}
		}
		if math.Abs(got.Radius-want.Radius) > 1e-9*(1+want.Radius) {
			t.Fatalf("trial %d: radius %v, brute force %v (%d points)", trial, got.Radius, want.Radius, n)
		}
	}
	if c := MinCircle(nil, nil, nil); c.Radius != -1 {
		t.Errorf("empty set: %+v", c)
	}
}

// TestMinCircleAllocatesNothing: the build calls it per node.
func TestMinCircleAllocatesNothing(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	x, y := make([]float64, 500), make([]float64, 500)
	for i := range x {
		x[i], y[i] = r.NormFloat64(), r.NormFloat64()
	}
	if n := testing.AllocsPerRun(20, func() { MinCircle(x, y, nil) }); n != 0 {
		t.Fatalf("%v allocations", n)
	}
}

// circ is d as a Circle.
func circ(d disk) Circle { return Circle{X: d.x, Y: d.y, Radius: math.Sqrt(d.r2)} }
