package geom

import "github.com/go-gl/mathgl/mgl64"

// Hemisphere returns q or -q, whichever lies in ref's hemisphere: the one
// whose dot product with ref is not negative. Both are the same rotation,
// but an app that filters or blends quaternions component by component
// (TouchDesigner's and Max's per-channel filters, nlerp, a glTF viewer's
// linear interpolation) turns the long way round, or through a zero
// quaternion, between two of opposite signs. At a dot product of exactly 0
// (rotations 180 degrees apart) neither sign is nearer; q is kept as it is.
func Hemisphere(q, ref mgl64.Quat) mgl64.Quat {
	if q.Dot(ref) < 0 {
		return mgl64.Quat{W: -q.W, V: mgl64.Vec3{-q.V[0], -q.V[1], -q.V[2]}}
	}
	return q
}

// QuatTrack keeps one rotation's quaternions in one hemisphere over a
// stream of frames: each is given the sign nearer the previous one, so
// that consecutive quaternions never have a negative dot product. A stream
// starts in the identity's hemisphere: its first quaternion has W >= 0.
// The zero value is at the start of a stream; Reset starts a new one. A
// quaternion that is not finite is passed through and not remembered: the
// next one follows the last finite one.
type QuatTrack struct {
	last    mgl64.Quat
	started bool
}

// Next returns q or -q, in the hemisphere of the track's previous
// quaternion (of the identity at the start of a stream), and remembers it.
func (t *QuatTrack) Next(q mgl64.Quat) mgl64.Quat {
	ref := t.last
	if !t.started {
		ref = mgl64.Quat{W: 1}
	}
	q = Hemisphere(q, ref)
	if Finite(q.W) && Finite3(q.V) {
		t.last, t.started = q, true
	}
	return q
}

// Last returns the last finite quaternion Next returned (the identity at
// the start of a stream).
func (t *QuatTrack) Last() mgl64.Quat {
	if !t.started {
		return mgl64.QuatIdent()
	}
	return t.last
}

// Reset starts a new stream: the next quaternion is taken with W >= 0.
func (t *QuatTrack) Reset() { *t = QuatTrack{} }
