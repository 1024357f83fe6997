// Package emulatortest runs the glove emulator on a pseudo-terminal for
// tests: it records what the emulator sends, opens the real driver on it,
// and checks that what a reader received was sent.
//
// Source: the CyberGlove serial protocol as package cyberglove cites it
// (what the emulator sends).
package emulatortest
