// Package serialtest is a fake serial line for byte-exact driver tests: a
// Playback is a scripted conversation in which each step is what the
// driver must write and what the device answers. It is a serialport.Conn,
// and its Opener hands it to a driver in place of serialport.Open.
//
// Source: periph's conntest (periph.io/x/conn/v3/conn/conntest, its
// Playback of recorded exchanges), the pattern this follows.
package serialtest
