package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gloved/gloved/env"
)

// terrainScene writes a config of one simulated hand over a height field
// of 2·n² triangles, and returns the config's path and the OBJ's. The OBJ
// is written once a test run for each n and shared (a million triangles
// took 6 s to generate under the race detector, in every test).
func terrainScene(t *testing.T, n int) (cfg, obj string) {
	t.Helper()
	fullRunOnly(t)
	obj, err := terrains.path(n)
	if err != nil {
		t.Fatal(err)
	}
	return writeConfig(t, "127.0.0.1:0", obj, "[oscquery]\nenabled = false\n"), obj
}

// terrains are the OBJs terrainScene wrote, by n, in one directory that
// TestMain removes.
var terrains = terrainFiles{paths: map[int]string{}}

type terrainFiles struct {
	sync.Mutex
	dir   string
	paths map[int]string
}

// path returns the OBJ of n, written the first time it is asked for.
func (c *terrainFiles) path(n int) (string, error) {
	c.Lock()
	defer c.Unlock()
	if p, ok := c.paths[n]; ok {
		return p, nil
	}
	if c.dir == "" {
		dir, err := os.MkdirTemp("", "gloved-terrains-")
		if err != nil {
			return "", err
		}
		c.dir = dir
	}
	p := filepath.Join(c.dir, fmt.Sprintf("terrain-%d.obj", n))
	hills := func(x, z float64) float64 { return 0.02 * math.Sin(9*x) * math.Cos(7*z) }
	if err := writeSceneOBJ(p, env.Terrain("terrain", n, hills)); err != nil {
		return "", err
	}
	c.paths[n] = p
	return p, nil
}

// reloadingInto starts a daemon on the built-in scene, then has it reload
// (SIGHUP) into the config of terrainScene(t, n), and returns once the
// reload has begun to read it.
func reloadingInto(t *testing.T, n int) *proc {
	t.Helper()
	big, _ := terrainScene(t, n)
	text, err := os.ReadFile(big)
	if err != nil {
		t.Fatal(err)
	}
	cfg := writeConfig(t, "127.0.0.1:0", "builtin:grasp", "[oscquery]\nenabled = false\n")
	p := startGloved(t, "gloved run", "run", "-c", cfg, "--status=false", "--view", "off")
	p.logLine(t, "gloved running")
	if err := os.WriteFile(cfg, text, 0o644); err != nil {
		t.Fatal(err)
	}
	p.cmd.Process.Signal(syscall.SIGHUP)
	p.logLine(t, "SIGHUP: reading the config and loading its scene")
	return p
}

// busy waits until p has run for d of CPU time: it has started and is at
// work (loading its scene), whatever the machine's speed.
func busy(t *testing.T, p *proc, d time.Duration) {
	t.Helper()
	p.until(t, fmt.Sprintf("running for %v of CPU time", d), func() bool { return cpuTime(t, p.cmd.Process.Pid) >= d })
}

// cpuTime is the CPU time process pid has used (/proc/PID/stat's utime
// and stime, at 100 ticks a second).
func cpuTime(t *testing.T, pid int) time.Duration {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	fields := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:])) // after the command's name
	var ticks int64
	for _, f := range fields[11:13] { // utime, stime: fields 14 and 15 of the line
		n, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		ticks += n
	}
	return time.Duration(ticks) * 10 * time.Millisecond
}

// terminate sends SIGTERM to p and waits for it to exit, returning its exit
// code and how long it took.
func terminate(t *testing.T, p *proc) (int, time.Duration) {
	t.Helper()
	start := time.Now()
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(60 * time.Second):
		t.Fatalf("%s did not exit after SIGTERM:\n%s", p.name, p.errs.String())
	}
	return p.cmd.ProcessState.ExitCode(), time.Since(start)
}

// TestSIGTERMEndsTheLoadOfABigScene: a daemon loading a scene of a
// million triangles (seconds of reading and building its tree) stops on
// SIGTERM without finishing the load: it logs that it was interrupted
// while loading the scene, exits 0 (it was asked to stop), and never ran.
func TestSIGTERMEndsTheLoadOfABigScene(t *testing.T) {
	t.Parallel()
	cfg, _ := terrainScene(t, 707)
	p := startGloved(t, "gloved run", "run", "-c", cfg, "--status=false", "--view", "off")
	busy(t, p, 100*time.Millisecond)
	code, took := terminate(t, p)
	t.Logf("exited %v after SIGTERM", took)
	if code != 0 {
		t.Errorf("exit code %d, want 0:\n%s", code, p.errs.String())
	}
	logs := p.errs.String()
	if !strings.Contains(logs, "interrupted while loading the scene (terminated signal received): gloved stopped before it ran") {
		t.Errorf("the daemon did not say it was interrupted while loading the scene:\n%s", logs)
	}
	if strings.Contains(logs, "gloved running") {
		t.Errorf("the daemon finished loading before it stopped:\n%s", logs)
	}
}

