package view

import "github.com/gloved/gloved/handmodel"

// XRHandURL is where the page finds the WebXR generic hand of a side
// (assets/webxr-generic-hand, MIT, its LICENSE.md beside it): the hand it
// draws for a hand without a skin of its own.
func XRHandURL(right bool) string {
	if right {
		return "webxr-generic-hand/right.glb"
	}
	return "webxr-generic-hand/left.glb"
}

// XRJoint is an OpenXR hand joint as the page poses the WebXR hand's
// bone of that name: the link it rides on (an index into Hand.Links) and
// its frame in the link's, so that the bone's pose is the link's pose,
// as the frame carries it, times Offset. It is handmodel.XRJoints, the
// table the openxr profile sends the joints by, so the page's hand is
// the one OpenXR apps receive.
type XRJoint struct {
	Name string `json:"name"` // the WebXR name ("index-finger-tip"), or "palm"
	Link int32  `json:"link"`
	// Offset is px py pz qx qy qz qw.
	Offset [7]float32 `json:"offset"`
}

// newXRJoints is hand's OpenXR joints for the page.
func newXRJoints(hand *handmodel.Hand) []XRJoint {
	places := hand.XRJoints()
	out := make([]XRJoint, len(places))
	for j, p := range places {
		q, t := p.Offset.Quat(), p.Offset.T
		out[j] = XRJoint{Name: handmodel.XRJoint(j).String(), Link: int32(p.Link),
			Offset: [7]float32{float32(t.X), float32(t.Y), float32(t.Z), float32(q.V[0]), float32(q.V[1]), float32(q.V[2]), float32(q.W)}}
	}
	return out
}
