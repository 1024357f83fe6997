// Package profiletest is an output profile for tests, "tally", registered
// when a test imports the package. It is one package and the one
// registration line in its init, as every profile is (package
// osc/profile), and nothing else anywhere. Configured in an
// [[osc.profile]] table like the shipped ones, with its own key, every (a
// whole number of frames, 1 to MaxEvery; 1 by default), it sends every
// every-th frame of each hand as one message in a bundle stamped with the
// frame's sample time,
//
//	<prefix>/<hand>/tally/frame  i sequence, i contacts, f palm x y z (in the table's coords)
//
// and each status as <prefix>/<hand>/tally/status (s state, i tracked).
// The daemon's tests run it on real sockets to show that a profile
// registered outside the daemon is configured, checked, sent, told each
// status and listed in the OSCQuery tree as the shipped ones are.
//
// Sources: the OSC 1.0 specification (bundles, NTP timetags, the type
// tags i, f and s) and the OSCQuery proposal (Vidvox,
// github.com/Vidvox/OSCQueryProposal) for the methods' units and ranges,
// as package osc describes them.
package profiletest
