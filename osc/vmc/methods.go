package vmc

import "github.com/gloved/gloved/osc"

// Methods describes the profile's messages, in the order a frame holds
// them. They are the VMC protocol's, not a hand's: both hands send them,
// each its own side's bones, OK and T the performer's (Performer).
func Methods() []osc.Method {
	var bones []string
	for _, right := range []bool{false, true} {
		for i := range NumBones {
			bones = append(bones, BoneName(i, right))
		}
	}
	return []osc.Method{
		{Path: AddrOK, Access: osc.Sent, When: "every frame, first, and with each hand's status",
			Args: []osc.Arg{{Type: 'i', Name: "loaded", Range: osc.Between(1, 1)}, {Type: 'i', Name: "calibration state", Range: osc.Between(3, 3)},
				{Type: 'i', Name: "calibration mode", Range: osc.Between(0, 0)}, {Type: 'i', Name: "tracking", Range: osc.Between(0, 1)}},
			Description: "A model is loaded and calibrated (VMC 2.5), and whether the performer is tracked (VMC 2.7): 1 while any hand of the profile is (its status streaming, degraded or replay: it has live poses), 0 once none is."},
		{Path: AddrTime, Access: osc.Sent, When: "every frame, and with each hand's status",
			Args:        []osc.Arg{{Type: 'f', Name: "time", Unit: "time.second", Range: osc.AtLeast(0)}},
			Description: "The performer's time: seconds since the daemon started of the latest frame's glove sample, never going back (a frame of an older sample or a status bundle repeats the last; 0 before the first frame)."},
		{Path: AddrBone, Access: osc.Sent, When: "every frame, one per finger bone of the hand",
			Args:        append(append([]osc.Arg{{Type: 's', Name: "bone", Range: osc.OneOf(bones...)}}, osc.Vec3Args("local position", "distance.m")...), osc.QuatArgs("rotation")...),
			Description: "A finger bone's pose in its parent's frame, in Unity's coordinates, as a normalized (VRM 0.x) rig takes it: its rest offset, and its turn from the rest pose with the fingers straight in the avatar's T-pose axes."},
	}
}
