package openxr

import (
	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
)

// linkJoints says, for each link of the hand proper, which joint rides
// on it in the link's own frame (its first in XrHandJointEXT order: a
// phalanx's joint, the palm's for the palm), and its parent link.
type linkJoints struct {
	joint  [handmodel.FingerLinks]int
	parent [handmodel.FingerLinks]handmodel.Link
}

func newLinkJoints(hand *handmodel.Hand, joints *[handmodel.NumXRJoints]joint) linkJoints {
	var t linkJoints
	for l := range handmodel.FingerLinks {
		t.joint[l] = -1
		t.parent[l] = hand.Parent(handmodel.Link(l))
	}
	for j := len(joints) - 1; j >= 0; j-- {
		if l := joints[j].link; l < handmodel.FingerLinks {
			t.joint[l] = j
		}
	}
	return t
}

// Joint returns the index of the joint named name (its WebXR name, or
// "palm"), or -1.
func Joint(name []byte) int {
	for j := range handmodel.NumXRJoints {
		if string(name) == j.String() {
			return int(j)
		}
	}
	return -1
}

// Links reads the joints' rotations, as Frame sends them (in the hand's
// convention), back into the hand model's links, the inverse of Frame
// for an OpenXR app or bridge that drives gloved: joints[j] is joint j's
// unit quaternion, got[j] whether it came. It sets rel and have for each
// link of the hand proper but the palm whose joint and parent's joint
// came: the link's rotation in its parent's frame, what
// handmodel.Unposer takes. The palm's turn at the wrist is the wrist
// pose's to carry, not a joint's: OpenXR places the palm in the world.
// It allocates nothing.
func (e *Hand) Links(joints *[handmodel.NumXRJoints]mgl64.Quat, got *[handmodel.NumXRJoints]bool,
	rel *[handmodel.MaxLinks]mgl64.Mat3, have *[handmodel.MaxLinks]bool) {
	back := e.c.Inverse()
	world := func(l handmodel.Link) (mgl64.Quat, bool) {
		j := e.links.joint[l]
		if j < 0 || !got[j] {
			return mgl64.Quat{}, false
		}
		return geom.QuatMul(back.Quat(joints[j]), geom.QuatConj(e.joints[j].turn)), true
	}
	have[handmodel.Palm] = false
	for l := handmodel.Palm + 1; l < handmodel.FingerLinks; l++ {
		w, ok := world(l)
		p, pok := world(e.links.parent[l])
		if have[l] = ok && pok; have[l] {
			rel[l] = geom.QuatMul(geom.QuatConj(p), w).Mat4().Mat3()
		}
	}
}
