// Package sim is a deterministic simulated glove: grasp, tap and pinch
// motions as pure functions of time (Raw), and Glove, a devices.Device that
// yields them at a sample period, in real time or as fast as read. The
// demo, the emulator and the benchmarks drive the hand with it.
//
// Source: shared/reference/cyberglove-protocol.md (the 22-sensor slot
// order and 8-bit value range the motions are written in).
package sim
