package geom

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// overlapTol is the relative gap below which two projected intervals count as
// touching: a separation smaller than overlapTol times the coordinates'
// magnitude is within rounding of contact, and contact is reported.
const overlapTol = 1e-12

// crossingSine2 is the squared sine above which two triangles' planes cross
// at a clear angle (about 1e-6 rad): below it the pair is treated as
// coplanar and the 2-D edge axes are tried too.
const crossingSine2 = 1e-12

// flatSine2 is the smallest squared sine of a normal against a triangle's
// edges for that normal to define the common plane of a coplanar pair.
const flatSine2 = 1e-24

// TriTri reports whether two closed triangles share a point. Touching
// (vertex on face, edge on edge, shared vertex) counts as overlapping, and
// coplanar and zero-area triangles are handled: the test is a separating-axis
// test over the facet normals of the triangles' Minkowski difference, which
// are the two normals and nine edge cross products when that difference is
// three-dimensional, the in-plane edge normals when it is flat, and the line
// direction and its offset when it is a segment.
func TriTri(p, q Triangle) bool {
	o := p[0]
	var a, b [3]mgl64.Vec3
	s := 0.0
	for i := range 3 {
		a[i] = p[i].Sub(o)
		b[i] = q[i].Sub(o)
		s = math.Max(s, maxAbs(a[i]))
		s = math.Max(s, maxAbs(b[i]))
	}
	if s == 0 {
		return true
	}
	tol := overlapTol * s
	ea := [3]mgl64.Vec3{a[1].Sub(a[0]), a[2].Sub(a[1]), a[0].Sub(a[2])}
	eb := [3]mgl64.Vec3{b[1].Sub(b[0]), b[2].Sub(b[1]), b[0].Sub(b[2])}

	na := ea[0].Cross(ea[1])
	nb := eb[0].Cross(eb[1])
	if separates(na, &a, &b, tol) || separates(nb, &a, &b, tol) {
		return false
	}
	var cross [9]mgl64.Vec3
	for i := range 3 {
		for j := range 3 {
			l := ea[i].Cross(eb[j])
			if separates(l, &a, &b, tol) {
				return false
			}
			cross[3*i+j] = l
		}
	}
	// No 3-D facet normal separates. When the two planes cross at a clear
	// angle the difference is three-dimensional and those axes were all.
	la, lb := na.LenSqr(), nb.LenSqr()
	if c := na.Cross(nb).LenSqr(); c > crossingSine2*la*lb {
		return true
	}
	// Otherwise it may be flat: its plane is parallel to every non-zero
	// normal and cross product, so take the best conditioned one.
	m, mq := na, sine2(na, ea[0], ea[1])
	if v := sine2(nb, eb[0], eb[1]); v > mq {
		m, mq = nb, v
	}
	for k, l := range cross {
		if v := sine2(l, ea[k/3], eb[k%3]); v > mq {
			m, mq = l, v
		}
	}
	if mq > flatSine2 {
		for i := range 3 {
			if separates(m.Cross(ea[i]), &a, &b, tol) || separates(m.Cross(eb[i]), &a, &b, tol) {
				return false
			}
		}
		return true
	}
	// Every edge is parallel: both triangles lie on lines (or are points).
	d := longest(ea, eb)
	w := b[0].Sub(a[0])
	if dd := d.LenSqr(); dd > 0 {
		w = w.Sub(d.Mul(d.Dot(w) / dd))
		if separates(d, &a, &b, tol) {
			return false
		}
	}
	return !separates(w, &a, &b, tol)
}

// sine2 returns |l|^2/(|u|^2|v|^2) for l = u×v: the squared sine of the angle
// between u and v, zero when either is zero.
func sine2(l, u, v mgl64.Vec3) float64 {
	d := u.LenSqr() * v.LenSqr()
	if d == 0 {
		return 0
	}
	return l.LenSqr() / d
}

func longest(ea, eb [3]mgl64.Vec3) mgl64.Vec3 {
	d, n := ea[0], ea[0].LenSqr()
	for _, e := range [...]mgl64.Vec3{ea[1], ea[2], eb[0], eb[1], eb[2]} {
		if l := e.LenSqr(); l > n {
			d, n = e, l
		}
	}
	return d
}

// separates reports whether axis l separates the corner sets a and b by more
// than tol (scaled by |l|).
func separates(l mgl64.Vec3, a, b *[3]mgl64.Vec3, tol float64) bool {
	amin, amax := interval(l, a)
	bmin, bmax := interval(l, b)
	gap := bmin - amax
	if g := amin - bmax; g > gap {
		gap = g
	}
	return gap > 0 && gap*gap > tol*tol*l.LenSqr()
}

// interval projects three points on l. Plain comparisons: the corners are
// finite, and math.Min/Max and the float built-ins pay for NaN and -0 rules
// (measured: half the cost of the triangle test).
func interval(l mgl64.Vec3, v *[3]mgl64.Vec3) (lo, hi float64) {
	x := l[0]*v[0][0] + l[1]*v[0][1] + l[2]*v[0][2]
	y := l[0]*v[1][0] + l[1]*v[1][1] + l[2]*v[1][2]
	z := l[0]*v[2][0] + l[1]*v[2][1] + l[2]*v[2][2]
	lo, hi = x, x
	if y < lo {
		lo = y
	} else {
		hi = y
	}
	if z < lo {
		lo = z
	}
	if z > hi {
		hi = z
	}
	return lo, hi
}

func maxAbs(v mgl64.Vec3) float64 {
	return math.Max(math.Abs(v[0]), math.Max(math.Abs(v[1]), math.Abs(v[2])))
}
