package chains

import (
	"math"

	"github.com/gloved/gloved/geom"
)

// level is the disk at one place along a region's axis and what its rays
// met: hit[k] is ray k's point on the surface, tri[k] its triangle (-1:
// the ray met nothing).
type level struct {
	o, n, u, v geom.Vec3 // centre, axis, and the disk's in-plane basis
	s          float64   // arc length along the axis
	link       int32
	hit        []geom.Vec3
	tri        []int32
}

// ray returns ray k's direction in the disk.
func (l *level) ray(k, n int) geom.Vec3 {
	s, c := math.Sincos(2 * math.Pi * float64(k) / float64(n))
	return l.u.Mul(c).Add(l.v.Mul(s))
}

// sweep moves the disk along the region's axis a step at a time and casts
// its rays at each level.
func sweep(m *Mesh, reg *Region, p Params) []level {
	var out []level
	var cross []int32
	s0 := 0.0
	for seg := 0; seg+1 < len(reg.Axis); seg++ {
		a, b := reg.Axis[seg], reg.Axis[seg+1]
		length := b.Sub(a).Len()
		if length == 0 {
			continue
		}
		n := b.Sub(a).Mul(1 / length)
		u := diskBasis(n, reg.Across)
		// Levels at the middle of each step along the whole axis.
		for s := p.Step * (math.Floor(s0/p.Step) + 0.5); s < s0+length; s += p.Step {
			if s < s0 {
				continue
			}
			l := level{o: a.Add(n.Mul(s - s0)), n: n, u: u, v: n.Cross(u), s: s, link: reg.Links[seg]}
			cross = crossing(m, reg.Tris, l.o, n, cross[:0])
			l.hit, l.tri = make([]geom.Vec3, p.Rays), make([]int32, p.Rays)
			for k := range p.Rays {
				l.hit[k], l.tri[k] = castRay(m, cross, l.o, l.ray(k, p.Rays))
			}
			out = append(out, l)
		}
		s0 += length
	}
	return out
}

// diskBasis returns a unit vector across axis n: along across where it is
// not parallel to n, else any.
func diskBasis(n, across geom.Vec3) geom.Vec3 {
	u := across.Sub(n.Mul(across.Dot(n)))
	if u.Len() > 1e-6 {
		return u.Normalize()
	}
	for _, e := range []geom.Vec3{{X: 1}, {Y: 1}, {Z: 1}} {
		if u = e.Sub(n.Mul(e.Dot(n))); u.Len() > 0.5 {
			return u.Normalize()
		}
	}
	panic("chains: no vector across a unit axis")
}

// crossing appends the triangles of tris that the plane through o with
// normal n cuts: the only ones a ray in the disk can meet.
func crossing(m *Mesh, tris []int32, o, n geom.Vec3, out []int32) []int32 {
	for _, t := range tris {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, v := range m.Tris[t] {
			d := n.Dot(m.Verts[v].Sub(o))
			lo, hi = min(lo, d), max(hi, d)
		}
		if lo <= 0 && hi >= 0 {
			out = append(out, t)
		}
	}
	return out
}

// castRay returns where the ray from o along d leaves the body through
// tris: the first hit on one surface, the last on a union of pieces.
func castRay(m *Mesh, tris []int32, o, d geom.Vec3) (geom.Vec3, int32) {
	best, bt := math.Inf(1), int32(-1)
	if m.Union {
		best = math.Inf(-1)
	}
	for _, t := range tris {
		tr := m.Tris[t]
		x, ok := geom.RayTriangle(o, d, m.Verts[tr[0]], m.Verts[tr[1]], m.Verts[tr[2]])
		if ok && ((!m.Union && x < best) || (m.Union && x > best)) {
			best, bt = x, t
		}
	}
	if bt < 0 {
		return geom.Vec3{}, -1
	}
	return o.Add(d.Mul(best)), bt
}

// side returns the rays of one side of a level in angular order: all of
// them for a tubular region, the half along +u (side 0) or -u (side 1)
// for a wide one.
func side(n int, wide bool, sd int) []int {
	var out []int
	if !wide {
		for k := range n {
			out = append(out, k)
		}
		return out
	}
	// Rays at angles in [-90°, 90°) for side 0, [90°, 270°) for side 1.
	start := -n / 4
	if sd == 1 {
		start = n / 4
	}
	for i := range n / 2 {
		out = append(out, ((start+i)%n+n)%n)
	}
	return out
}

// hitShare is the fraction of rays that met the surface.
func (l *level) hitShare(rays []int) float64 {
	n := 0
	for _, k := range rays {
		if l.tri[k] >= 0 {
			n++
		}
	}
	return float64(n) / float64(len(rays))
}
