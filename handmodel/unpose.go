package handmodel

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
)

// Unposer finds the joint angles that turn a hand's links as a hand
// tracker measured them: the inverse of Pose's rotations, for a tracker
// that sends each bone's rotation (VMC, OpenXR) rather than joint
// angles. It fits all joints at once by Gauss-Newton on the links'
// rotation errors (each link's measured rotation in its parent's frame
// against the one the angles give, as a rotation vector), so that a joint
// two links share (the palm arch, in the ring and the little finger)
// takes the both of them, and a link of fewer joints than its three
// rotational freedoms (a phalanx, the thumb's metacarpal) takes the
// angles nearest its rotation. It is built once per hand and used by one
// goroutine; Unpose allocates nothing.
type Unposer struct {
	h    *Hand
	deps [NumJoints][]Link // the links each joint turns
	// Scratch: the residuals, their Jacobian and the normal equations.
	r, r2 [MaxLinks][3]float64
	jac   [MaxLinks][3][NumJoints]float64
	ata   [NumJoints][NumJoints]float64
	atb   [NumJoints]float64
}

// unposeSteps bounds the Gauss-Newton steps of one Unpose; a step below
// unposeTol radians at every joint ends it. Warm-started from the
// previous frame's angles it takes two or three.
const (
	unposeSteps = 30
	unposeTol   = 1e-10
	unposeEps   = 1e-7 // the finite difference of the Jacobian, radians
	// unposeMaxStep bounds a joint's move in one step, radians: near a
	// rotation vector's branch cut (a turn of π) or at a joint the links
	// barely observe, the linearized step can be many radians, and q is a
	// stream's warm start for the next frame.
	unposeMaxStep = 0.5
)

// NewUnposer returns the Unposer of h.
func NewUnposer(h *Hand) *Unposer {
	u := &Unposer{h: h}
	for l := range FingerLinks {
		for _, e := range h.links[l].rots {
			if e.joint >= 0 && !containsLink(u.deps[e.joint], Link(l)) {
				u.deps[e.joint] = append(u.deps[e.joint], Link(l))
			}
		}
	}
	return u
}

func containsLink(ls []Link, l Link) bool {
	for _, x := range ls {
		if x == l {
			return true
		}
	}
	return false
}

// Unpose sets q to the joint angles that best turn each link l for which
// have[l] is set by rel[l]: its rotation in its parent link's frame (for
// the palm, in the wrist's; Pose's links' R, relative). q on entry is the
// guess it starts from (the previous frame's angles keep a stream
// continuous); a joint that turns no measured link keeps its value. It
// returns the largest rotation, in radians, by which a measured link
// misses its measurement: 0 when the measurements are a pose of the hand,
// π (the most a rotation can miss by) when one is not finite.
// Each step moves a joint by unposeMaxStep at most, and keeps the
// measured joints' angles wrapped to (-π, π] and within the hand's
// Limits (a guess off by turns, or not finite, comes back); a step that
// is not finite (a measurement that is not) leaves q as it was.
func (u *Unposer) Unpose(rel *[MaxLinks]mgl64.Mat3, have *[MaxLinks]bool, q *Angles) float64 {
	right := u.h.Params.Right
	u.bound(have, q)
	for range unposeSteps {
		u.residuals(rel, have, q, right, &u.r)
		u.jac = [MaxLinks][3][NumJoints]float64{}
		for j := range NumJoints {
			if !u.measured(Joint(j), have) {
				continue
			}
			keep := q[j]
			q[j] += unposeEps
			for _, l := range u.deps[j] {
				u.r2[l] = residual(u.h.local(l, q, right).R, &rel[l])
				for k := range 3 {
					u.jac[l][k][j] = (u.r2[l][k] - u.r[l][k]) / unposeEps
				}
			}
			q[j] = keep
		}
		step := u.solve(have)
		move := 0.0
		for j := range NumJoints {
			move = max(move, math.Abs(u.atb[j]))
		}
		if !(move > unposeTol) || !step || math.IsInf(move, 0) {
			// Converged, broken down, or not finite (NaN fails the first).
			break
		}
		for j := range NumJoints {
			q[j] -= min(max(u.atb[j], -unposeMaxStep), unposeMaxStep)
		}
		u.bound(have, q)
	}
	u.residuals(rel, have, q, right, &u.r)
	worst := 0.0
	for l := range FingerLinks {
		if have[l] {
			miss := math.Hypot(u.r[l][0], math.Hypot(u.r[l][1], u.r[l][2]))
			if !(miss <= math.Pi) {
				miss = math.Pi
			}
			worst = max(worst, miss)
		}
	}
	return worst
}

