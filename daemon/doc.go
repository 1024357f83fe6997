// Package daemon is the gloved service: the per-frame pipeline
// (pipeline.go: glove sample -> calibration -> forward kinematics -> CAB
// refit of the hand's box hierarchy -> traversal against the scene's
// OBBTree -> narrow phase), the configuration file (config.go), and the
// daemon that runs one pipeline per configured hand, event-driven by its
// glove, within a frame budget, publishing every frame over OSC, with
// logging, metrics and systemd notifications (daemon.go, hand.go).
//
// Sources: the pipeline of shared/seeds/cab-articulated-obb-update.txt
// (section 3.2: update the hierarchy, test it, run the exact query on each
// candidate); the OSC contract is package osc's and the README's.
package daemon
