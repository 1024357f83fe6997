package geom

import (
	"math"
	"math/rand/v2"

	"github.com/go-gl/mathgl/mgl64"
)

// halfspace is n·x <= d with |n| = 1.
type halfspace struct {
	n Vec3
	d float64
}

// feasible is the slow exact reference for convex intersection: the
// polytope {x : n·x <= d + slack for all h} is non-empty and bounded iff one
// of its vertices, the solution of three of the planes, satisfies every
// constraint. It enumerates all triples.
func feasible(hs []halfspace, slack, tol float64) bool {
	for i := range hs {
		for j := i + 1; j < len(hs); j++ {
			for k := j + 1; k < len(hs); k++ {
				m := mgl64.Mat3FromRows(hs[i].n.Mgl(), hs[j].n.Mgl(), hs[k].n.Mgl())
				det := m.Det()
				if math.Abs(det) < 1e-9 {
					continue
				}
				x := FromMgl(m.Inv().Mul3x1(mgl64.Vec3{hs[i].d + slack, hs[j].d + slack, hs[k].d + slack}))
				ok := true
				for _, h := range hs {
					if h.n.Dot(x) > h.d+slack+tol {
						ok = false
						break
					}
				}
				if ok {
					return true
				}
			}
		}
	}
	return false
}

func boxHalfspaces(b OBB, hs []halfspace) []halfspace {
	for i := range 3 {
		a := b.Axis(i)
		c := a.Dot(b.Center)
		hs = append(hs, halfspace{a, c + b.Half.At(i)}, halfspace{a.Mul(-1), -c + b.Half.At(i)})
	}
	return hs
}

func randRotation(r *rand.Rand) mgl64.Mat3 {
	q := mgl64.Quat{W: r.NormFloat64(), V: mgl64.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}}.Normalize()
	return q.Mat4().Mat3()
}

func randVec(r *rand.Rand, s float64) Vec3 {
	return Vec3{(2*r.Float64() - 1) * s, (2*r.Float64() - 1) * s, (2*r.Float64() - 1) * s}
}

// randBox draws a box that is often degenerate (zero extents) and often
// shares axes with other (returned by the caller) boxes.
func randBox(r *rand.Rand, axes mgl64.Mat3) OBB {
	b := OBB{Center: randVec(r, 1.5), Axes: axes}
	var half mgl64.Vec3
	for i := range 3 {
		if r.IntN(6) == 0 {
			continue // zero thickness along i
		}
		half[i] = 0.05 + r.Float64()
	}
	b.Half = FromMgl(half)
	return b
}
