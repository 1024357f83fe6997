package main

import (
	endian "encoding/binary"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// graspPass is more than the samples of one pass of testdata's grasp
// recording (201): frames that grow by as many went through a rewind.
const graspPass = 250

// loopingReplay starts `gloved run` on a looping replay of a copy of
// testdata's grasp recording, r.glove in a directory of its own, and waits
// for its first frames: the recording's path, the daemon and its metrics'
// address.
func loopingReplay(t *testing.T) (rec string, p *proc, metrics string) {
	t.Helper()
	dir := t.TempDir()
	rec = filepath.Join(dir, "r.glove")
	copyInto(t, "../../testdata/recordings/grasp.glove", rec)
	copyInto(t, "../../testdata/scenes/grasp.obj", filepath.Join(dir, "s.obj"))
	p, metrics = runServed(t, dir, `[[hand]]
name = "right"
device = "replay"
recording = "r.glove"
loop = true
wrist_pose = [0.0, 0.91, 0.10, -0.70710678, 0.0, 0.0, 0.70710678]
`, "s.obj")
	p.until(t, "the replay's first frames", func() bool { return metric(metrics, "gloved_frames_total") > 0 })
	return rec, p, metrics
}

// runServed writes dir/gloved.toml, hands and the scene file scene with
// OSC on a free port, metrics on another and no OSCQuery, and starts
// `gloved run` on it: the daemon and its metrics' address.
func runServed(t *testing.T, dir, hands, scene string) (*proc, string) {
	t.Helper()
	metrics := freePortTCP(t)
	cfg := filepath.Join(dir, "gloved.toml")
	writeFile(t, cfg, hands+fmt.Sprintf(`[scene]
files = [{ path = %q }]
[osc]
listen = %q
[metrics]
listen = %q
[oscquery]
enabled = false
`, scene, freeUDP(t), metrics))
	return startGloved(t, "gloved run", "run", "-c", cfg, "--status=false"), metrics
}

// copyInto copies the file src to dst.
func copyInto(t *testing.T, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dst, string(b))
}

// writeFile writes text to path.
func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// metric returns the value of the metrics line at addr that starts with
// series and a space, or -1 if the metrics do not answer or lack it.
func metric(addr, series string) float64 {
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		return -1
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(body), "\n") {
		if v, ok := strings.CutPrefix(line, series+" "); ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				return f
			}
		}
	}
	return -1
}

// playsOn waits until the daemon has sent more than a pass of frames
// since it is called, and fails if it exits first.
func playsOn(t *testing.T, p *proc, metrics, after string) {
	t.Helper()
	n := metric(metrics, "gloved_frames_total")
	p.until(t, "a pass of frames "+after, func() bool { return metric(metrics, "gloved_frames_total") > n+graspPass })
}

// handStatus is the metrics' series of the right hand in status s.
func handStatus(s string) string { return `gloved_hand_status{hand="right",status="` + s + `"}` }

// noErrorLogged fails if the daemon logged at error level (a hand's frames
// failing, a hand stopped), but for lines saying each of allowed.
func noErrorLogged(t *testing.T, p *proc, allowed ...string) {
	t.Helper()
lines:
	for _, line := range strings.Split(p.errs.String(), "\n") {
		if !strings.Contains(line, `"level":"error"`) {
			continue
		}
		for _, a := range allowed {
			if strings.Contains(line, a) {
				continue lines
			}
		}
		t.Errorf("logged %s", line)
	}
}

// TestALoopingReplayPlaysOnWhenItsRecordingIsDeleted: a looping replay
// plays the file it opened, pass after pass: deleting its path stops
// nothing (it used to end the daemon at the next pass: `gloved: hand
// right: recording: open ...: no such file or directory`), and a reload
// that cannot open the path keeps the running config, and the replay goes
// on.
func TestALoopingReplayPlaysOnWhenItsRecordingIsDeleted(t *testing.T) {
	t.Parallel()
	rec, p, metrics := loopingReplay(t)
	if err := os.Remove(rec); err != nil {
		t.Fatal(err)
	}
	playsOn(t, p, metrics, "after the recording was deleted")
	p.cmd.Process.Signal(syscall.SIGHUP)
	p.until(t, "the reload's refusal", func() bool {
		return strings.Contains(p.errs.String(), "SIGHUP: config not reloaded; the running one goes on")
	})
	playsOn(t, p, metrics, "after a reload that could not open the recording")
	if metric(metrics, handStatus("replay")) != 1 {
		t.Errorf("status is not replay:\n%s", p.errs.String())
	}
	noErrorLogged(t, p, "config not reloaded")
}

