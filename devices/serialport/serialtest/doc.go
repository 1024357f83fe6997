// Package serialtest is a fake serial line for byte-exact driver tests, in
// the manner of periph's conntest (periph.io/x/conn/v3/conn/conntest,
// Playback): a Playback is a scripted conversation in which each step is
// what the driver must write and what the device answers. It is a
// serialport.Conn, and Opener hands it to a driver in place of
// serialport.Open.
package serialtest
