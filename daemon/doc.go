// Package daemon is the gloved service. Today it holds the per-frame
// pipeline (pipeline.go): glove sample -> calibration -> forward
// kinematics -> CAB refit of the hand's box hierarchy -> traversal against
// the scene's OBBTree -> narrow phase, yielding each frame's contacts and
// near misses. The service around it (frame budget, OSC output,
// configuration, logging, metrics, systemd integration) is issue #6.
//
// Sources: the pipeline of shared/seeds/cab-articulated-obb-update.txt
// (section 3.2: update the hierarchy, test it, run the exact query on each
// candidate).
package daemon
