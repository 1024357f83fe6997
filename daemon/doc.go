// Package daemon is the gloved service: it runs a hand per configured glove
// and sends their frames over OSC. It holds the configuration file
// (config.go), the daemon that runs one session.Session per configured hand
// (hand.go: a reader keeps the newest sample; frames.go: the frame loop,
// event-driven by its glove, within a frame budget, publishing every frame
// over OSC, and the status loop beside it, which keeps each hand's status
// coming at least once a second in every state), the output profiles
// (profiles.go: [[osc.profile]], each a profile of package osc/profile's
// registry, none named here; outputs.go: each hand's frames and statuses
// in every profile, after gloved's own bundle), Prometheus metrics
// and the status snapshot (metrics.go), and the service around it: logging,
// the built-in demo config, reload on SIGHUP (service.go). The per-frame
// pipeline itself is package session's.
//
// Sources: the pipeline of the CAB paper (H. Schmidl, N. Walker, M. C. Lin,
// "CAB: Fast Update of OBB Trees for Collision Detection between
// Articulated Bodies", Journal of Graphics Tools 9(2), 2004, section 3.2:
// update the hierarchy, test it, run the exact query on each candidate);
// the OSC contract is package osc's and docs/osc.md's, each profile's its
// package's (those osc/profile/all imports).
package daemon
