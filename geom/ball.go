package geom

import (
	"math"
	"math/rand/v2"
)

// Ball is a solid sphere.
type Ball struct {
	Center Vec3
	Radius float64
}

// ballTol is the relative slack with which a point on a ball's boundary,
// after rounding, still counts as inside it.
const ballTol = 1e-12

// Contains reports whether p is in the ball, up to rounding.
func (b Ball) Contains(p Vec3) bool {
	r := b.Radius * (1 + ballTol)
	return b.Radius >= 0 && p.Sub(b.Center).LenSqr() <= r*r+1e-300
}

// MinBall returns the smallest ball holding every point (Welzl 1991, with
// Gärtner's move-to-front: expected linear time). pts is reordered. An
// empty set gives radius -1.
func MinBall(pts []Vec3) Ball {
	r := rand.New(rand.NewPCG(uint64(len(pts)), 0x5bd1e995))
	r.Shuffle(len(pts), func(i, j int) { pts[i], pts[j] = pts[j], pts[i] })
	var support [4]Vec3
	return mtfBall(pts, len(pts), support[:0])
}

// mtfBall is the smallest ball holding pts[:end] with the points of
// support on its boundary; a point found outside joins the support and
// moves to the front, so that later passes meet it first.
func mtfBall(pts []Vec3, end int, support []Vec3) Ball {
	b := boundaryBall(support)
	if len(support) == 4 {
		return b
	}
	for i := 0; i < end; i++ {
		p := pts[i]
		if b.Contains(p) {
			continue
		}
		b = mtfBall(pts, i, append(support, p))
		copy(pts[1:i+1], pts[:i])
		pts[0] = p
	}
	return b
}

// boundaryBall is the smallest ball with every point of s (at most four)
// on its boundary. Points that do not span their count's dimension (two
// equal, three collinear, four coplanar) give the smallest ball of a
// subset holding them all.
func boundaryBall(s []Vec3) Ball {
	switch len(s) {
	case 0:
		return Ball{Radius: -1}
	case 1:
		return Ball{Center: s[0]}
	case 2:
		c := s[0].Add(s[1]).Mul(0.5)
		return Ball{Center: c, Radius: c.Sub(s[0]).Len()}
	case 3:
		a := s[0]
		u, v := s[1].Sub(a), s[2].Sub(a)
		w := u.Cross(v)
		if d := 2 * w.LenSqr(); d > 1e-24*u.LenSqr()*v.LenSqr() {
			c := a.Add(v.Mul(u.LenSqr()).Sub(u.Mul(v.LenSqr())).Cross(w).Mul(1 / d))
			return Ball{Center: c, Radius: maxDist(c, s)}
		}
	case 4:
		a := s[0]
		u, v, t := s[1].Sub(a), s[2].Sub(a), s[3].Sub(a)
		if d := 2 * u.Dot(v.Cross(t)); math.Abs(d) > 1e-12*u.Len()*v.Len()*t.Len() {
			c := a.Add(v.Cross(t).Mul(u.LenSqr()).Add(t.Cross(u).Mul(v.LenSqr())).Add(u.Cross(v).Mul(t.LenSqr())).Mul(1 / d))
			return Ball{Center: c, Radius: maxDist(c, s)}
		}
	}
	return degenerateBall(s)
}

// degenerateBall is the smallest ball holding points that do not span
// their count's dimension: the best of the balls through subsets.
func degenerateBall(s []Vec3) Ball {
	best := Ball{Radius: math.Inf(1)}
	n := len(s)
	var sub [3]Vec3
	for mask := 1; mask < 1<<n-1; mask++ {
		k := 0
		for i := range n {
			if mask&(1<<i) != 0 {
				sub[k] = s[i]
				k++
			}
		}
		b := boundaryBall(sub[:k])
		if b.Radius >= best.Radius {
			continue
		}
		all := true
		for _, p := range s {
			all = all && b.Contains(p)
		}
		if all {
			best = b
		}
	}
	return best
}

// maxDist is the largest distance from c to the points of s.
func maxDist(c Vec3, s []Vec3) float64 {
	r := 0.0
	for _, p := range s {
		r = math.Max(r, c.Sub(p).Len())
	}
	return r
}
