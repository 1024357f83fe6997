// Package serialtest is a fake serial port for byte-exact driver tests, in
// the manner of periph's conntest: a Playback is a scripted conversation in
// which each step is what the driver must write and what the device answers.
//
// Source: shared/reference/cyberglove-protocol.md (the exchanges scripted).
package serialtest
