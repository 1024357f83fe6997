// Package printable makes text from outside safe to show on a terminal:
// the object names of a scene file (package env), and the addresses and
// strings of a peer's OSC messages (gloved watch).
package printable
