package geom

import "math"

// Circle is a disk in a plane, in that plane's coordinates.
type Circle struct {
	X, Y   float64 // centre
	Radius float64
}

// circleTol is the relative slack with which a point on a circle's
// boundary, after rounding, still counts as inside it.
const circleTol = 1e-12

// Contains reports whether (x, y) is in the disk, up to rounding.
func (c Circle) Contains(x, y float64) bool {
	r := c.Radius * (1 + circleTol)
	dx, dy := x-c.X, y-c.Y
	return c.Radius >= 0 && dx*dx+dy*dy <= r*r+1e-300
}

// Overlaps reports whether two disks share a point.
func (c Circle) Overlaps(d Circle) bool {
	dx, dy, r := c.X-d.X, c.Y-d.Y, c.Radius+d.Radius
	return dx*dx+dy*dy <= r*r
}

// disk is a circle by its squared radius, as MinCircle works on it: no
// square root until the answer.
type disk struct{ x, y, r2 float64 }

// holds is Contains on a disk: the same slack, on the square.
func (d *disk) holds(x, y float64) bool {
	dx, dy := x-d.x, y-d.y
	return dx*dx+dy*dy <= d.r2*(1+2*circleTol)+1e-300
}

// MinCircle returns the smallest disk holding every point (Welzl 1991 in
// its iterative move-to-front form, expected linear time for points in
// random order): x[i], y[i] is point i. The points are taken in the order
// perm gives (a permutation of their indices; nil takes them in order,
// which should then be random). An empty set gives radius -1. It
// allocates nothing.
func MinCircle(x, y []float64, perm []int32) Circle {
	n := len(x)
	at := func(i int) int {
		if perm == nil {
			return i
		}
		return int(perm[i])
	}
	if n == 0 {
		return Circle{Radius: -1}
	}
	p := at(0)
	c := disk{x: x[p], y: y[p]}
	for i := 1; i < n; i++ {
		pi := at(i)
		if c.holds(x[pi], y[pi]) {
			continue
		}
		// pi is on the boundary of the circle of the points so far.
		c = disk{x: x[pi], y: y[pi]}
		for j := 0; j < i; j++ {
			pj := at(j)
			if c.holds(x[pj], y[pj]) {
				continue
			}
			// pi and pj are on its boundary.
			c = disk2(x[pi], y[pi], x[pj], y[pj])
			for k := 0; k < j; k++ {
				pk := at(k)
				if !c.holds(x[pk], y[pk]) {
					c = disk3(x[pi], y[pi], x[pj], y[pj], x[pk], y[pk])
				}
			}
		}
	}
	return Circle{X: c.x, Y: c.y, Radius: math.Sqrt(c.r2)}
}

// disk2 is the smallest disk with two points on its boundary: on their
// midpoint.
func disk2(ax, ay, bx, by float64) disk {
	cx, cy := 0.5*(ax+bx), 0.5*(ay+by)
	return disk{cx, cy, math.Max(sq2(ax-cx, ay-cy), sq2(bx-cx, by-cy))}
}

// disk3 is the smallest disk with three points on its boundary: their
// circumcircle, or for (nearly) collinear points the disk on the two
// furthest apart, which then holds the third. The radius is the furthest
// of the three from the centre, so rounding never leaves one out.
func disk3(ax, ay, bx, by, qx, qy float64) disk {
	ux, uy, vx, vy := bx-ax, by-ay, qx-ax, qy-ay
	d := 2 * (ux*vy - uy*vx)
	uu, vv := ux*ux+uy*uy, vx*vx+vy*vy
	if math.Abs(d) > 1e-12*math.Sqrt(uu*vv) {
		cx := ax + (vy*uu-uy*vv)/d
		cy := ay + (ux*vv-vx*uu)/d
		return disk{cx, cy, math.Max(sq2(ax-cx, ay-cy), math.Max(sq2(bx-cx, by-cy), sq2(qx-cx, qy-cy)))}
	}
	best := disk2(ax, ay, bx, by)
	for _, c := range [2]disk{disk2(ax, ay, qx, qy), disk2(bx, by, qx, qy)} {
		if c.r2 > best.r2 {
			best = c
		}
	}
	return best
}

// sq2 is x² + y².
func sq2(x, y float64) float64 { return x*x + y*y }
