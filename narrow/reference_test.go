package narrow

import (
	"math"
	"math/rand/v2"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/golang/geo/r3"
	quickhull "github.com/markus-wa/quickhull-go/v2"

	"github.com/gloved/gloved/geom"
)

// hullShape is a convex polytope with its hull faces, for the references.
type hullShape struct {
	verts []geom.Vec3
	tris  [][3]int32
	poly  *Polytope
}

func makeHull(pts []geom.Vec3) hullShape {
	in := make([]r3.Vector, len(pts))
	for i, p := range pts {
		in[i] = r3.Vector{X: p.X, Y: p.Y, Z: p.Z}
	}
	h := new(quickhull.QuickHull).ConvexHull(in, true, false, 0)
	var hs hullShape
	for _, v := range h.Vertices {
		hs.verts = append(hs.verts, geom.Vec3{X: v.X, Y: v.Y, Z: v.Z})
	}
	for i := 0; i+2 < len(h.Indices); i += 3 {
		hs.tris = append(hs.tris, [3]int32{int32(h.Indices[i]), int32(h.Indices[i+1]), int32(h.Indices[i+2])})
	}
	hs.poly, _ = NewPolytope(hs.verts, hs.tris)
	return hs
}

func boxHull(half geom.Vec3) hullShape {
	var pts []geom.Vec3
	for i := range 8 {
		p := half.Mgl()
		for k := range 3 {
			if i&(1<<k) != 0 {
				p[k] = -p[k]
			}
		}
		pts = append(pts, geom.FromMgl(p))
	}
	return makeHull(pts)
}

func randomHull(r *rand.Rand, n int, scale float64) hullShape {
	pts := make([]geom.Vec3, n)
	ax := geom.Vec3{X: 0.3 + r.Float64(), Y: 0.3 + r.Float64(), Z: 0.3 + r.Float64()}
	for i := range pts {
		pts[i] = geom.Vec3{X: r.NormFloat64() * ax.X, Y: r.NormFloat64() * ax.Y, Z: r.NormFloat64() * ax.Z}.Mul(scale)
	}
	return makeHull(pts)
}

func worldVerts(h hullShape, x geom.Transform) []geom.Vec3 {
	out := make([]geom.Vec3, len(h.verts))
	for i, v := range h.verts {
		out[i] = x.Apply(v)
	}
	return out
}

// refAxes are the face normals of both hulls and the cross products of
// their edges, in the world: a superset of the Minkowski difference's
// facet normals.
func refAxes(a, b hullShape, xa, xb geom.Transform) []geom.Vec3 {
	var axes []geom.Vec3
	var ea, eb []geom.Vec3
	for _, c := range []struct {
		h  hullShape
		x  geom.Transform
		ed *[]geom.Vec3
	}{{a, xa, &ea}, {b, xb, &eb}} {
		w := worldVerts(c.h, c.x)
		for _, t := range c.h.tris {
			p, q, s := w[t[0]], w[t[1]], w[t[2]]
			if n := q.Sub(p).Cross(s.Sub(p)); n.Len() > 1e-12 {
				axes = append(axes, n.Normalize(), n.Normalize().Mul(-1))
			}
			*c.ed = append(*c.ed, q.Sub(p), s.Sub(q), p.Sub(s))
		}
	}
	for _, u := range ea {
		for _, v := range eb {
			if n := u.Cross(v); n.Len() > 1e-9*u.Len()*v.Len() {
				axes = append(axes, n.Normalize(), n.Normalize().Mul(-1))
			}
		}
	}
	return axes
}

func supportOf(pts []geom.Vec3, d geom.Vec3) float64 {
	m := math.Inf(-1)
	for _, p := range pts {
		m = math.Max(m, p.Dot(d))
	}
	return m
}

// refPenetration is min over the axes of h_A(d) + h_B(-d): the depth, and
// the direction d (push A along -d).
func refPenetration(a, b hullShape, xa, xb geom.Transform) (float64, geom.Vec3) {
	wa, wb := worldVerts(a, xa), worldVerts(b, xb)
	best, bd := math.Inf(1), geom.Vec3{}
	for _, d := range refAxes(a, b, xa, xb) {
		if v := supportOf(wa, d) + supportOf(wb, d.Mul(-1)); v < best {
			best, bd = v, d
		}
	}
	return best, bd
}

// refDistance is the brute-force closest features of two disjoint hulls:
// every vertex against every face, every edge against every edge.
func refDistance(a, b hullShape, xa, xb geom.Transform) float64 {
	wa, wb := worldVerts(a, xa), worldVerts(b, xb)
	best := math.Inf(1)
	for _, c := range []struct {
		v  []geom.Vec3
		w  []geom.Vec3
		ts [][3]int32
	}{{wa, wb, b.tris}, {wb, wa, a.tris}} {
		for _, p := range c.v {
			for _, t := range c.ts {
				best = math.Min(best, pointTriangle(p, c.w[t[0]], c.w[t[1]], c.w[t[2]]))
			}
		}
	}
	for _, ta := range a.tris {
		for ka := range 3 {
			for _, tb := range b.tris {
				for kb := range 3 {
					best = math.Min(best, segSeg(wa[ta[ka]], wa[ta[(ka+1)%3]], wb[tb[kb]], wb[tb[(kb+1)%3]]))
				}
			}
		}
	}
	return best
}

func pointTriangle(p, a, b, c geom.Vec3) float64 {
	var s simplex
	s.v[0].w, s.v[1].w, s.v[2].w = a.Sub(p), b.Sub(p), c.Sub(p)
	s.count = 3
	q, _ := s.solve()
	return q.Len()
}

func segSeg(p1, q1, p2, q2 geom.Vec3) float64 {
	// Sample-free: minimise over the segment parameters by the standard
	// clamped solution (Ericson 5.1.9).
	d1, d2, r := q1.Sub(p1), q2.Sub(p2), p1.Sub(p2)
	a, e, f := d1.Dot(d1), d2.Dot(d2), d2.Dot(r)
	var s, t float64
	switch {
	case a <= 1e-30 && e <= 1e-30:
	case a <= 1e-30:
		t = clamp(f/e, 0, 1)
	default:
		c := d1.Dot(r)
		if e <= 1e-30 {
			s = clamp(-c/a, 0, 1)
		} else {
			b := d1.Dot(d2)
			den := a*e - b*b
			if den != 0 {
				s = clamp((b*f-c*e)/den, 0, 1)
			}
			t = (b*s + f) / e
			if t < 0 {
				t, s = 0, clamp(-c/a, 0, 1)
			} else if t > 1 {
				t, s = 1, clamp((b-c)/a, 0, 1)
			}
		}
	}
	return p1.Add(d1.Mul(s)).Sub(p2.Add(d2.Mul(t))).Len()
}

func clamp(x, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, x)) }

func randTransform(r *rand.Rand, reach float64) geom.Transform {
	q := mgl64.Quat{W: r.NormFloat64(), V: mgl64.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}}
	x, _ := geom.FromQuat(q, geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Mul(reach))
	return x
}
