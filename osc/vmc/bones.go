package vmc

import (
	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
)

// HandBone is the hand bone's HumanBodyBones name for a right or left
// hand ("RightHand"): the wrist, which a performer that tracks the arm
// sends turned in its lower arm's frame.
func HandBone(right bool) string {
	if right {
		return "RightHand"
	}
	return "LeftHand"
}

// Bone returns the index of the finger bone named name for the side
// (BoneName's inverse), or -1.
func (e *Hand) Bone(name []byte) int {
	for i := range e.names {
		if string(name) == e.names[i] {
			return i
		}
	}
	return -1
}

// Links reads a performer's bones back into the hand model's links, the
// inverse of Frame for a hand tracker that sends VMC: bones[i] is finger
// bone i's rotation as Frame sends it (local to its parent, in Unity's
// coordinates and the T-pose's axes, identity at rest), got[i] whether
// it came; hand is the hand bone's (its turn in the lower arm's frame,
// the T-pose's identity), gotHand whether it came. It sets rel and have
// for each link a bone moves: the link's rotation in its parent's frame
// (the palm's in the wrist's, from the hand bone), what
// handmodel.Unposer takes. A bone's rotation is unit; positions are not
// read (a performer's are its avatar's, not the hand's). It allocates
// nothing.
func (e *Hand) Links(bones *[NumBones]mgl64.Quat, got *[NumBones]bool, hand mgl64.Quat, gotHand bool,
	rel *[handmodel.MaxLinks]mgl64.Mat3, have *[handmodel.MaxLinks]bool) {
	tposeInv := geom.QuatConj(e.tpose)
	back := geom.Unity.Inverse()
	local := func(q mgl64.Quat) mgl64.Quat {
		return geom.QuatMul(geom.QuatMul(tposeInv, back.Quat(q)), e.tpose)
	}
	for i, l := range boneLinks {
		if have[l] = got[i]; !got[i] {
			continue
		}
		// Frame sent turn_i·rest_i as the link in the palm's frame, and
		// local_i = turn_{i-1}⁻¹·turn_i: so the link in its parent's
		// frame is rest_{i-1}⁻¹·local_i·rest_i (for a finger's first
		// bone, the parent is the palm and rest_{i-1} drops out).
		r := geom.QuatMul(local(bones[i]), geom.QuatConj(e.restInv[i]))
		if !first(i) {
			r = geom.QuatMul(e.restInv[i-1], r)
		}
		rel[l] = r.Mat4().Mat3()
	}
	if have[handmodel.Palm] = gotHand; gotHand {
		rel[handmodel.Palm] = geom.QuatMul(local(hand), e.wrist).Mat4().Mat3()
	}
}
