// Package daemon will hold the per-frame pipeline of the gloved service:
// glove sample -> hand pose -> CAB refit -> scene traversal -> narrow phase
// -> OSC bundle, within a frame budget, with configuration, logging,
// metrics and systemd integration.
//
// Sources: the pipeline of shared/seeds/cab-articulated-obb-update.txt
// (section 5, the per-frame update and test loop). Nothing is implemented
// here yet: the daemon is issue #6, after the glove, CAB and narrow-phase
// issues it depends on.
package daemon
