package drivertest_test

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gloved/gloved/daemon"
	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/driver"
	"github.com/gloved/gloved/devices/driver/drivertest"
	"github.com/gloved/gloved/devices/replay"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/session"
)

// config is a daemon config whose one hand is the test glove, recorded to
// rec, with extra lines for its [[hand]] table.
func config(rec, extra string) string {
	return fmt.Sprintf(`
[[hand]]
name = "test"
device = "testglove"
speed = "max"
recording = %q
%s
[hand.options]
wave = "sine"
hz = 2
`, rec, extra)
}

// openTestGlove parses the config and opens the hand's session, as the
// daemon does.
func openTestGlove(t *testing.T, text string) *session.Session {
	t.Helper()
	cfg, err := daemon.ParseConfig(filepath.Join(t.TempDir(), "test.toml"), []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	spec := cfg.Spec(0)
	if err := session.Check(spec); err != nil {
		t.Fatal(err)
	}
	s, err := session.Open(spec, env.GraspScene(1), cfg.PipelineOptions())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// wantAngles are the joint angles the test glove's layout and shipped
// calibration give for a sample: each curl's calibrated angle shared
// among its finger's joints, the wrist's measured angles as they are.
func wantAngles(s *devices.Sample, lim *[handmodel.NumJoints]handmodel.Limit) handmodel.Angles {
	curl := func(i int) float64 { return 0.0125 * (s.Counts(i) - 25) }
	var q handmodel.Angles
	q[handmodel.ThumbMCP], q[handmodel.ThumbIP] = 0.5*curl(0), 0.5*curl(0)
	for f := range 4 {
		j := handmodel.IndexMCP + handmodel.Joint(4*f)
		q[j], q[j+1], q[j+2] = 0.4*curl(1+f), 0.35*curl(1+f), 0.25*curl(1+f)
	}
	q[handmodel.WristPitch], q[handmodel.WristYaw] = s.Angles[0], s.Angles[1]
	q.Clamp(lim)
	return q
}

// TestATestGloveIsOnePackageAndOneRegistrationLine: the test glove, which
// nothing outside its package names, opens from a daemon config like
// any glove; its samples go through its own layout and calibration to
// joint angles and a posed hand; its recording replays to the same
// samples and the same hand; and its keys are checked, errors naming them.
func TestATestGloveIsOnePackageAndOneRegistrationLine(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "testglove.glove")
	s := openTestGlove(t, config(rec, ""))
	if s.Info != (devices.GloveInfo{Model: drivertest.Name, Sensors: 5, Right: true}) || s.Cal.Name != "default-testglove.toml" || s.Cal.Layout() != drivertest.Layout {
		t.Fatalf("opened %+v with calibration %s", s.Info, s.Cal.Name)
	}
	rest := make([]geom.Transform, len(s.Pipeline.Poses()))
	s.Pipeline.Hand().Pose(&handmodel.Angles{}, geom.Identity(), rest)
	var live []devices.Sample
	var angles []handmodel.Angles
	moved := false
	for range 60 {
		if ok, err := s.Next(); !ok || err != nil {
			t.Fatalf("frame %d: %v %v", s.Frames, ok, err)
		}
		got, want := *s.Pipeline.Angles(), wantAngles(&s.Sample, &s.Pipeline.Hand().Limits)
		if got != want {
			t.Fatalf("frame %d: angles %v, want %v", s.Frames, got, want)
		}
		moved = moved || s.Pipeline.Poses()[len(rest)-1] != rest[len(rest)-1]
		live, angles = append(live, s.Sample), append(angles, got)
	}
	if !moved {
		t.Error("the hand never moved from its rest pose")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	replayed, warning, err := replay.ReadSamples(rec)
	if err != nil || warning != nil || len(replayed) != len(live) {
		t.Fatalf("replay: %d samples, warning %v, error %v; want %d", len(replayed), warning, err, len(live))
	}
	for i := range live {
		if replayed[i] != live[i] {
			t.Fatalf("sample %d: replayed %+v, live %+v", i, replayed[i], live[i])
		}
	}
	r, err := session.Open(session.Spec{Device: session.DeviceReplay, Recording: rec, Speed: session.SpeedMax}, env.GraspScene(1), session.PipelineOptions{Proximity: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for i := range angles {
		if ok, err := r.Next(); !ok || err != nil || *r.Pipeline.Angles() != angles[i] {
			t.Fatalf("replayed frame %d: %v %v, angles %v, want %v", i, ok, err, *r.Pipeline.Angles(), angles[i])
		}
	}
}

func TestTheTestGlovesKeysAreCheckedByName(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "x.glove")
	for _, tc := range []struct{ name, text, says string }{
		{"its option's value", strings.Replace(config(rec, ""), `wave = "sine"`, `wave = "square"`, 1), `hand[0].options.wave = "square": want ramp or sine`},
		{"its other option", strings.Replace(config(rec, ""), "hz = 2", "hz = 0", 1), "hand[0].options.hz = 0: want more than 0"},
		{"an option it has not", strings.Replace(config(rec, ""), "hz = 2", "hz = 2\nwav = 1", 1), "hand[0].options: unknown key wav"},
		{"an option of the wrong type", strings.Replace(config(rec, ""), "hz = 2", `hz = "fast"`, 1), `hand[0].options: hz: a number is wanted, not a string`},
		{"a sensor count it has not", config(rec, "sensors = 22"), "hand[0].sensors = 22: want 5"},
		{"a key no hand has", config(rec, "curls = 5"), "unknown key hand.curls"},
		{"a calibration for another glove", config(rec, `calibration = "../../../configs/calibration-22.toml"`), `glove = "cyberglove": this calibration is for another glove than this one (testglove-5)`},
	} {
		cfg, err := daemon.ParseConfig("test.toml", []byte(tc.text))
		if err == nil {
			err = session.Check(cfg.Spec(0)) // what it takes opening files to see
		}
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: got %v, want an error saying %q", tc.name, err, tc.says)
		}
	}
	if _, err := driver.Lookup("testglov"); err == nil || !strings.Contains(err.Error(), "testglove") {
		t.Errorf("an unknown device: got %v, want the drivers listed", err)
	}
}

// TestTheTestGloveFramesAllocateNothing: a recorded session of a glove
// that measures angles and reads 10 bits runs frames without allocating.
func TestTheTestGloveFramesAllocateNothing(t *testing.T) {
	s := openTestGlove(t, config(filepath.Join(t.TempDir(), "a.glove"), ""))
	defer s.Close()
	for range 100 {
		if _, err := s.Next(); err != nil {
			t.Fatal(err)
		}
	}
	if allocs := testing.AllocsPerRun(50, func() { s.Next() }); allocs != 0 {
		t.Fatalf("%v allocations per frame", allocs)
	}
	if err := s.RecordingFailed(); err != nil {
		t.Fatal(err)
	}
}

// TestTheTestGlovesWaveIsItsOwn: the samples follow the options: a ramp's
// readings step evenly, a sine's do not, and the angles stay in range.
func TestTheTestGlovesWaveIsItsOwn(t *testing.T) {
	for _, wave := range []string{"ramp", "sine"} {
		o := drivertest.Options{Wave: wave, Hz: 1}
		a, b, c := drivertest.Sample(o, 0), drivertest.Sample(o, 100e6), drivertest.Sample(o, 200e6)
		even := int(b.Raw[1])-int(a.Raw[1]) == int(c.Raw[1])-int(b.Raw[1])
		if even != (wave == "ramp") || math.Abs(a.Angles[0]) > 0.3 {
			t.Errorf("%s: readings %d %d %d, angle %v", wave, a.Raw[1], b.Raw[1], c.Raw[1], a.Angles[0])
		}
	}
}
