// Package emulatortest runs the glove emulator on a pseudo-terminal for
// tests: it records what the emulator sends, opens the real driver on it,
// and checks that what a reader received was sent.
//
// Source: shared/reference/cyberglove-protocol.md (what the emulator sends).
package emulatortest
