package handtest

import (
	"testing"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/sim"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
)

// Poses drives hand through frames of motion m, sampled at 100 Hz from a
// simulated 22-sensor glove read through the default calibration, with
// the wrist at wrist, and returns every frame's link transforms: the
// workload of the tests and benchmarks that pose the hand without a
// pipeline.
func Poses(hand *handmodel.Hand, m sim.Motion, frames int, wrist geom.Transform) ([][]geom.Transform, error) {
	cal, err := handmodel.DefaultCalibration(22)
	if err != nil {
		return nil, err
	}
	glove, err := sim.New(m, 22, 10*time.Millisecond, true)
	if err != nil {
		return nil, err
	}
	var s devices.Sample
	var q handmodel.Angles
	out := make([][]geom.Transform, 0, frames)
	for range frames {
		if err := glove.Read(&s); err != nil {
			return nil, err
		}
		if err := cal.Angles(&s, &hand.Limits, &q); err != nil {
			return nil, err
		}
		p := make([]geom.Transform, hand.NumLinks())
		hand.Pose(&q, wrist, p)
		out = append(out, p)
	}
	return out, nil
}

// Grasp is Poses of the simulated grasp with the wrist at wrist, failing
// tb on an error.
func Grasp(tb testing.TB, hand *handmodel.Hand, wrist geom.Transform, frames int) [][]geom.Transform {
	tb.Helper()
	p, err := Poses(hand, sim.Grasp, frames, wrist)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}
