package osctest

import (
	"context"
	"math"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/osc"
	"github.com/gloved/gloved/session"
)

// Proximity is the near band the sessions run with (m).
const Proximity = 0.01

// Root returns the repository's root directory.
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// Recording is the shipped recording of a right hand grasping a ball, at
// full speed, with the wrist the demo holds it at.
func Recording() session.Spec {
	return session.Spec{Device: session.DeviceReplay, Recording: filepath.Join(Root(), "testdata", "recordings", "grasp.glove"), Speed: session.SpeedMax,
		Wrist: []float64{0.70710678, -0.70710678, 0, 0, 0, 0.91, 0.10}}
}

// Sim is the simulated glove of a side ("left" or "right") making
// motion, with the demo's wrist.
func Sim(side, motion string) session.Spec {
	return session.Spec{Device: session.DeviceSim, Side: side, Motion: motion, Speed: session.SpeedMax,
		Wrist: []float64{0.70710678, -0.70710678, 0, 0, 0, 0.91, 0.10}}
}

// Skinned is spec with the WebXR generic hand of its side as its mesh.
func Skinned(spec session.Spec, side string) session.Spec {
	spec.Mesh = filepath.Join(Root(), "handmodel", "testdata", "webxr-generic-hand", side+".glb")
	return spec
}

// Frame is one frame of a session: as the daemon sends it, when its
// sample was taken (the epoch plus the sample's time), and the pipeline
// that made it (its hand, poses and angles).
type Frame struct {
	*osc.Frame
	At       time.Time
	Pipeline *session.Pipeline
}

// Epoch is the wall time the sessions' sample times count from.
var Epoch = time.Unix(1_700_000_000, 0)

// Run plays spec for at most frames frames (0: to the end of a
// recording) through the pipeline on the shipped grasp scene, with
// self-contact, and calls fn with each frame. The frame's buffers are
// reused: fn must not keep it.
func Run(tb testing.TB, spec session.Spec, frames int, fn func(f Frame)) {
	tb.Helper()
	scene, err := session.LoadScene([]session.SceneFile{{Path: filepath.Join(Root(), "testdata", "scenes", "grasp.obj")}}, "")
	if err != nil {
		tb.Fatal(err)
	}
	s, err := session.Open(spec, scene, session.PipelineOptions{Proximity: Proximity, SelfContact: true})
	if err != nil {
		tb.Fatal(err)
	}
	defer s.Close()
	touches := session.NewTouches(scene.Objects)
	var f osc.Frame
	err = s.Each(context.Background(), frames, func() error {
		p := s.Pipeline
		p.FillFrame(&f)
		f.Seq = int32(s.Frames - 1)
		f.Touches = touches.Update(p, f.Touches[:0])
		fn(Frame{Frame: &f, At: Epoch.Add(s.Sample.Time), Pipeline: p})
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
}

// MatNear reports whether a and b differ by at most tol in every entry.
func MatNear(a, b mgl64.Mat3, tol float64) bool {
	for i := range a {
		if math.Abs(a[i]-b[i]) > tol {
			return false
		}
	}
	return true
}
