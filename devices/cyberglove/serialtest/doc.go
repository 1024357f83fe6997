// Package serialtest is a fake serial port for byte-exact driver tests, in
// the manner of periph's conntest. A Playback is a scripted conversation in
// which each step is what the driver must write and what the device answers.
//
// Source: the CyberGlove serial protocol as package cyberglove cites it
// (the exchanges scripted).
package serialtest
