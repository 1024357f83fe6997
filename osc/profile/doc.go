// Package profile is the registry of gloved's output profiles: the
// dialects (and coordinates) an [[osc.profile]] table can send a hand's
// frames in besides gloved's own contract. Each profile is a package that
// registers itself from its init (Register) with what the daemon asks of
// it: its name, its own keys in the table and their checks (Keys,
// Configure), where it sends by default (DefaultTargets), the coordinates
// it takes (Coords; Preset for any of geom's presets; a profile embeds
// Defaults for what it does not say, or is ByCoords), its contract for
// the tests and the OSCQuery tree (Config.Methods, Tree), and, for a
// daemon run, an Output that makes each hand's frame Encoder and writes
// each hand's Status. The daemon names no profile: it looks each table's
// up by name (Lookup), and package osc/profile/all imports the
// profiles gloved ships. A new profile is one new package and one line in
// all (or, for a test's profile, one import in the test).
//
// The shape is tailscale's extension registry, made to fit a profile:
// the constructor is Configure, which checks a table, and the instance
// is an Output per daemon run. Optional abilities are one-method
// interfaces, as periph.io's are: a Config that is a Tree describes
// another tree than its contract; an Output that is a sync.Locker shares
// state between its hands.
//
// Sources: tailscale's ipn/ipnext package (github.com/tailscale/tailscale:
// RegisterExtension, called from each feature package's init with its
// name and constructor, a duplicate name a panic) and its
// feature/condregister package, which imports the features a build
// includes so that the core names none; periph.io's conn package
// (periph.io/x/conn: abilities as small interfaces); the OSCQuery
// proposal (Vidvox, github.com/Vidvox/OSCQueryProposal) for the methods,
// as package osc describes them. The shipped profiles cite their own:
// OpenXR's XR_EXT_hand_tracking (osc/openxr), the VMC protocol
// specification at protocol.vmc.info (osc/vmc), VRChat's OSC
// documentation (osc/vrchat).
package profile
