// Package printable makes text from outside safe to show on a terminal:
// the object names of a scene file (package env), and the addresses and
// strings of a peer's OSC messages (gloved watch).
//
// Source: the control functions a terminal obeys, C0 and C1 and the
// escape sequences they begin (ECMA-48, "Control Functions for Coded
// Character Sets", 5th edition, 1991), and Unicode's general categories
// Cc and Cf, the latter holding the bidirectional overrides (The Unicode
// Standard, chapter 4.5 "General Category"; Go's unicode.IsControl and
// unicode.Cf).
package printable
