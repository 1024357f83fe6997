// Package openxr is gloved's openxr output profile: a hand as OpenXR and
// WebXR see it. Each frame of a hand goes out as the 26 joints of OpenXR's
// hand tracking, named as WebXR names them, with each joint's pose and
// radius in the runtime's conventions, so that an XR app can drive its hand
// from gloved as from a hand tracker. One bundle per frame (split when over
// osc.MaxPacket), stamped with the glove sample's time:
//
//	<prefix>/<hand>/xr/active      i 1 (and 0 in a status bundle when the hand is not tracked)
//	<prefix>/<hand>/xr/handedness  s left | right
//	<prefix>/<hand>/xr/<joint>     f px py pz, f qx qy qz qw, f radius (26, in XrHandJointEXT order)
//
// where <joint> is palm, wrist, thumb-metacarpal ... pinky-finger-tip.
// Positions and radii are in metres and the world is gloved's (OpenXR's
// stage convention: right-handed, +Y up, -Z forward) unless the profile's
// coords say otherwise (geom.Convention). Each joint's quaternion stays in
// the hemisphere of its previous one (osc.Tracks). The joints ride on the
// hand model's links as handmodel.XRJoints places them, for the procedural
// and the skinned hand.
//
// Sources: the OpenXR 1.x specification, XR_EXT_hand_tracking
// (XrHandJointEXT: the joints' order; XrHandJointLocationEXT: a pose and a
// radius per joint, the joint's -Z along the bone toward the fingertip,
// +Y out of the back of the hand; XrHandJointLocationsEXT.isActive), and
// the W3C WebXR Hand Input Module, level 1 (the joints' names, XRHand's
// 25 joints without the palm, and its radius); mgl64 for the poses;
// go-osc reads the bundles back in the tests.
package openxr