// TestSIGTERMEndsTheCheckOfABigScene: `gloved run --check` on a scene of
// a million triangles stops on SIGTERM while it reads the scene, saying
// in one line that the config was not checked, and fails (exit 1).
func TestSIGTERMEndsTheCheckOfABigScene(t *testing.T) {
	t.Parallel()
	cfg, _ := terrainScene(t, 707)
	p := startGloved(t, "gloved run --check", "run", "--check", "-c", cfg)
	busy(t, p, 100*time.Millisecond)
	code, took := terminate(t, p)
	t.Logf("exited %v after SIGTERM", took)
	want := "gloved: interrupted while loading the scene (terminated signal received): the config was not checked\n"
	if code != 1 || p.errs.String() != want || strings.Contains(p.out.String(), "config ok") {
		t.Errorf("exit code %d, stderr %q, stdout %q; want 1, %q and no verdict", code, p.errs.String(), p.out.String(), want)
	}
}

// TestSIGTERMEndsAReloadThatLoadsABigScene: a daemon reloading (SIGHUP)
// into a config whose scene has a million triangles stops on SIGTERM
// without finishing the load, saying so, and exits 0.
func TestSIGTERMEndsAReloadThatLoadsABigScene(t *testing.T) {
	t.Parallel()
	p := reloadingInto(t, 707)
	code, took := terminate(t, p)
	t.Logf("exited %v after SIGTERM", took)
	logs := p.errs.String()
	if code != 0 || !strings.Contains(logs, "SIGHUP: interrupted while loading the scene (terminated signal received): gloved stops") {
		t.Errorf("exit code %d; want 0 and a line saying the reload was interrupted while loading the scene:\n%s", code, logs)
	}
	if n := strings.Count(logs, "gloved running"); n != 1 {
		t.Errorf("the daemon ran %d times, want once (the reload never finished):\n%s", n, logs)
	}
}

// TestSIGHUPsDuringAReloadMakeOneMoreReloadAfterIt: SIGHUPs that come
// while a reload loads its scene never start a load beside it: they are
// taken as one, a reload once the first is done (the config may have
// changed since the first read it).
func TestSIGHUPsDuringAReloadMakeOneMoreReloadAfterIt(t *testing.T) {
	t.Parallel()
	p := reloadingInto(t, 300)
	p.cmd.Process.Signal(syscall.SIGHUP)
	p.cmd.Process.Signal(syscall.SIGHUP)
	p.until(t, "two reloads", func() bool { return strings.Count(p.errs.String(), "gloved running") >= 3 })
	var order []string
	for _, l := range strings.Split(p.errs.String(), "\n") {
		for _, m := range []string{"SIGHUP: reading the config", "SIGHUP: reloading the config", "SIGHUP: config not reloaded"} {
			if strings.Contains(l, m) {
				order = append(order, m)
			}
		}
	}
	want := []string{"SIGHUP: reading the config", "SIGHUP: reloading the config", "SIGHUP: reading the config", "SIGHUP: reloading the config"}
	if strings.Join(order, "|") != strings.Join(want, "|") {
		t.Errorf("the reloads went %q, want %q (one load at a time; the SIGHUPs during the first taken as one)", order, want)
	}
}

// TestSIGTERMEndsTheReplayOfABigScene: `gloved replay` over a scene of a
// million triangles stops on SIGTERM while it loads the scene, with and
// without the page's timeline to compute first, saying in one line that
// it was interrupted while loading the scene (exit 1: nothing replayed).
func TestSIGTERMEndsTheReplayOfABigScene(t *testing.T) {
	t.Parallel()
	_, obj := terrainScene(t, 707)
	for _, view := range []bool{false, true} {
		args := []string{"replay", "../../testdata/recordings/grasp.glove", "--scene", obj, "--speed", "max", "--listen", "127.0.0.1:0"}
		if view {
			args = append(args, "--view", "127.0.0.1:0")
		}
		p := startGloved(t, "gloved replay", args...)
		busy(t, p, 100*time.Millisecond)
		code, took := terminate(t, p)
		t.Logf("--view %v: exited %v after SIGTERM", view, took)
		want := "gloved: interrupted while loading the scene (terminated signal received)\n"
		if code != 1 || p.errs.String() != want || p.out.String() != "" {
			t.Errorf("--view %v: exit code %d, stderr %q, stdout %q; want 1, %q and nothing replayed", view, code, p.errs.String(), p.out.String(), want)
		}
	}
}
