package geom

import "github.com/go-gl/mathgl/mgl64"

// SurfaceMoments accumulates the closed-form surface integrals of section 4:
// each triangle contributes its area A, its area-weighted centroid A·c and
// A/12·(9cc^T + pp^T + qq^T + rr^T). The result is the mean and covariance of
// a uniform density over the surface, "sampling the hull infinitely densely",
// independent of how the surface is tessellated.
type SurfaceMoments struct {
	Area float64
	sumC mgl64.Vec3
	sumQ Sym3
}

// Add accumulates triangle (p, q, r).
func (m *SurfaceMoments) Add(p, q, r mgl64.Vec3) {
	m.addArea(p, q, r, 0.5*q.Sub(p).Cross(r.Sub(p)).Len())
}

// addArea accumulates triangle (p, q, r) of area a.
func (m *SurfaceMoments) addArea(p, q, r mgl64.Vec3, a float64) {
	if !(a > 0) {
		return
	}
	c := p.Add(q).Add(r).Mul(1.0 / 3)
	m.Area += a
	m.sumC = m.sumC.Add(c.Mul(a))
	w := a / 12
	m.sumQ[0] += w * (9*c[0]*c[0] + p[0]*p[0] + q[0]*q[0] + r[0]*r[0])
	m.sumQ[1] += w * (9*c[0]*c[1] + p[0]*p[1] + q[0]*q[1] + r[0]*r[1])
	m.sumQ[2] += w * (9*c[0]*c[2] + p[0]*p[2] + q[0]*q[2] + r[0]*r[2])
	m.sumQ[3] += w * (9*c[1]*c[1] + p[1]*p[1] + q[1]*q[1] + r[1]*r[1])
	m.sumQ[4] += w * (9*c[1]*c[2] + p[1]*p[2] + q[1]*q[2] + r[1]*r[2])
	m.sumQ[5] += w * (9*c[2]*c[2] + p[2]*p[2] + q[2]*q[2] + r[2]*r[2])
}

// Covariance returns the surface mean c^H and covariance
// C = Σ A/(12A^H)(9cc^T+pp^T+qq^T+rr^T) - c^H c^H^T. It is only meaningful
// when Area > 0.
func (m *SurfaceMoments) Covariance() (mgl64.Vec3, Sym3) {
	mu := m.sumC.Mul(1 / m.Area)
	var c Sym3
	inv := 1 / m.Area
	c[0] = m.sumQ[0]*inv - mu[0]*mu[0]
	c[1] = m.sumQ[1]*inv - mu[0]*mu[1]
	c[2] = m.sumQ[2]*inv - mu[0]*mu[2]
	c[3] = m.sumQ[3]*inv - mu[1]*mu[1]
	c[4] = m.sumQ[4]*inv - mu[1]*mu[2]
	c[5] = m.sumQ[5]*inv - mu[2]*mu[2]
	return mu, c
}

// PointCovariance returns the mean and covariance of a point set, the
// last-resort statistic for input with no area at all.
func PointCovariance(pts []mgl64.Vec3) (mgl64.Vec3, Sym3) {
	mu := mean(pts)
	var c Sym3
	for _, p := range pts {
		d := p.Sub(mu)
		c[0] += d[0] * d[0]
		c[1] += d[0] * d[1]
		c[2] += d[0] * d[2]
		c[3] += d[1] * d[1]
		c[4] += d[1] * d[2]
		c[5] += d[2] * d[2]
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
func (m *SurfaceMoments) Sums() (mgl64.Vec3, Sym3) { return m.sumC, m.sumQ }

// SetSums replaces the sums (with the area) of m, for moments assembled
// from moved parts.
func (m *SurfaceMoments) SetSums(area float64, c mgl64.Vec3, q Sym3) {
	m.Area, m.sumC, m.sumQ = area, c, q
}

// MovedSums returns the sums of a surface moved by x, without touching its
// triangles: Σ A c' = R Σ A c + A t and Σ Q' = R Q R^T + (R Σ A c) t^T +
// t (R Σ A c)^T + A t t^T, exact for a rigid motion.
func MovedSums(area float64, c mgl64.Vec3, q Sym3, x Transform) (mgl64.Vec3, Sym3) {
	r := x.R
	rc := r.Mul3x1(c)
	t := x.T
	qm := mgl64.Mat3{q[0], q[1], q[2], q[1], q[3], q[4], q[2], q[4], q[5]}
	rq := r.Mul3(qm).Mul3(r.Transpose())
	var out Sym3
	idx := [6][2]int{{0, 0}, {0, 1}, {0, 2}, {1, 1}, {1, 2}, {2, 2}}
	for k, ij := range idx {
		i, j := ij[0], ij[1]
		out[k] = rq.At(i, j) + rc[i]*t[j] + t[i]*rc[j] + area*t[i]*t[j]
	}
	return rc.Add(t.Mul(area)), out
}
