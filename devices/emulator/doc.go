// Package emulator answers the CyberGlove I/II protocol like an interface
// unit, on a pseudo-terminal that a driver opens like any serial port: the
// queries, settings, streaming and polling, with injected faults (garbage
// bursts, the glove unplugged from the unit, the port hung up and back,
// the unit silent). Its sensor values come from a Source: a simulated
// motion, a recording, or a Script of named poses held in turn (scripted
// calibration poses, with noise).
// `gloved emulate` serves it; the driver and daemon tests run against it
// through emulatortest.
//
// Source: shared/reference/cyberglove-protocol.md (commands, replies,
// record framing and error tails as a unit sends them).
package emulator
