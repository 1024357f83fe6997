// Package osc will broadcast each frame's contacts as one OSC bundle and
// accept wrist poses over OSC, owning its UDP sockets and guarding every
// decode against hostile input.
//
// Source: the OSC 1.0 message and bundle encoding, through
// github.com/hypebeast/go-osc (see shared/reference/dependencies.md for its
// known defects). Nothing is implemented here yet: OSC output is issue #6.
package osc
