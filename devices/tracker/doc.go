// Package tracker is a hand tracker as a glove: the drivers device =
// "vmc" and device = "osc", listening over UDP for a tracker's poses.
// They turn them into the hand model's joint angles, so that gloved's
// contacts follow an optical hand tracker (a webcam tracker such as XR
// Animator, Quest or Ultraleap hand tracking through a VMC or OpenXR
// bridge) or another gloved.
//
//   - vmc reads a VMC performer's /VMC/Ext/Bone/Pos finger bones (and
//     the hand bone, for the wrist's joints) of the hand's side, through
//     the vmc output profile's own bone tables in reverse
//     (vmc.Hand.Links);
//   - osc reads gloved's own <prefix>/<hand>/joints, as gloved sends
//     them, or the openxr output profile's 26 joints
//     (openxr.Hand.Links).
//
// Bone rotations become joint angles by the hand model's inverse
// (handmodel.Unposer), on the procedural hand of the config's length and
// breadth: a performer's bone positions are its avatar's, not its
// hand's, so the size is configured, not measured. Both listen on loopback unless told; a datagram from elsewhere
// drives the hand only from a source in osc.allow, and is counted
// (devices.Faults.Denied) otherwise. A pose must be finite and bounded
// as the OSC wrist pose is (geom.PoseError), a joint angle within a
// turn; a message that is not is dropped and counted. A tracker that has
// sent nothing is no glove; one that falls silent is stalled. The hand
// holds its last pose for hold_ms once the tracking is lost (silent for
// 100 ms, or said so), then opens. It takes at most 200 poses a second
// (maxPoseRate): faster ones are coalesced to the newest, so that a
// flood on loopback cannot drive a hand's frames, nor starve the other
// hands'.
// Its samples are recorded as samples (joint angles) and replayed.
//
// Sources: the VMC protocol specification (protocol.vmc.info:
// /VMC/Ext/Bone/Pos, /VMC/Ext/OK's tracking argument of version 2.7,
// port 39539) as package osc/vmc cites it; OpenXR's
// XR_EXT_hand_tracking as package osc/openxr cites it; the OSC 1.0
// specification (messages, bundles, type tags i, f and s).
package tracker
