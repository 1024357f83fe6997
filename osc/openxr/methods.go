package openxr

import (
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/osc"
)

// Methods describes the profile's messages for each hand, in the order a
// frame holds them, with the units of gloved's own coordinates (metres;
// centimetres under coords = "unreal").
func Methods() []osc.Method {
	ms := []osc.Method{
		{Path: "{prefix}/{hand}/xr/active", Access: osc.Sent, When: "every frame, first (1), and with the hand's status (0 unless streaming or replaying)",
			Args:        []osc.Arg{{Type: 'i', Name: "active", Range: osc.Between(0, 1)}},
			Description: "Whether the hand is tracked, as OpenXR's isActive: the joints that follow are valid."},
		{Path: "{prefix}/{hand}/xr/handedness", Access: osc.Sent, When: "every frame",
			Args:        []osc.Arg{{Type: 's', Name: "handedness", Range: osc.OneOf("left", "right")}},
			Description: "Which hand this is, as WebXR's XRInputSource.handedness."},
	}
	for j := range handmodel.NumXRJoints {
		args := append(append(osc.Vec3Args("position", "distance.m"), osc.QuatArgs("rotation")...), osc.Arg{Type: 'f', Name: "radius", Unit: "distance.m", Range: osc.AtLeast(0)})
		ms = append(ms, osc.Method{Path: "{prefix}/{hand}/xr/" + j.String(), Access: osc.Sent, When: "every frame, in XrHandJointEXT order",
			Args:        args,
			Description: "The " + j.String() + " joint's pose in the world (-Z along the bone toward the fingertip, +Y out of the back of the hand) and its radius."})
	}
	return ms
}
