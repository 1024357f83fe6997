// Package osctest plays sessions into osc.Frames for the output
// profiles' tests: the shipped recording (a right hand) or a simulated
// glove (either side), procedural or skinned, through the whole pipeline
// on the shipped grasp scene, each frame filled as the daemon fills it.
//
// Sources: testdata/recordings/grasp.glove and testdata/scenes/grasp.obj
// (the recorded grasp the daemon's golden test replays); the daemon's
// frame (session.Pipeline.FillFrame, session.Touches);
// shared/reference/cyberglove-protocol.md (the glove the recording and
// the simulator stand for).
package osctest
