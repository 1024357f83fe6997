package chains

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
)

// Fit is one sphere as the sweep built it: where it stands, its three
// fits, how well each fits its region, and the pivot polygons that move
// it.
type Fit struct {
	Region, Side int
	Link         int32
	Origin       geom.Vec3 // the disk's centre at the sphere's level
	Normal       geom.Vec3 // the region's axis there
	Sphere       [NumMethods]Sphere
	F            [NumMethods]FStats
	Verts        []int32  // the surrounding region's vertices
	Pivots       [4]int32 // triangles
}

// FStats summarises F = |r - |c - v||, the gap between a sphere and its
// surrounding region's vertices v (section 3.2), over the region.
type FStats struct{ Mean, Max float64 }

// minHitShare is the share of a side's rays that must meet the surface
// for a level to place a sphere: fewer, and the disk is past the region's
// end.
const minHitShare = 0.9

// j1 is the paper's first fit at a level's side: the centre of the
// cross-section its rays enclose (the area centroid of the fan of hits
// about the disk's centre), the radius at which the sphere meets the
// surface: the nearest hit of the whole level, or of two rays from the
// centre along the axis (where the region ends in a cap or a fingertip).
func j1(m *Mesh, tris []int32, l *level, rays []int, cyclic bool) Sphere {
	s := j1InPlane(l, rays, cyclic)
	for _, d := range []geom.Vec3{l.n, l.n.Mul(-1)} {
		if p, t := castRay(m, tris, s.C, d); t >= 0 {
			s.R = min(s.R, p.Sub(s.C).Len())
		}
	}
	return s
}

// j1InPlane is j1 sized by the level's hits alone.
func j1InPlane(l *level, rays []int, cyclic bool) Sphere {
	var area float64
	var sum geom.Vec3
	for i := range rays {
		j := i + 1
		if j == len(rays) {
			if !cyclic {
				break
			}
			j = 0
		}
		a, b := rays[i], rays[j]
		if l.tri[a] < 0 || l.tri[b] < 0 {
			continue
		}
		w := l.hit[a].Sub(l.o).Cross(l.hit[b].Sub(l.o)).Len() / 2
		area += w
		sum = sum.Add(l.o.Add(l.hit[a]).Add(l.hit[b]).Mul(w / 3))
	}
	if area == 0 {
		return Sphere{C: l.o}
	}
	c := sum.Mul(1 / area)
	r := math.Inf(1)
	for k, t := range l.tri {
		if t >= 0 {
			r = min(r, l.hit[k].Sub(c).Len())
		}
	}
	return Sphere{C: c, R: r}
}

// j2 is the minimum enclosing ball of the surrounding region's vertices.
func j2(m *Mesh, verts []int32) Sphere {
	pts := make([]geom.Vec3, len(verts))
	for i, v := range verts {
		pts[i] = m.Verts[v]
	}
	b := geom.MinBall(pts)
	return Sphere{C: b.Center, R: b.Radius}
}

// adjustIters bounds the Gauss-Newton steps of the adjustment; it
// converges in a few.
const adjustIters = 20

// adjust is j1': the sphere s moved within the disk's plane (basis u, v)
// and scaled to fit the region's vertices, minimising the sum of F² by
// Gauss-Newton. The paper moves the two spheres of a level toward the
// disk's centre and scales them down until F is smallest; the least
// squares fit is that step made exact.
func adjust(m *Mesh, verts []int32, s Sphere, u, v geom.Vec3) Sphere {
	for range adjustIters {
		var a mgl64.Mat3
		var g mgl64.Vec3 // over the step (du, dv, dr)
		for _, i := range verts {
			d := s.C.Sub(m.Verts[i])
			dist := d.Len()
			if dist == 0 {
				continue
			}
			j := mgl64.Vec3{d.Dot(u) / dist, d.Dot(v) / dist, -1}
			f := dist - s.R
			for r := range 3 {
				for c := range 3 {
					a.Set(r, c, a.At(r, c)+j[r]*j[c])
				}
			}
			g = g.Add(j.Mul(f))
		}
		if math.Abs(a.Det()) < 1e-30 {
			break
		}
		step := a.Inv().Mul3x1(g).Mul(-1)
		next := Sphere{C: s.C.Add(u.Mul(step[0])).Add(v.Mul(step[1])), R: s.R + step[2]}
		if !(next.R > 0) || !next.C.Finite() {
			break
		}
		s = next
		if step.Len() < 1e-12 {
			break
		}
	}
	return s
}

// fStats is F of sphere s over verts.
func fStats(m *Mesh, verts []int32, s Sphere) FStats {
	var f FStats
	for _, v := range verts {
		x := math.Abs(s.R - m.Verts[v].Sub(s.C).Len())
		f.Mean += x
		f.Max = max(f.Max, x)
	}
	if len(verts) > 0 {
		f.Mean /= float64(len(verts))
	}
	return f
}
