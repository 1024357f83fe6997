// Package sim is a deterministic simulated glove, registered as the
// driver device = "sim". Its motions (grasp, tap, pinch and others) are
// pure functions of time (Raw), and Glove, a devices.Device, yields them
// at a sample period, in real time or as fast as read. The demo, the
// emulator and the benchmarks drive the hand with it.
//
// Source: the CyberGlove serial protocol as package cyberglove cites it
// (the 22-sensor slot order and 8-bit value range the motions are written
// in).
package sim
