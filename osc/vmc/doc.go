// Package vmc is gloved's vmc output profile: a hand's fingers as VMC
// protocol bones, for VTuber apps. Each frame of a hand goes out as a VMC
// protocol performer sends it to a marionette (VSeeFace, Warudo, a
// Unity app with EVMC4U, VMC4UE), so that the receiver's avatar moves its
// fingers as the glove's. One bundle per frame (split when over
// osc.MaxPacket), stamped with the glove sample's time:
//
//	/VMC/Ext/OK        i 1 (loaded), i 3 (calibrated), i 0 (normal mode), i tracking (1; 0 in a status bundle once no hand is tracked)
//	/VMC/Ext/T         f time (s, since the daemon started; never going back)
//	/VMC/Ext/Bone/Pos  s bone, f px py pz, f qx qy qz qw (one per finger bone, 15)
//
// The bones are Unity's HumanBodyBones for the side's fingers, Left or
// Right, then ThumbProximal, ThumbIntermediate, ThumbDistal, IndexProximal
// ... LittleDistal (Unity's thumb "proximal" bone is the hand model's
// thumb metacarpal). Each is local to its parent (the hand bone for a
// finger's first), in Unity's left-handed coordinates, as a normalized
// (VRM 0.x) rig takes it: the rotation is the link's turn from its rest
// pose (fingers straight), carried into the avatar's T-pose axes for that
// side (a left hand's fingers along -X, the back of the hand +Y, the
// thumb toward +Z; a right hand's fingers along +X), identity at rest; the
// position is the bone's rest offset from its parent there, in metres.
// Each bone's quaternion stays in the hemisphere of its previous one.
// The hand bone itself (the wrist) is left to the avatar's own tracking.
// OK and T are the performer's (Performer): every hand of one output
// shares them, tracked while any hand is, one time that never goes back.
//
// Sources: the VMC protocol specification, protocol.vmc.info (the
// marionette's receiving side, marionette-spec: /VMC/Ext/OK with its
// calibration and tracking arguments of versions 2.5 and 2.7, /VMC/Ext/T,
// /VMC/Ext/Bone/Pos as a bone's local pose named by HumanBodyBones, port
// 39539), and EVMC4U's ExternalReceiver (gpsnmeajp/
// EasyVirtualMotionCaptureForUnity), the reference marionette: it takes
// bundles and bare messages alike (hecomi/uOSC's Parser unpacks a bundle
// into its messages, reading the types i, f, s and b: all this profile
// sends are among them), sets each bone's localRotation
// and, unless its BonePositionSynchronize is off, its localPosition, from
// Bone/Pos, and counts one /VMC/Ext/T per packet frame. Unity's
// HumanBodyBones names and its coordinates (left-handed, Y up, Z
// forward): geom.Unity. mgl64 for the rotations; go-osc reads the
// bundles back in the tests.
package vmc
