// Package session builds what one hand needs, once, for the daemon and for
// every offline command alike: a Spec (which glove, its calibration, the
// hand's size, where to record) opens the glove (Glove: the device, its
// calibration, the recorder, the recorded wrist) and, with a scene, the
// frame Pipeline (calibration -> forward kinematics -> CAB refit ->
// traversal against the scene's OBBTree -> narrow phase). Scenes are loaded
// here too, from files or the built-in table with a ball.
//
// The shape follows tailscaled: each subsystem is built by one constructor
// that every entry point calls. The per-frame path is the product's
// pipeline as the papers in shared/seeds describe it: the CAB refit
// (shared/seeds/cab-articulated-obb-update.txt) of the hand's hierarchy,
// tested against the scene's OBBTree (shared/seeds/obbtree-gottschalk-1996.txt),
// then exact contacts.
package session
