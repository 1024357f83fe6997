package main

import (
	bin "encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gloved/gloved/env"
)

// writeRandomSTL writes a binary STL of n random triangles in a metre
// cube, seeded: the scene of the most vertices and the longest triangles
// for its size, the one the memory estimate was measured on.
func writeRandomSTL(t *testing.T, path string, n int) {
	t.Helper()
	r := rand.New(rand.NewPCG(uint64(n), 1))
	b := make([]byte, 84+50*n)
	bin.LittleEndian.PutUint32(b[80:], uint32(n))
	for i := range n {
		rec := b[84+50*i:]
		for k := 3; k < 12; k++ { // the normal (0, 0, 0), then three corners
			bin.LittleEndian.PutUint32(rec[4*k:], math.Float32bits(float32(r.Float64())))
		}
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// vmSize reads a process's address space, in bytes, from /proc.
func vmSize(t *testing.T, pid int) uint64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmSize:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				t.Fatalf("VmSize line %q: %v", line, err)
			}
			return kb * 1024
		}
	}
	t.Fatalf("no VmSize in /proc/%d/status", pid)
	return 0
}

// TestAReloadToASceneTooBigForTheMemoryLimitKeepsTheRunningConfig: a
// daemon whose address space is limited (ulimit -v, set on the running
// daemon by prlimit) to half the estimate of a scene of 400 000 random
// triangles more than it uses, sent SIGHUP after its config was changed
// to name that scene, refuses the scene in one line naming it, the
// estimate, the room and the limit, and goes on running its config. It
// used to be ended by the Go runtime ("fatal error: out of memory")
// building the new scene's tree. (Half, not less: reading the file
// before the scene is weighed takes address space too, in the runtime's
// 64 MB arenas; a room of 100 MB was not always enough for it.)
func TestAReloadToASceneTooBigForTheMemoryLimitKeepsTheRunningConfig(t *testing.T) {
	if _, err := exec.LookPath("prlimit"); err != nil {
		t.Skip("prlimit (util-linux) is not installed: cannot limit the daemon's address space")
	}
	t.Parallel()
	dir := t.TempDir()
	const tris = 400_000
	writeRandomSTL(t, filepath.Join(dir, "big.stl"), tris)
	copyInto(t, "../../testdata/scenes/grasp.obj", filepath.Join(dir, "s.obj"))
	p, metrics := runServed(t, dir, `[[hand]]
name = "right"
device = "sim"
wrist_pose = [0.0, 0.91, 0.10, -0.70710678, 0.0, 0.0, 0.70710678]
`, "s.obj")
	p.until(t, "the first frames", func() bool { return metric(metrics, "gloved_frames_total") > 0 })
	pid := p.cmd.Process.Pid
	limit := vmSize(t, pid) + env.PeakBytes(tris)/2
	if out, err := exec.Command("prlimit", "--pid", strconv.Itoa(pid), fmt.Sprintf("--as=%d", limit)).CombinedOutput(); err != nil {
		t.Fatalf("prlimit: %v: %s", err, out)
	}
	cfg := filepath.Join(dir, "gloved.toml")
	text, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, cfg, strings.Replace(string(text), `"s.obj"`, `"big.stl"`, 1))
	p.cmd.Process.Signal(syscall.SIGHUP)
	p.until(t, "the reload's refusal", func() bool {
		return strings.Contains(p.errs.String(), "SIGHUP: config not reloaded; the running one goes on")
	})
	var refusal string
	for _, line := range strings.Split(p.errs.String(), "\n") {
		if strings.Contains(line, "config not reloaded") {
			refusal = line
		}
	}
	for _, s := range []string{fmt.Sprintf("big.stl (%d triangles) needs about", tris), "this process may take", "(ulimit -v)", "simplify the mesh or raise the limit"} {
		if !strings.Contains(refusal, s) {
			t.Errorf("the refusal %q does not say %q", refusal, s)
		}
	}
	n := metric(metrics, "gloved_frames_total")
	p.until(t, "frames after the refused reload", func() bool { return metric(metrics, "gloved_frames_total") > n+50 })
	if metric(metrics, handStatus("streaming")) != 1 {
		t.Errorf("the hand is not streaming:\n%s", p.errs.String())
	}
	noErrorLogged(t, p, "config not reloaded")
	select {
	case <-p.done:
		t.Fatalf("the daemon exited:\n%s", p.errs.String())
	case <-time.After(0):
	}
}
