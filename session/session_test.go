package session

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gloved/gloved/configs"
	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/driver"
	"github.com/gloved/gloved/geom"
)

// recordSim records n samples of the simulated grasp with spec's
// calibration and wrist, and returns the file.
func recordSim(t *testing.T, spec Spec, n int) string {
	t.Helper()
	spec.Device, spec.Speed = DeviceSim, SpeedMax
	spec.Recording = filepath.Join(t.TempDir(), "sim.glove")
	g, err := OpenGlove(spec)
	if err != nil {
		t.Fatal(err)
	}
	var s devices.Sample
	for range n {
		if err := g.Read(&s); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
	return spec.Recording
}

// writeCalibration writes the shipped 22-sensor calibration with every
// gain doubled, so that a test can tell it from the default.
func writeCalibration(t *testing.T) string {
	t.Helper()
	text, err := configs.Files.ReadFile("calibration-22.toml")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "doubled.toml")
	doubled := strings.ReplaceAll(strings.ReplaceAll(string(text), "gain = 0.0085", "gain = 0.017"), "gain = 0.006", "gain = 0.012")
	if err := os.WriteFile(path, []byte(doubled), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCalibrationComesFromTheFileThenTheRecording: a replay uses the
// calibration the recording stored unless a file is named, the same for
// every caller (the daemon used to ignore the stored one).
func TestCalibrationComesFromTheFileThenTheRecording(t *testing.T) {
	custom := writeCalibration(t)
	rec := recordSim(t, Spec{Calibration: custom}, 20)
	tests := []struct {
		name, file, want string
	}{
		{"stored", "", rec + " (stored calibration)"},
		{"file wins", filepath.Join("..", "configs", "calibration-22.toml"), filepath.Join("..", "configs", "calibration-22.toml")},
	}
	for _, tc := range tests {
		g, err := OpenGlove(Spec{Device: DeviceReplay, Recording: rec, Calibration: tc.file})
		if err != nil {
			t.Fatal(err)
		}
		g.Close()
		if g.Cal.Name != tc.want {
			t.Errorf("%s: calibration %q, want %q", tc.name, g.Cal.Name, tc.want)
		}
	}
	plain := recordSim(t, Spec{}, 5)
	g, err := OpenGlove(Spec{Device: DeviceReplay, Recording: plain})
	if err != nil {
		t.Fatal(err)
	}
	g.Close()
	if g.Cal.Name != plain+" (stored calibration)" || !strings.Contains(g.Cal.Text, "sensors = 22") {
		t.Errorf("a recording of the default calibration replays with %q", g.Cal.Name)
	}
	if _, err := OpenGlove(Spec{Device: DeviceReplay, Recording: rec, Calibration: filepath.Join("..", "configs", "calibration-18.toml")}); err == nil || !strings.Contains(err.Error(), "is for 18 sensors, the glove has 22") {
		t.Errorf("an 18-sensor calibration for a 22-sensor recording gave %v", err)
	}
}

// TestWristComesFromTheSpecThenTheRecording: a fixed wrist beats the
// recorded one; without one, the recording's is used.
func TestWristComesFromTheSpecThenTheRecording(t *testing.T) {
	recorded := []float64{1, 0, 0, 0, 0.1, 0.9, -0.2}
	rec := recordSim(t, Spec{Wrist: recorded}, 10)
	fixed := []float64{0, 0, 1, 0, 1, 2, 3}
	for _, tc := range []struct {
		name  string
		wrist []float64
		want  geom.Vec3
	}{{"recorded", nil, geom.Vec3{X: 0.1, Y: 0.9, Z: -0.2}}, {"fixed", fixed, geom.Vec3{X: 1, Y: 2, Z: 3}}} {
		g, err := OpenGlove(Spec{Device: DeviceReplay, Recording: rec, Wrist: tc.wrist})
		if err != nil {
			t.Fatal(err)
		}
		var s devices.Sample
		if err := g.Read(&s); err != nil {
			t.Fatal(err)
		}
		g.Close()
		if got := g.Wrist().T; !got.Mgl().ApproxEqual(tc.want.Mgl()) {
			t.Errorf("%s: wrist at %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestSpecErrorsNameTheKey: every field that cannot be used is named.
func TestSpecErrorsNameTheKey(t *testing.T) {
	tests := []struct {
		spec Spec
		says string
	}{
		{Spec{Device: "toaster"}, `device = "toaster": want cyberglove, cyberglove3, opengloves, osc, replay, sim or vmc`},
		{Spec{Device: DeviceCyberGlove}, "port: a cyberglove needs its serial port"},
		{Spec{Device: DeviceCyberGlove3}, "port: a cyberglove3 needs its serial port"},
		{Spec{Device: DeviceCyberGlove3, Port: "/dev/x", Poll: true}, "poll: a cyberglove3 streams its 16-bit records"},
		{Spec{Device: DeviceReplay}, "recording: a replay needs a recording file"},
		{Spec{Device: DeviceSim, Motion: "wave"}, `motion = "wave"`},
		{Spec{Device: DeviceSim, Sensors: 20}, "sensors = 20: want 18 or 22"},
		{Spec{Device: DeviceSim, Speed: "fast"}, `speed = "fast"`},
		{Spec{Device: DeviceSim, Side: "middle"}, `side = "middle"`},
		{Spec{Device: DeviceSim, Length: 3}, "length = 3 m: want 0.05-0.4"},
		{Spec{Device: DeviceSim, Breadth: 0.5}, "breadth = 0.5 m: want 0.02-0.2"},
		{Spec{Device: DeviceSim, Wrist: []float64{1, 2}}, "wrist: want 7 numbers"},
		{Spec{Device: DeviceSim, Wrist: []float64{0, 0, 0, 0, 1, 2, 3}}, "wrist: the rotation quaternion is zero"},
		{Spec{Device: DeviceSim, WristPose: []float64{1, 2}}, "wrist_pose: want 7 numbers (tx ty tz qx qy qz qw, as the OSC wrist message), got 2"},
		{Spec{Device: DeviceSim, WristPose: []float64{1, 2, 3, 0, 0, 0, 0}}, "wrist_pose: the rotation quaternion is zero"},
		{Spec{Device: DeviceSim, WristPose: []float64{1, 2, 3, 0, 0, 0, 1}, Wrist: []float64{1, 0, 0, 0, 1, 2, 3}}, "wrist and wrist_pose: give the pose once, as wrist_pose"},
		{Spec{Device: DeviceCyberGlove, Port: "/dev/x", Baud: -1}, "baud = -1"},
		// The shipped drivers have no options of their own: a table for
		// them is a mistake, named.
		{Spec{Device: DeviceSim, Options: driver.Options{"wave": 3}}, "options: unknown key wave: the sim driver has no options of its own"},
		{Spec{Device: DeviceCyberGlove, Port: "/dev/x", Options: driver.Options{"rate": 1, "latency": 2}}, "options: unknown key latency: the cyberglove driver"},
		{Spec{Device: DeviceCyberGlove3, Port: "/dev/x", Options: driver.Options{"x": 1}}, "options: unknown key x: the cyberglove3 driver"},
		{Spec{Device: DeviceReplay, Recording: "r.glove", Options: driver.Options{"x": 1}}, "options: unknown key x: the replay driver"},
	}
	for _, tc := range tests {
		err := tc.spec.Normalize()
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%+v: got %v, want an error saying %q", tc.spec, err, tc.says)
		}
	}
}

// TestRewindPlaysTheRecordingAgain: a looping replay yields the same
// readings each time round, at times that go on from the last pass.
func TestRewindPlaysTheRecordingAgain(t *testing.T) {
	rec := recordSim(t, Spec{}, 12)
	g, err := OpenGlove(Spec{Device: DeviceReplay, Recording: rec, Speed: SpeedMax})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	read := func() []devices.Sample {
		var out []devices.Sample
		var s devices.Sample
		for g.Read(&s) == nil {
			out = append(out, s)
		}
		return out
	}
	first := read()
	if err := g.Rewind(); err != nil {
		t.Fatal(err)
	}
	again := read()
	if len(first) != 12 || len(again) != 12 {
		t.Fatalf("first pass %d samples, second %d", len(first), len(again))
	}
	for i := range again {
		if again[i].Raw != first[i].Raw || again[i].Time <= first[len(first)-1].Time {
			t.Fatalf("second pass sample %d: %+v, first pass %+v: want the same readings, later", i, again[i], first[i])
		}
	}
}

// TestSessionStepsThroughARecording: Next runs every recorded sample, Each
// stops at a limit, and a simulated session records what it ran.
func TestSessionStepsThroughARecording(t *testing.T) {
	scene, err := LoadScene([]SceneFile{{Path: BuiltinScene}}, "")
	if err != nil {
		t.Fatal(err)
	}
	rec := recordSim(t, Spec{}, 30)
	s, err := Open(Spec{Device: DeviceReplay, Recording: rec, Speed: SpeedMax}, scene, PipelineOptions{Proximity: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Each(context.Background(), 10, func() error { return nil }); err != nil || s.Frames != 10 {
		t.Fatalf("Each with a limit of 10 ran %d frames (%v)", s.Frames, err)
	}
	if err := s.Each(context.Background(), 0, func() error { return nil }); err != nil || s.Frames != 30 {
		t.Fatalf("the whole recording ran %d frames of 30 (%v)", s.Frames, err)
	}
	if s.Warning() != nil {
		t.Errorf("an intact recording warned: %v", s.Warning())
	}
}

// graspReplay is a session replaying the shipped recording at full speed
// over the shipped scene, closed when t ends.
func graspReplay(t *testing.T) *Session {
	t.Helper()
	scene, err := LoadScene([]SceneFile{{Path: "../testdata/scenes/grasp.obj"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(Spec{Device: DeviceReplay, Recording: "../testdata/recordings/grasp.glove", Speed: SpeedMax}, scene, PipelineOptions{Proximity: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestNextAllocatesNothing: stepping a replayed session through the
// pipeline allocates nothing once its buffers have grown.
func TestNextAllocatesNothing(t *testing.T) {
	s := graspReplay(t)
	for range 100 { // through the grasp, growing every buffer
		if _, err := s.Next(); err != nil {
			t.Fatal(err)
		}
	}
	if allocs := testing.AllocsPerRun(50, func() { s.Next() }); allocs != 0 {
		t.Fatalf("%v allocations per frame", allocs)
	}
}
