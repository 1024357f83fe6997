// Package all registers every contact method gloved ships: import it for
// its side effect wherever scenes are prepared (contact.NewScene). A new
// method is a package that registers itself from its init function, and
// one import line here.
//
// Source: the registration pattern of tailscale's tailscaled, whose
// feature packages register themselves and one package imports them all
// (tailscale.com/feature/condregister).
package all
