// Package drivertest is a glove driver for tests. It is the proof that a
// glove is one package plus one registration line: importing it
// registers device = "testglove" (driver.Register, from its init), whose
// five curl sensors read at 10 bits and two measured wrist angles are a
// layout of its own, with its own map onto the hand's joints, its own
// shipped calibration and its own keys (options.wave, options.hz). Its
// test opens it from a daemon config through the same entry points as
// every glove: the config check, the session, the calibration, the hand,
// the pipeline, the recording and its replay.
//
// Source: the registry pattern of Go's database/sql (sql.Register, a
// driver registered from its package's init), as tailscale's
// cmd/tailscaled links its optional subsystems by blank imports.
package drivertest
