// Package handmodel is the articulated hand a glove drives, posed by
// forward kinematics. It models a palm, five fingers of three links each
// (16 rigid links, the branching body of the CAB paper's table 5 hand) and
// an optional forearm; joint axes and limits; the map from calibrated glove
// sensors to joints for 22- and 18-sensor gloves; calibration files, and
// the poses and least-squares fit of a per-user calibration (offset and
// gain per sensor); forward kinematics into caller-owned link transforms;
// and the links' convex geometry with link-frame OBBs; and skinned hand
// meshes as VR apps render them (glTF 2.0 skins, linear blend skinning),
// such as the WebXR generic hand in testdata/webxr-generic-hand; and the 26
// OpenXR hand joints as they ride on the links, with their radii
// (XRJoints).
//
// Sources: the CAB paper (H. Schmidl, N. Walker, M. C. Lin, "CAB: Fast
// Update of OBB Trees for Collision Detection between Articulated Bodies",
// Journal of Graphics Tools 9(2), 2004: the articulated, branching body and
// its links, section 3; the CyberGlove-driven hand of table 5), the public
// CyberGlove drivers (package cyberglove names them: sensor order, what
// drivers do for calibration, DIP synthesis on 18-sensor gloves, derived
// abduction anchored on the middle finger, left-hand mirroring). Segment
// proportions follow Buchholz, Armstrong and Goldstein, "Anthropometric
// data for describing the kinematics of the human hand", Ergonomics 35(3),
// 1992 (lengths as fractions of hand length). Skins: the glTF 2.0
// specification, section 3.7.3 (skins, joint matrices); joint names and
// frames per the WebXR Hand Input and OpenXR XR_EXT_hand_tracking joint
// lists (-Z along each bone toward the fingertip). The OpenXR joints: the
// OpenXR 1.x specification, XR_EXT_hand_tracking (XrHandJointEXT's 26
// joints in order, the palm at the centre of the middle finger's
// metacarpal, each joint's pose with -Z toward the fingertip and +Y out of
// the back of the hand, its radius the distance to the skin), and the W3C
// WebXR Hand Input Module's joint names.
//
// Frames: the hand frame has its origin at the wrist's center, +Y toward
// the fingertips, +Z out of the back of the hand (the palm faces -Z), so
// +X is toward a right hand's little finger and a left hand's thumb (seen
// from its back with the fingers up, a right hand has its thumb on the
// left). Every link frame has its origin at the joint that moves it and +Y
// along the bone. Positive flexion curls toward the palm, positive
// abduction moves toward the thumb. The link table describes the left
// hand; the right hand is its mirror image through the YZ plane, with link
// transforms M·T·M for M = diag(-1, 1, 1), which are rigid, so the sign
// flips of abduction and wrist yaw that drivers apply between gloves of the
// two sides happen by construction.
package handmodel
