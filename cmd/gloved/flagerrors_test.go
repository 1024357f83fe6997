package main

import (
	"strings"
	"testing"
	"time"
)

// commandLines are the command lines of every command and bench
// experiment, as a user starts them: name and the words before its flags.
func commandLines() [][]string {
	var lines [][]string
	for name := range commands() {
		if name == "bench" {
			for _, e := range benchExperiments {
				lines = append(lines, []string{"bench", e.name})
			}
			continue
		}
		lines = append(lines, []string{name})
	}
	return lines
}

// TestAFlagThatDoesNotParseIsOneLineNamingItAndWhereTheFlagsAre: for
// every command, a flag it does not have, or a value its flag cannot
// read, is one line, exit 2, naming the flag and `gloved CMD -h` (it was
// the error, the whole usage, then the error again); -h still prints the
// usage, exit 0.
func TestAFlagThatDoesNotParseIsOneLineNamingItAndWhereTheFlagsAre(t *testing.T) {
	t.Parallel()
	for _, line := range commandLines() {
		cmd := strings.Join(line, " ")
		r := runBinary(t, 20*time.Second, append(line, "--no-such-flag")...)
		r.oneLine(t, 2, "-no-such-flag", "`gloved "+cmd+" -h`")
		if r.stdout != "" {
			t.Errorf("gloved %s --no-such-flag printed %q", cmd, r.stdout)
		}
		h := runBinary(t, 20*time.Second, append(line, "-h")...)
		if h.code != 0 || !strings.Contains(h.stdout+h.stderr, "usage: gloved "+cmd) {
			t.Errorf("gloved %s -h: exit %d, %q %q; want its usage", cmd, h.code, h.stdout, h.stderr)
		}
	}
	for _, args := range [][]string{
		{"run", "--for", "9999999h"},
		{"contacts", "--frames", "99999999999999999999"},
	} {
		r := runBinary(t, 20*time.Second, args...)
		r.oneLine(t, 2, "flag "+args[1][1:], args[2], "`gloved "+args[0]+" -h`")
	}
}

// TestARunWhoseForIsUpBeforeItsSceneLoadsSaysSo: `gloved run --for 1ms`
// over a scene that takes longer than that to load stops before it runs,
// exit 0 (it ran as long as it was asked), and says that --for was up and
// to give a longer one, not "context deadline exceeded".
func TestARunWhoseForIsUpBeforeItsSceneLoadsSaysSo(t *testing.T) {
	t.Parallel()
	cfg := writeConfig(t, "127.0.0.1:0", mustAbs(t, "../../testdata/meshes/bunny.glb"), "")
	r := runBinary(t, 60*time.Second, "run", "-c", cfg, "--for", "1ms", "--status=false")
	if r.code != 0 || strings.Contains(r.stderr, "deadline") || !strings.Contains(r.stderr, "--for 1ms was up; give a longer --for") {
		t.Fatalf("exit %d, stderr:\n%s\nwant exit 0 and that --for 1ms was up", r.code, r.stderr)
	}
	if strings.Contains(r.stderr, "gloved running") {
		t.Errorf("a run whose --for was up before it began ran:\n%s", r.stderr)
	}
}

// TestCollideRefusesInOneLine: collide given one mesh file, or a
// --max-pairs past the 100,000,000 pairs (800 MB) it may hold, says so in
// one line, exit 2 (the first printed the whole usage before its error).
func TestCollideRefusesInOneLine(t *testing.T) {
	t.Parallel()
	runBinary(t, 20*time.Second, "collide", "only-one.obj").
		oneLine(t, 2, "two mesh files, got 1", "`gloved collide -h`")
	runBinary(t, 20*time.Second, "collide", "a.obj", "b.obj", "--max-pairs", "1000000000").
		oneLine(t, 2, "--max-pairs 1000000000: want 1 to 100000000")
}
