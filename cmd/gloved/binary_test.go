package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

var built struct {
	once sync.Once
	path string
	err  error
	dir  string
}

// builtEnv names a binary already built: a test re-run in a network
// namespace (package netns) is handed its parent's.
const builtEnv = "GLOVED_TEST_BINARY"

// fullRunOnly skips t under -short, the race run (CI's step after the
// full one): there the tests whose work is another process's (a browser,
// the binary loading a large scene, the go command) are left to the full
// run, which runs them all; the race detector, watching this process,
// cannot see into those, and they take half the race run's time. So are
// the benches run in this process, whose frames' workers are the contact
// and session packages' (their own tests race them).
func fullRunOnly(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("left to the full run (-short, the race run): its work is another process's, out of the race detector's sight")
	}
}

// binary builds the gloved binary once for the test run and returns its
// path: error paths are tried as a user meets them, exit code included.
func binary(t *testing.T) string {
	t.Helper()
	if p := os.Getenv(builtEnv); p != "" {
		return p
	}
	built.once.Do(func() {
		built.dir, built.err = os.MkdirTemp("", "gloved-bin-")
		if built.err != nil {
			return
		}
		built.path = filepath.Join(built.dir, "gloved")
		out, err := exec.Command("go", "build", "-o", built.path, ".").CombinedOutput()
		if err != nil {
			built.err = errors.New(string(out))
		}
	})
	if built.err != nil {
		t.Fatalf("building gloved: %v", built.err)
	}
	return built.path
}

// parallel is how many of the tests that call t.Parallel run at once
// unless -parallel says otherwise. Most of them run the binary and wait
// on it, an emulator or a socket (the package's tests took some 210 s
// of wall time for some 65 s of CPU time, run one at a time): on two
// cores more of them fit than go test's default, one a core. The tests
// that assert a rate, a count within a time or a latency do not call
// t.Parallel: they run alone, before the others start.
const parallel = 6

// TestMain runs the tests, up to parallel at once, then removes what they
// built once for all of them: the binary and the shared scene files.
func TestMain(m *testing.M) {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		flag.Set("test.parallel", strconv.Itoa(parallel))
	}
	code := m.Run()
	for _, dir := range []string{built.dir, terrains.dir} {
		if dir != "" {
			os.RemoveAll(dir)
		}
	}
	os.Exit(code)
}

// result is what a run of the binary showed the user.
type result struct {
	stdout, stderr string
	code           int
}

// runBinary runs the binary with args for at most d.
func runBinary(t *testing.T, d time.Duration, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary(t), args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := result{stdout: out.String(), stderr: errb.String()}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	default:
		t.Fatalf("running gloved %v: %v", args, err)
	}
	return r
}

// oneLine fails unless the run ended with the code and one line on
// standard error that says each of says, and no stack trace.
func (r result) oneLine(t *testing.T, code int, says ...string) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	if r.code != code || len(lines) != 1 || strings.Contains(r.stderr, "goroutine") || strings.Contains(r.stderr, "panic") {
		t.Fatalf("exit %d, want %d; stderr (want one line):\n%s", r.code, code, r.stderr)
	}
	for _, s := range says {
		if !strings.Contains(lines[0], s) {
			t.Errorf("%q does not say %q", lines[0], s)
		}
	}
}
