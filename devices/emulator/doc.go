// Package emulator answers the CyberGlove protocol like an interface unit,
// on a pseudo-terminal that a driver opens like any serial port. It answers
// a CyberGlove I/II's queries, settings, streaming and polling, and, as a
// CyberGlove III, also 1eu and 1S with its 16-bit stream at 90 Hz (the
// 1S echo before the first stamp included); with injected faults (garbage
// bursts, in the III's stream also spurious nS and e1S fragments, the
// glove unplugged from the unit, the port hung up and back, the unit
// silent). Its sensor values come from a Source in 8-bit counts: a
// simulated motion, a recording, or a Script of named poses held in turn
// (scripted calibration poses, with noise); a III widens each to 12 bits
// with seeded low bits.
// OpenGloves is the other glove it emulates: a LucidGloves firmware's
// alpha-encoded lines at 1023 or 4095, with splay, the wait for the
// host's line a force-feedback firmware makes, garbage and silence.
// `gloved emulate` serves them; the driver and daemon tests run against it
// through emulatortest.
//
// Source: the CyberGlove serial protocol as package cyberglove cites it
// (commands, replies, record framing and error tails as a unit sends them;
// the III's record).
package emulator
