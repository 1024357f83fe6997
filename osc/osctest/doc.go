// Package osctest plays sessions into osc.Frames for the output
// profiles' tests. A session is the shipped recording (a right hand) or a
// simulated glove (either side), procedural or skinned, run through the
// whole pipeline
// on the shipped grasp scene, each frame filled as the daemon fills it.
//
// What every profile's tests share is here too, written once: Repeat (a
// profile's encoder encoding one held frame again and again: Held),
// AllocatesNothing and Benchmark, its allocation test and benchmark, and
// Mallocs, which counts allocations in all; and Conform, which runs a
// registered profile (package osc/profile) over the recording and checks
// every message it sends against its own Methods.
//
// Sources: testdata/recordings/grasp.glove and testdata/scenes/grasp.obj
// (the recorded grasp the daemon's golden test replays); the daemon's frame
// (session.Pipeline.FillFrame, session.Touches); the CyberGlove serial
// protocol as package cyberglove cites it (the glove the recording and the
// simulator stand for).
package osctest
