package handmodel

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
)

// Pose computes every link's world transform from joint angles and the
// wrist pose (the world placement of the hand frame at the wrist, as a
// tracker or the config gives it) into out, which must hold NumLinks
// transforms. Angles are used as given (Clamp them first to honour the
// limits). Pose allocates nothing.
func (h *Hand) Pose(q *Angles, wrist geom.Transform, out []geom.Transform) {
	_ = out[len(h.links)-1]
	// A right hand mirrors every local transform of the table's left hand:
	// M(A·B)M = (MAM)(MBM), so the chain composes as usual and the wrist is
	// applied at the roots.
	right := h.Params.Right
	if len(h.links) > FingerLinks {
		// The forearm, a root, comes last in the table and first in the chain.
		out[Forearm] = wrist.Mul(h.local(Forearm, q, right))
	}
	for i := range FingerLinks {
		l := &h.links[i]
		x := h.local(Link(i), q, right)
		if l.parent >= 0 {
			out[i] = out[l.parent].Mul(x)
		} else {
			out[i] = wrist.Mul(x)
		}
	}
}

// local returns link l's transform in its parent's frame (in the hand frame
// for roots), mirrored for a right hand (the table is the left).
func (h *Hand) local(l Link, q *Angles, right bool) geom.Transform {
	d := &h.links[l]
	r := mgl64.Ident3()
	for _, e := range d.rots {
		a := e.offset
		if e.joint >= 0 {
			a += e.scale * q[e.joint]
		}
		if a != 0 {
			rotateLocal(&r, e.axis, a)
		}
	}
	x := geom.Transform{R: r, T: d.origin}
	if d.skinned {
		x.R = d.restT.Mul3(r)
	}
	if right {
		x = mirror(x)
	}
	if d.skinned {
		x = d.pre.Mul(x)
	}
	return x
}

// rotateLocal sets r = r·R_k(a), the rotation by a about frame axis k
// (right-hand rule), touching only the two columns that change.
func rotateLocal(r *mgl64.Mat3, k int, a float64) {
	s, c := math.Sincos(a)
	// Columns i and j mix: col_i' = c·col_i + s·col_j, col_j' = c·col_j - s·col_i
	// with (i, j) = (y, z) for x, (z, x) for y, (x, y) for z.
	i, j := (k+1)%3, (k+2)%3
	for row := range 3 {
		ci, cj := r[3*i+row], r[3*j+row]
		r[3*i+row] = c*ci + s*cj
		r[3*j+row] = c*cj - s*ci
	}
}

// mirror returns M·x·M for M = diag(-1, 1, 1): the same motion seen in a
// mirror through the YZ plane. It is rigid (det +1).
func mirror(x geom.Transform) geom.Transform {
	r := x.R
	// Entries in row 0 or column 0, but not both, change sign.
	r[1], r[2] = -r[1], -r[2] // column 0, rows 1-2
	r[3], r[6] = -r[3], -r[6] // row 0, columns 1-2
	x.R = r
	x.T.X = -x.T.X
	return x
}