// bound wraps each measured joint's angle to (-π, π] and clamps it to
// the hand's limits; one that is not finite becomes the limits' nearest
// to 0.
func (u *Unposer) bound(have *[MaxLinks]bool, q *Angles) {
	lim := &u.h.Limits
	for j := range NumJoints {
		if !u.measured(Joint(j), have) {
			continue
		}
		v := math.Remainder(q[j], 2*math.Pi)
		if v == -math.Pi {
			v = math.Pi
		}
		if math.IsNaN(v) {
			v = 0
		}
		q[j] = min(max(v, lim[j].Min), lim[j].Max)
	}
}

// measured reports whether joint j turns a measured link.
func (u *Unposer) measured(j Joint, have *[MaxLinks]bool) bool {
	for _, l := range u.deps[j] {
		if have[l] {
			return true
		}
	}
	return false
}

// residuals sets r[l] for each measured link: its rotation error at q.
func (u *Unposer) residuals(rel *[MaxLinks]mgl64.Mat3, have *[MaxLinks]bool, q *Angles, right bool, r *[MaxLinks][3]float64) {
	for l := range FingerLinks {
		if have[l] {
			r[l] = residual(u.h.local(Link(l), q, right).R, &rel[l])
		}
	}
}

// residual is the rotation that takes the angles' rotation a to the
// measured m, as a rotation vector (axis times angle, in a's frame):
// zero when they agree, and as long as the angle between them.
func residual(a mgl64.Mat3, m *mgl64.Mat3) [3]float64 {
	d := mgl64.Mat4ToQuat(a.Transpose().Mul3(*m).Mat4())
	if d.W < 0 {
		d.W, d.V = -d.W, d.V.Mul(-1)
	}
	s := d.V.Len()
	k := 2.0
	if s > 1e-12 {
		k = 2 * math.Atan2(s, d.W) / s
	}
	return [3]float64{k * d.V[0], k * d.V[1], k * d.V[2]}
}

// solve sets atb to the Gauss-Newton step (JᵀJ + λI)⁻¹ Jᵀr over the
// measured links, by Cholesky; a joint that turns no measured link has
// a zero column and a zero step. False if the system is not positive
// definite (a numerical breakdown: the step is then zero).
func (u *Unposer) solve(have *[MaxLinks]bool) bool {
	const lambda = 1e-9 // keeps JᵀJ definite where a joint is not observed
	for a := range NumJoints {
		for b := a; b < NumJoints; b++ {
			s := 0.0
			for l := range FingerLinks {
				if have[l] {
					for k := range 3 {
						s += u.jac[l][k][a] * u.jac[l][k][b]
					}
				}
			}
			u.ata[a][b], u.ata[b][a] = s, s
		}
		u.ata[a][a] += lambda
		s := 0.0
		for l := range FingerLinks {
			if have[l] {
				for k := range 3 {
					s += u.jac[l][k][a] * u.r[l][k]
				}
			}
		}
		u.atb[a] = s
	}
	// Cholesky: ata = L·Lᵀ, L in ata's lower triangle.
	m := &u.ata
	for a := range int(NumJoints) {
		for b := 0; b <= a; b++ {
			s := m[a][b]
			for k := range b {
				s -= m[a][k] * m[b][k]
			}
			if a == b {
				if !(s > 0) {
					u.atb = [NumJoints]float64{}
					return false
				}
				m[a][a] = math.Sqrt(s)
			} else {
				m[a][b] = s / m[b][b]
			}
		}
	}
	x := &u.atb
	for a := range NumJoints {
		s := x[a]
		for k := range a {
			s -= m[a][k] * x[k]
		}
		x[a] = s / m[a][a]
	}
	for a := NumJoints - 1; a >= 0; a-- {
		s := x[a]
		for k := a + 1; k < NumJoints; k++ {
			s -= m[k][a] * x[k]
		}
		x[a] = s / m[a][a]
	}
	return true
}

// Relative sets rel[l] to each link's rotation in its parent's frame
// (the palm's in the wrist's) for links posed as Pose poses them: what
// Unpose takes.
func (h *Hand) Relative(links []geom.Transform, rel *[MaxLinks]mgl64.Mat3) {
	for l := range FingerLinks {
		if p := h.links[l].parent; p >= 0 {
			rel[l] = links[p].R.Transpose().Mul3(links[l].R)
		} else {
			rel[l] = links[l].R
		}
	}
}
