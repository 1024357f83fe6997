// Package session builds what one hand needs, once, for the daemon and for
// every offline command alike. A Spec (which glove, its calibration, the
// hand's size, where to record) opens the glove (Glove: the device, its
// calibration, the recorder, the recorded wrist) and, with a scene, the
// frame Pipeline (calibration -> forward kinematics -> CAB refit ->
// traversal against the scene's OBBTree -> narrow phase). Scenes are loaded
// here too, from files or the built-in table with a ball.
//
// The shape follows tailscaled: each subsystem is built by one constructor
// that every entry point calls.
//
// Sources: the per-frame path is the pipeline of the papers gloved
// implements: the CAB refit of the hand's hierarchy (H. Schmidl, N. Walker,
// M. C. Lin, "CAB: Fast Update of OBB Trees for Collision Detection
// between Articulated Bodies", Journal of Graphics Tools 9(2), 2004),
// tested against the scene's OBBTree (S. Gottschalk, M. C. Lin,
// D. Manocha, "OBBTree: A Hierarchical Structure for Rapid Interference
// Detection", SIGGRAPH 1996), then exact contacts.
package session
