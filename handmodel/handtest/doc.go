// Package handtest drives the hand for tests and benchmarks that pose it
// without a pipeline: the simulated glove read through the default
// calibration, frame after frame.
//
// Source: the CyberGlove serial protocol as package cyberglove cites it
// (the glove the simulator stands for) and the calibration of package
// handmodel.
package handtest
