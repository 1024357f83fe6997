package geom

import "github.com/go-gl/mathgl/mgl64"

// SurfaceMoments accumulates the closed-form surface integrals of section 4:
// each triangle contributes its area A, its area-weighted centroid A·c and
// A/12·(9cc^T + pp^T + qq^T + rr^T). The result is the mean and covariance of
// a uniform density over the surface, "sampling the hull infinitely densely",
// independent of how the surface is tessellated.
type SurfaceMoments struct {
	Area float64
	sumC Vec3
	sumQ Sym3
}

// Add accumulates triangle (p, q, r).
func (m *SurfaceMoments) Add(p, q, r Vec3) {
	m.addArea(p, q, r, 0.5*q.Sub(p).Cross(r.Sub(p)).Len())
}

// addArea accumulates triangle (p, q, r) of area a.
func (m *SurfaceMoments) addArea(p, q, r Vec3, a float64) {
	if !(a > 0) {
		return
	}
	c := p.Add(q).Add(r).Mul(1.0 / 3)
	m.Area += a
	m.sumC = m.sumC.Add(c.Mul(a))
	w := a / 12
	m.sumQ[0] += w * (9*c.X*c.X + p.X*p.X + q.X*q.X + r.X*r.X)
	m.sumQ[1] += w * (9*c.X*c.Y + p.X*p.Y + q.X*q.Y + r.X*r.Y)
	m.sumQ[2] += w * (9*c.X*c.Z + p.X*p.Z + q.X*q.Z + r.X*r.Z)
	m.sumQ[3] += w * (9*c.Y*c.Y + p.Y*p.Y + q.Y*q.Y + r.Y*r.Y)
	m.sumQ[4] += w * (9*c.Y*c.Z + p.Y*p.Z + q.Y*q.Z + r.Y*r.Z)
	m.sumQ[5] += w * (9*c.Z*c.Z + p.Z*p.Z + q.Z*q.Z + r.Z*r.Z)
}

// Covariance returns the surface mean c^H and covariance
// C = Σ A/(12A^H)(9cc^T+pp^T+qq^T+rr^T) - c^H c^H^T. It is only meaningful
// when Area > 0.
func (m *SurfaceMoments) Covariance() (Vec3, Sym3) {
	mu := m.sumC.Mul(1 / m.Area)
	var c Sym3
	inv := 1 / m.Area
	c[0] = m.sumQ[0]*inv - mu.X*mu.X
	c[1] = m.sumQ[1]*inv - mu.X*mu.Y
	c[2] = m.sumQ[2]*inv - mu.X*mu.Z
	c[3] = m.sumQ[3]*inv - mu.Y*mu.Y
	c[4] = m.sumQ[4]*inv - mu.Y*mu.Z
	c[5] = m.sumQ[5]*inv - mu.Z*mu.Z
	return mu, c
}

// PointCovariance returns the mean and covariance of a point set, the
// last-resort statistic for input with no area at all.
func PointCovariance(pts []Vec3) (Vec3, Sym3) {
	mu := mean(pts)
	var c Sym3
	for _, p := range pts {
		d := p.Sub(mu)
		c[0] += d.X * d.X
		c[1] += d.X * d.Y
		c[2] += d.X * d.Z
		c[3] += d.Y * d.Y
		c[4] += d.Y * d.Z
		c[5] += d.Z * d.Z
	}
	n := float64(len(pts))
	for i := range c {
		c[i] /= n
	}
	return mu, c
}

// Sums returns the accumulated area-weighted centroid sum Σ A·c and the
// second-moment sum Σ A/12·(9cc^T + pp^T + qq^T + rr^T): the parts that move
// with a rigid motion (see MovedSums).
func (m *SurfaceMoments) Sums() (Vec3, Sym3) { return m.sumC, m.sumQ }

// SetSums replaces the sums (with the area) of m, for moments assembled
// from moved parts.
func (m *SurfaceMoments) SetSums(area float64, c Vec3, q Sym3) {
	m.Area, m.sumC, m.sumQ = area, c, q
}

// MovedSums returns the sums of a surface moved by x, without touching its
// triangles: Σ A c' = R Σ A c + A t and Σ Q' = R Q R^T + (R Σ A c) t^T +
// t (R Σ A c)^T + A t t^T, exact for a rigid motion.
func MovedSums(area float64, c Vec3, q Sym3, x Transform) (Vec3, Sym3) {
	r := x.R
	rc := MulVec(&r, c)
	t := x.T
	qm := mgl64.Mat3{q[0], q[1], q[2], q[1], q[3], q[4], q[2], q[4], q[5]}
	rq := r.Mul3(qm).Mul3(r.Transpose())
	var out Sym3
	idx := [6][2]int{{0, 0}, {0, 1}, {0, 2}, {1, 1}, {1, 2}, {2, 2}}
	for k, ij := range idx {
		i, j := ij[0], ij[1]
		out[k] = rq.At(i, j) + rc.At(i)*t.At(j) + t.At(i)*rc.At(j) + area*t.At(i)*t.At(j)
	}
	return rc.Add(t.Mul(area)), out
}
