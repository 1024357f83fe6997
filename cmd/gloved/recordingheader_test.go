package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/recording"
	"github.com/gloved/gloved/devices/recording/recordingtest"
)

// TestARecordingOfBytesWithoutSamplesIsRefusedByTheDaemon: a replay hand
// of a recording whose port bytes parse to no sample (garbage `R`
// records) is refused by `run --check` and by `run` itself, in the one
// line `gloved replay` refuses it with (its bytes make no record of its
// glove), instead of "config ok" and a daemon spinning through passes of
// nothing.
func TestARecordingOfBytesWithoutSamplesIsRefusedByTheDaemon(t *testing.T) {
	path := filepath.Join(t.TempDir(), "garbage.glove")
	rec, err := recording.Create(path, recording.Header{Model: "cyberglove", Sensors: 22, Hand: "right", Mode: "stream"})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 50 {
		if err := rec.WriteRaw(time.Duration(i)*time.Millisecond, []byte("\x01\x02garbage\xff\xfe")); err != nil {
			t.Fatal(err)
		}
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	cfg := rightHandConfig(t, fmt.Sprintf("device = \"replay\"\nrecording = %q\nloop = true\n", path), "127.0.0.1:0", "")
	const says = " holds 550 bytes of glove data but no record of its glove (cyberglove) in them"
	runBinary(t, 20*time.Second, "replay", path).oneLine(t, 1, path+says, "record the session again")
	runBinary(t, 20*time.Second, "run", "-c", cfg, "--check").oneLine(t, 2, path+says, "record the session again")
	r := runBinary(t, 20*time.Second, "run", "-c", cfg, "--for", "5s", "--status=false")
	if r.code == 0 || !strings.Contains(r.stderr, path+says) {
		t.Fatalf("run: exit %d, stderr:\n%s", r.code, r.stderr)
	}
}

// simRecording writes a recording of n samples of the simulated grasp
// and returns its path.
func simRecording(t *testing.T, n int) string {
	t.Helper()
	times := make([]time.Duration, n)
	for i := range times {
		times[i] = time.Duration(i) * 10 * time.Millisecond
	}
	path, _ := recordingtest.Stamped(t, times...)
	return path
}

// TestEveryReaderChecksARecordingsHeaderAlike: a hand-made header without
// a creation time is read by dump and replayed (the replay's timetags
// then count from the Unix epoch) alike; a hand other than right or left,
// or a creation time that is not RFC 3339, is refused by dump, contacts,
// export and replay alike, in one line naming the field.
func TestEveryReaderChecksARecordingsHeaderAlike(t *testing.T) {
	noCreated := simRecording(t, 5)
	recordingtest.Reheader(t, noCreated, func(h map[string]any) { h["created"] = "" })
	if r := runBinary(t, 20*time.Second, "dump", noCreated); r.code != 0 || strings.Count(r.stdout, "\n") != 5 {
		t.Fatalf("dump of a header with created \"\": exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := runBinary(t, 20*time.Second, "replay", noCreated, "--speed", "max"); r.code != 0 || !strings.Contains(r.stdout, "replayed 5 frames") {
		t.Fatalf("replay of a header with created \"\": exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		field string
		value any
		says  string
	}{
		{"hand", "middle", `hand "middle"`},
		{"created", "yesterday", `created "yesterday" is not an RFC 3339 time`},
	} {
		path := simRecording(t, 5)
		recordingtest.Reheader(t, path, func(h map[string]any) { h[tc.field] = tc.value })
		for _, args := range [][]string{
			{"dump", path},
			{"replay", path, "--speed", "max"},
			{"contacts", "--scene", "builtin:grasp", "--recording", path},
			{"export", "--scene", "builtin:grasp", "--recording", path, "--out", dir},
		} {
			r := runBinary(t, 20*time.Second, args...)
			if r.code == 0 {
				t.Errorf("gloved %s accepted %s = %v", strings.Join(args, " "), tc.field, tc.value)
				continue
			}
			r.oneLine(t, r.code, tc.says)
		}
	}
}

// TestASampleBeyondItsResolutionIsDamagedAndNeverUsed: an 8-bit sample
// record holding 65535 is a damaged sample, as a serial record with a
// value out of range is: dump, contacts and export leave it out, play on,
// and say in a line how many they skipped; a recording of
// such samples alone is refused, for dump, replay and the daemon alike,
// saying how many samples it holds, all damaged (it said it held none, as
// if stopped before the glove sent one).
func TestASampleBeyondItsResolutionIsDamagedAndNeverUsed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "wide.glove")
	rec, err := recording.Create(path, recording.Header{Model: "sim", Sensors: 22, Hand: "right"})
	if err != nil {
		t.Fatal(err)
	}
	s := devices.Sample{N: 22}
	for i := range s.N {
		s.Raw[i] = 128
	}
	for i, wide := range []bool{false, true, false} {
		s.Time, s.Raw[3] = time.Duration(i)*10*time.Millisecond, 128
		if wide {
			s.Raw[3] = 65535
		}
		if err := rec.WriteSample(&s); err != nil {
			t.Fatal(err)
		}
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	r := runBinary(t, 20*time.Second, "dump", path)
	if r.code != 0 {
		t.Fatalf("dump: exit %d: %s", r.code, r.stderr)
	}
	var ts []float64
	for line := range strings.Lines(r.stdout) {
		var l struct {
			T   float64
			Raw []int
		}
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatal(err)
		}
		if l.Raw[3] != 128 {
			t.Errorf("dumped a sample with reading %d", l.Raw[3])
		}
		ts = append(ts, l.T)
	}
	if len(ts) != 2 || ts[0] != 0 || ts[1] != 0.02 {
		t.Fatalf("dumped samples at %v, want the first and the third (0 and 0.02 s)", ts)
	}
	if want := "wide.glove: damaged samples skipped: 1 (a reading beyond the glove's resolution"; !strings.Contains(r.stderr, want) || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
		t.Errorf("dump's stderr %q: want one line saying %q", r.stderr, want)
	}
	scene := "../../testdata/scenes/grasp.obj"
	for _, cmd := range [][]string{{"contacts", "--scene", scene, "--recording", path}, {"export", "--scene", scene, "--recording", path, "--out", filepath.Join(t.TempDir(), "frames")}} {
		if r := runBinary(t, 20*time.Second, cmd...); r.code != 0 || !strings.Contains(r.stderr, "damaged samples skipped: 1") {
			t.Errorf("%q: exit %d, stderr %q: want it to say it skipped 1 damaged sample", cmd, r.code, r.stderr)
		}
	}

	only := filepath.Join(t.TempDir(), "onlywide.glove")
	if rec, err = recording.Create(only, recording.Header{Model: "sim", Sensors: 22, Hand: "right"}); err != nil {
		t.Fatal(err)
	}
	s.Raw[3] = 65535
	for i := range 3 {
		s.Time = time.Duration(i) * 10 * time.Millisecond
		if err := rec.WriteSample(&s); err != nil {
			t.Fatal(err)
		}
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	says := only + " holds 3 samples, all damaged"
	runBinary(t, 20*time.Second, "dump", only).oneLine(t, 1, says, "record the session again")
	runBinary(t, 20*time.Second, "replay", only).oneLine(t, 1, says, "record the session again")
	cfg := rightHandConfig(t, fmt.Sprintf("device = \"replay\"\nrecording = %q\n", only), "127.0.0.1:0", "")
	runBinary(t, 20*time.Second, "run", "-c", cfg, "--check").oneLine(t, 2, says, "record the session again")
}
