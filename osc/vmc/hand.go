package vmc

import (
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/osc"
)

// DefaultPort is where a VMC marionette listens.
const DefaultPort = 39539

// The profile's addresses.
const (
	AddrOK   = "/VMC/Ext/OK"
	AddrTime = "/VMC/Ext/T"
	AddrBone = "/VMC/Ext/Bone/Pos"
)

// NumBones is the number of finger bones a hand sends.
const NumBones = 15

// boneNames are Unity's HumanBodyBones for a hand's fingers, without the
// side, in the order of boneLinks.
var boneNames = [NumBones]string{
	"ThumbProximal", "ThumbIntermediate", "ThumbDistal",
	"IndexProximal", "IndexIntermediate", "IndexDistal",
	"MiddleProximal", "MiddleIntermediate", "MiddleDistal",
	"RingProximal", "RingIntermediate", "RingDistal",
	"LittleProximal", "LittleIntermediate", "LittleDistal",
}

// boneLinks are the hand model's link each bone is: the thumb's
// metacarpal and phalanges, each finger's phalanges.
var boneLinks = [NumBones]handmodel.Link{
	handmodel.ThumbMetacarpal, handmodel.ThumbProximal, handmodel.ThumbDistal,
	handmodel.IndexProximal, handmodel.IndexMiddle, handmodel.IndexDistal,
	handmodel.MiddleProximal, handmodel.MiddleMiddle, handmodel.MiddleDistal,
	handmodel.RingProximal, handmodel.RingMiddle, handmodel.RingDistal,
	handmodel.LittleProximal, handmodel.LittleMiddle, handmodel.LittleDistal,
}

// BoneName returns bone i's HumanBodyBones name for a right or left hand
// ("RightIndexDistal").
func BoneName(i int, right bool) string {
	if right {
		return "Right" + boneNames[i]
	}
	return "Left" + boneNames[i]
}

// BoneLink returns the hand model's link bone i is.
func BoneLink(i int) handmodel.Link { return boneLinks[i] }

// TPose returns the rotation that takes a hand's frame (+Y toward the
// fingers, +Z out of the back) to its orientation in gloved's world when
// an avatar facing forward (-Z) stands in a T-pose: the arm out to its
// side, palm down, thumb forward. geom.Unity then carries it into the
// avatar's coordinates.
func TPose(right bool) mgl64.Mat3 {
	if right {
		// Fingers +X, back +Y, thumb (-X of a right hand's frame) forward.
		return mgl64.Mat3FromCols(mgl64.Vec3{0, 0, 1}, mgl64.Vec3{1, 0, 0}, mgl64.Vec3{0, 1, 0})
	}
	// Fingers -X, back +Y, thumb (+X of a left hand's frame) forward.
	return mgl64.Mat3FromCols(mgl64.Vec3{0, 0, -1}, mgl64.Vec3{-1, 0, 0}, mgl64.Vec3{0, 1, 0})
}

// Hand encodes one hand's frames as its performer's finger bones. It is
// built once per hand from the hand model and used by the hand's frame
// loop alone.
type Hand struct {
	p       *Performer
	index   int // the hand's, in its performer
	names   [NumBones]string
	restInv [NumBones]mgl64.Quat // each link's rest rotation in the palm's frame, inverted
	pos     [NumBones]mgl64.Vec3 // each bone's local position, in Unity's coordinates
	tpose   mgl64.Quat
	wrist   mgl64.Quat // the palm's rest rotation in the wrist's frame (Links)
	tracks  osc.Tracks
	turns   [NumBones]mgl64.Quat // scratch: each link's turn from rest, in the palm's frame
}

// NewHand returns the encoder of hand's frames, the hand numbered index
// (from 0) of performer p.
func NewHand(hand *handmodel.Hand, p *Performer, index int) *Hand {
	right := hand.Params.Right
	e := &Hand{p: p, index: index, tpose: mgl64.Mat4ToQuat(TPose(right).Mat4())}
	rest := make([]geom.Transform, hand.NumLinks())
	hand.Pose(&handmodel.Angles{}, geom.Identity(), rest)
	palm := rest[handmodel.Palm]
	e.wrist = palm.Quat()
	for i, l := range boneLinks {
		e.names[i] = BoneName(i, right)
		local := palm.Inverse().Mul(rest[l])
		e.restInv[i] = local.Quat().Inverse()
		parent := palm
		if p := hand.Parent(l); p != handmodel.Palm {
			parent = rest[p]
		}
		e.pos[i] = geom.Unity.Point(e.tpose.Rotate(palm.Inverse().Rotate(rest[l].T.Sub(parent.T)).Mgl()))
	}
	e.tracks.Reset(NumBones)
	return e
}

// first reports whether bone i is its finger's first (its parent is the
// hand bone).
func first(i int) bool { return i%3 == 0 }

// Frame encodes f, the hand's frame at time at, with w: the performer's
// /VMC/Ext/OK (tracked: this hand is) and /VMC/Ext/T (at, unless the
// performer has sent a later time), then the hand's 15 finger bones. A
// frame that is not finite (osc.Frame.Finite) writes nothing. The bundle
// must be sent before the performer's next is made (see Performer). Once
// its buffers have grown it allocates nothing.
func (e *Hand) Frame(w *osc.Writer, f *osc.Frame, at time.Time) {
	w.Begin(osc.Timetag(at))
	if !f.Finite() || len(f.Links) < handmodel.FingerLinks {
		return
	}
	e.tracks.Begin(f)
	e.p.tracked[e.index] = true
	e.p.state(w, at)
	palm := geom.QuatConj(f.Links[handmodel.Palm].Q)
	tposeInv := geom.QuatConj(e.tpose)
	for i, l := range boneLinks {
		// The link's turn from rest in the palm's frame; the bone's local
		// turn is that after its parent's.
		e.turns[i] = geom.QuatMul(geom.QuatMul(palm, f.Links[l].Q), e.restInv[i])
		local := e.turns[i]
		if !first(i) {
			local = geom.QuatMul(geom.QuatConj(e.turns[i-1]), local)
		}
		q := e.tracks.Next(i, geom.Unity.Quat(geom.QuatMul(geom.QuatMul(e.tpose, local), tposeInv)))
		w.Message(AddrBone)
		w.String(e.names[i])
		w.Pose(&e.pos[i], &q)
		w.End()
	}
}
