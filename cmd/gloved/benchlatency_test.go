package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// TestMatchLatencyPairsEachFrameWithItsRecord: a frame is paired with the
// last record written at or before its timetag; one with no write before
// it, or only a write older than two record periods, is unmatched; a
// record among the measured ones that made no frame is dropped; the legs
// split at the timetag, and the receiver's wake-up is apart from them.
func TestMatchLatencyPairsEachFrameWithItsRecord(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	var writes []time.Time
	for i := range 101 {
		writes = append(writes, t0.Add(time.Duration(i)*10*time.Millisecond))
	}
	frame := func(written time.Time, pty, daemon, wake time.Duration) frameTimes {
		tt := written.Add(pty)
		return frameTimes{Timetag: tt, Out: tt.Add(daemon), Arrival: tt.Add(daemon + wake)}
	}
	var frames []frameTimes
	for i := range 100 {
		switch i {
		case 50:
			frames = append(frames, frame(writes[i], 900*time.Microsecond, 200*time.Microsecond, 50*time.Microsecond)) // a slow hop: still record 50's
		case 70: // record 70 made no frame
		default:
			frames = append(frames, frame(writes[i], 100*time.Microsecond, 200*time.Microsecond, 50*time.Microsecond))
		}
	}
	frames = append(frames,
		frame(t0, -time.Millisecond, time.Millisecond, 0),                            // before any write
		frame(writes[100], 25*time.Millisecond, time.Millisecond, 0),                 // its record was lost
		frame(writes[99], time.Millisecond, -2*time.Millisecond, 3*time.Millisecond), // out before its timetag: clocks disagree
	)
	res := matchLatency(writes, frames)
	want := latencyResult{
		Frames: 99, Unmatched: 3, Dropped: 1,
		Total:    latencyStats{P50: 300, P99: 1100, P999: 1100, Max: 1100},
		Pty:      latencyStats{P50: 100, P99: 900, P999: 900, Max: 900},
		Daemon:   latencyStats{P50: 200, P99: 200, P999: 200, Max: 200},
		Receiver: latencyStats{P50: 50, P99: 50, P999: 50, Max: 50},
	}
	if res != want {
		t.Errorf("got %+v, want %+v", res, want)
	}
}

// TestKernelStampReadsTheReceiveTime: the kernel's receive timestamp is a
// datagram's time out; without one, the time it was read stands in.
func TestKernelStampReadsTheReceiveTime(t *testing.T) {
	read := time.Unix(1_700_000_001, 0)
	ts := unix.Timespec{Sec: 1_700_000_000, Nsec: 123_456_789}
	oob := unix.UnixRights() // another kind of control message first (SCM_RIGHTS, no descriptors)
	oob = append(oob, cmsg(unix.SOL_SOCKET, unix.SCM_TIMESTAMPNS, unsafe.Slice((*byte)(unsafe.Pointer(&ts)), unsafe.Sizeof(ts)))...)
	if got, want := kernelStamp(oob, read), time.Unix(1_700_000_000, 123_456_789); !got.Equal(want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if got := kernelStamp(nil, read); !got.Equal(read) {
		t.Errorf("no control message: got %v, want %v", got, read)
	}
}

// cmsg builds one socket control message.
func cmsg(level, typ int32, data []byte) []byte {
	b := make([]byte, unix.CmsgSpace(len(data)))
	h := (*unix.Cmsghdr)(unsafe.Pointer(&b[0]))
	h.Level, h.Type = level, typ
	h.SetLen(unix.CmsgLen(len(data)))
	copy(b[unix.CmsgLen(0):], data)
	return b
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
	if res.Frames+res.Unmatched != 60 || res.Frames < 50 || res.Dropped > 10 {
		t.Fatalf("%d frames paired, %d unmatched, %d records dropped, want 60 in all, most paired and few dropped", res.Frames, res.Unmatched, res.Dropped)
	}
	for name, s := range map[string]latencyStats{"total": res.Total, "pty": res.Pty, "daemon": res.Daemon, "receiver": res.Receiver} {
		if !(0 < s.P50 && s.P50 <= s.P99 && s.P99 <= s.P999 && s.P999 <= s.Max) {
			t.Errorf("%s: %+v, want 0 < p50 <= p99 <= p99.9 <= max", name, s)
		}
	}
	if res.Total.Max < res.Pty.P50 || res.Total.Max < res.Daemon.P50 {
		t.Errorf("the whole path %+v is shorter than its legs %+v, %+v", res.Total, res.Pty, res.Daemon)
	}
}

// TestBenchLatencyFailuresSayWhatFailed: a scene file or config that is
// missing is named before anything starts; a scene the daemon cannot load
// ends the measurement with the daemon's own reason.
func TestBenchLatencyFailuresSayWhatFailed(t *testing.T) {
	r := runBinary(t, 20*time.Second, "bench", "latency", "--scene", "no-such-scene.obj")
	r.oneLine(t, 1, "no-such-scene.obj")
	r = runBinary(t, 20*time.Second, "bench", "latency", "--config", "no-such-config.toml")
	r.oneLine(t, 2, "--config", "no-such-config.toml")
	bad := filepath.Join(t.TempDir(), "broken.obj")
	if err := os.WriteFile(bad, []byte("v 0 0 0\nf 1 2 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = runBinary(t, 30*time.Second, "bench", "latency", "--scene", bad, "--frames", "10")
	r.oneLine(t, 1, "the daemon exited", "broken.obj")
}

// TestEmulateStampsFileThatCannotBeMade: --stamps into a directory that
// does not exist ends at once with one line naming the flag and the path.
func TestEmulateStampsFileThatCannotBeMade(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "no-such-dir", "stamps")
	runBinary(t, 10*time.Second, "emulate", "--stamps", bad).oneLine(t, 1, "--stamps", "no-such-dir")
}

// TestBenchLatencyWithForceFeedbackTimesTheServoLine: with --glove
// opengloves the bench runs an emulated OpenGloves glove with servos and
// the daemon with [feedback] enabled, and prints the leg from a contact's
// frame to the servo line the glove read, its changes counted; a glove
// it cannot emulate is a usage error.
func TestBenchLatencyWithForceFeedbackTimesTheServoLine(t *testing.T) {
	t.Parallel()
	r := runBinary(t, 90*time.Second, "bench", "latency", "--glove", "opengloves", "--frames", "400", "--warmup", "10")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	row := regexp.MustCompile(`(?m)^contact frame -> servo line at glove +\d+ +\d+ +\d+ +\d+$`)
	changes := regexp.MustCompile(`\((\d+) frames changed the forces, (\d+) found no servo line`).FindStringSubmatch(r.stdout)
	if !row.MatchString(r.stdout) || changes == nil || changes[1] == "0" {
		t.Errorf("no servo row, or no frame changed the forces:\n%s", r.stdout)
	}
	r = runBinary(t, 20*time.Second, "bench", "latency", "--glove", "vmc")
	r.oneLine(t, 2, "--glove", "opengloves")
}