// TestALoopingReplayPlaysOnWhenAnotherFileTakesItsPath: putting another
// file at a looping replay's path (mv) changes nothing until a reload
// opens it: a recording of a header alone used to spin the daemon at full
// CPU with no frame, and one of an 18-sensor glove to fail every frame
// and log each failure, 100 lines a second.
func TestALoopingReplayPlaysOnWhenAnotherFileTakesItsPath(t *testing.T) {
	t.Parallel()
	grasp, err := os.ReadFile("../../testdata/recordings/grasp.glove")
	if err != nil {
		t.Fatal(err)
	}
	sim18 := filepath.Join(t.TempDir(), "sim18.glove")
	runBinary(t, time.Minute, "record", "--device", "sim", "--sensors", "18", "--seconds", "1", "-o", sim18).oneLine(t, 0)
	for _, c := range []struct {
		name string
		make func(t *testing.T, path string)
	}{
		{"a header alone", func(t *testing.T, path string) { writeFile(t, path, string(grasp[:headerEnd(t, grasp)])) }},
		{"an 18-sensor glove's recording", func(t *testing.T, path string) { copyInto(t, sim18, path) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			rec, p, metrics := loopingReplay(t)
			next := rec + ".new"
			c.make(t, next)
			if err := os.Rename(next, rec); err != nil {
				t.Fatal(err)
			}
			playsOn(t, p, metrics, "after "+c.name+" took the recording's path")
			if metric(metrics, handStatus("replay")) != 1 {
				t.Errorf("status is not replay:\n%s", p.errs.String())
			}
			noErrorLogged(t, p)
		})
	}
}

// headerEnd is the offset of a recording's first record: the 14 bytes of
// magic, version and header length, the header and its checksum.
func headerEnd(t *testing.T, rec []byte) int {
	t.Helper()
	if len(rec) < 14 {
		t.Fatalf("a recording of %d bytes", len(rec))
	}
	return 14 + int(endian.LittleEndian.Uint32(rec[10:14])) + 4
}

// TestALoopingReplayWhoseFileEmptiesStallsWithoutSpinning: a looping
// replay whose file is cut to its header where it is read (truncated in
// place, so the file it holds is the one cut) plays passes without a
// sample: the hand reports stalled, says why once, backs off instead of
// spinning (it used to run a core flat out, still reporting replay and
// logging nothing), and plays again once the recording is written back.
// It measures the daemon's CPU time over a while, so it runs alone.
func TestALoopingReplayWhoseFileEmptiesStallsWithoutSpinning(t *testing.T) {
	rec, p, metrics := loopingReplay(t)
	grasp, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(rec, int64(headerEnd(t, grasp))); err != nil {
		t.Fatal(err)
	}
	p.until(t, "the hand reported stalled", func() bool { return metric(metrics, handStatus("stalled")) == 1 })
	// A pass of nothing takes no time: a replay that rewinds without
	// waiting spends its core on it. Backing off, it spends next to none.
	const over = 2 * time.Second
	before := cpuTime(t, p.cmd.Process.Pid)
	time.Sleep(over)
	if spent := cpuTime(t, p.cmd.Process.Pid) - before; spent > over/4 {
		t.Errorf("the daemon spent %v of CPU in %v of passes without a sample", spent, over)
	}
	writeFile(t, rec, string(grasp)) // in place, as it was
	playsOn(t, p, metrics, "after the recording was written back")
	if metric(metrics, handStatus("replay")) != 1 {
		t.Errorf("status is not replay once the recording is back:\n%s", p.errs.String())
	}
	if n := strings.Count(p.errs.String(), "played a pass without a sample"); n != 1 {
		t.Errorf("said %d times that a pass had no sample, want once:\n%s", n, p.errs.String())
	}
	if n := strings.Count(p.errs.String(), "\n"); n > 10 {
		t.Errorf("%d log lines:\n%s", n, p.errs.String())
	}
	noErrorLogged(t, p)
}
