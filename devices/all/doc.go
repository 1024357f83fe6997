// Package all links every shipped glove driver into a program: importing
// it registers them (each driver package registers itself from its init,
// with driver.Register). The session imports it, and so does the replay,
// so that a recording of any shipped glove plays. Adding a glove is a
// package of its own and one import line here; a driver that needs the
// hand model (the hand trackers, devices/tracker) is linked by the
// session instead, as the hand model's tests replay recordings.
//
// Source: the pattern of tailscale's cmd/tailscaled, whose feature/condregister
// packages link each optional subsystem by a blank import, and of Go's
// database/sql drivers, registered from their init.
package all
