package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestMatchLatencyPairsEachFrameWithItsRecord: a frame is paired with the
// last record written at or before its timetag; one with no write before
// it, or only a write older than two record periods, is unmatched; the
// legs split at the timetag.
func TestMatchLatencyPairsEachFrameWithItsRecord(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	var writes []time.Time
	for i := range 100 {
		writes = append(writes, t0.Add(time.Duration(i)*10*time.Millisecond))
	}
	var frames []frameTimes
	for i := range 99 {
		pty := 100 * time.Microsecond
		if i == 50 {
			pty = 900 * time.Microsecond // a slow hop: still record 50's
		}
		tt := writes[i].Add(pty)
		frames = append(frames, frameTimes{Timetag: tt, Arrival: tt.Add(200 * time.Microsecond)})
	}
	frames = append(frames,
		frameTimes{Timetag: t0.Add(-time.Millisecond), Arrival: t0},                                                // before any write
		frameTimes{Timetag: writes[99].Add(25 * time.Millisecond), Arrival: writes[99].Add(26 * time.Millisecond)}, // its record was lost
	)
	res := matchLatency(writes, frames)
	if res.Frames != 99 || res.Unmatched != 2 {
		t.Fatalf("got %d matched and %d unmatched, want 99 and 2", res.Frames, res.Unmatched)
	}
	want := latencyResult{
		Frames: 99, Unmatched: 2,
		Total:  latencyStats{P50: 300, P99: 1100, P999: 1100, Max: 1100},
		Pty:    latencyStats{P50: 100, P99: 900, P999: 900, Max: 900},
		Daemon: latencyStats{P50: 200, P99: 200, P999: 200, Max: 200},
	}
	if res != want {
		t.Errorf("got %+v, want %+v", res, want)
	}
}

// TestBenchLatencyRunsThreeProcesses: the emulator and the daemon run as
// their own processes and every measured frame is paired with the record
// it came from.
func TestBenchLatencyRunsThreeProcesses(t *testing.T) {
	r := runBinary(t, 60*time.Second, "bench", "latency", "--frames", "60", "--warmup", "10", "--json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var res latencyResult
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatalf("%v: %s", err, r.stdout)
	}
	if res.Frames+res.Unmatched != 60 || res.Frames < 50 {
		t.Fatalf("%d frames paired, %d unmatched, want 60 in all and most paired", res.Frames, res.Unmatched)
	}
	for name, s := range map[string]latencyStats{"total": res.Total, "pty": res.Pty, "daemon": res.Daemon} {
		if !(0 < s.P50 && s.P50 <= s.P99 && s.P99 <= s.P999 && s.P999 <= s.Max) {
			t.Errorf("%s: %+v, want 0 < p50 <= p99 <= p99.9 <= max", name, s)
		}
	}
	if res.Total.Max < res.Pty.P50 || res.Total.Max < res.Daemon.P50 {
		t.Errorf("the whole path %+v is shorter than its legs %+v, %+v", res.Total, res.Pty, res.Daemon)
	}
}

// TestBenchLatencyFailuresSayWhatFailed: a scene file that is missing is
// named before anything starts; one the daemon cannot load ends the
// measurement with the daemon's own reason.
func TestBenchLatencyFailuresSayWhatFailed(t *testing.T) {
	r := runBinary(t, 20*time.Second, "bench", "latency", "--scene", "no-such-scene.obj")
	r.oneLine(t, 1, "no-such-scene.obj")
	bad := filepath.Join(t.TempDir(), "broken.obj")
	if err := os.WriteFile(bad, []byte("v 0 0 0\nf 1 2 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = runBinary(t, 30*time.Second, "bench", "latency", "--scene", bad, "--frames", "10")
	r.oneLine(t, 1, "the daemon exited", "broken.obj")
}
