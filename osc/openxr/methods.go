package openxr

import (
	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/osc"
)

// Methods describes the profile's messages for each hand in convention c
// (its coords), in the order a frame holds them: positions and radii in
// c's unit (distance.cm under coords = "unreal"), and each joint's axes
// named as c names them (OpenXR's -Z along the bone is Unreal's +X).
func Methods(c geom.Convention) []osc.Method {
	length := osc.LengthUnit(c)
	bone, back := c.Axis(mgl64.Vec3{0, 0, -1}), c.Axis(mgl64.Vec3{0, 1, 0})
	ms := []osc.Method{
		{Path: "{prefix}/{hand}/xr/active", Access: osc.Sent, When: "every frame, first (1), and with the hand's status (1 while its status is streaming, degraded or replay, 0 otherwise)",
			Args:        []osc.Arg{{Type: 'i', Name: "active", Range: osc.Between(0, 1)}},
			Description: "Whether the hand is tracked, as OpenXR's isActive: the joints that follow are valid."},
		{Path: "{prefix}/{hand}/xr/handedness", Access: osc.Sent, When: "every frame",
			Args:        []osc.Arg{{Type: 's', Name: "handedness", Range: osc.OneOf("left", "right")}},
			Description: "Which hand this is, as WebXR's XRInputSource.handedness."},
	}
	for j := range handmodel.NumXRJoints {
		args := append(append(osc.Vec3Args("position", length), osc.QuatArgs("rotation")...), osc.Arg{Type: 'f', Name: "radius", Unit: length, Range: osc.AtLeast(0)})
		desc := "The " + j.String() + " joint's pose in the world (" + bone + " along the bone toward the fingertip, " + back + " out of the back of the hand) and its radius."
		if note := osc.InCoordinates(c); note != "" {
			desc += " " + note
		}
		ms = append(ms, osc.Method{Path: "{prefix}/{hand}/xr/" + j.String(), Access: osc.Sent, When: "every frame, in XrHandJointEXT order",
			Args: args, Description: desc})
	}
	return ms
}
