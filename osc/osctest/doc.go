// Package osctest plays sessions into osc.Frames for the output
// profiles' tests. A session is the shipped recording (a right hand) or a
// simulated glove (either side), procedural or skinned, run through the
// whole pipeline
// on the shipped grasp scene, each frame filled as the daemon fills it.
//
// Sources: testdata/recordings/grasp.glove and testdata/scenes/grasp.obj
// (the recorded grasp the daemon's golden test replays); the daemon's frame
// (session.Pipeline.FillFrame, session.Touches); the CyberGlove serial
// protocol as package cyberglove cites it (the glove the recording and the
// simulator stand for).
package osctest
