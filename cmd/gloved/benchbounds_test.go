package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestABenchCountTooLargeForMemoryIsRefusedInOneLine: every count flag
// of a bench experiment that sizes what it holds is bounded up front: one
// too large is one line naming the flag, its value and its range, exit 2,
// where it ran out of memory (a fatal error and a goroutine dump, exit 2,
// after a GB or more) or ran for days.
func TestABenchCountTooLargeForMemoryIsRefusedInOneLine(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"bench", "cab", "--frames", "100000000"},
		{"bench", "self", "--frames", "100000000"},
		{"bench", "scenes", "--frames", "100000000", "--classes", "ball"},
		{"bench", "latency", "--frames", "100000000"},
		{"bench", "latency", "--warmup", "100000000"},
		{"bench", "pipeline", "--scene", "builtin:grasp", "--sim", "--frames", "100000000"},
		{"bench", "bch", "--poses", "10000000"},
		{"bench", "bch", "--cases", "100000000"},
		{"bench", "bch", "--iters", "100000000"},
		{"bench", "bch", "--slides", "100000000"},
		{"bench", "bch", "--cells", "100000"},
		{"bench", "proximity", "--level", "9"},
	} {
		flag, value := args[len(args)-2], args[len(args)-1]
		if args[1] == "scenes" {
			flag, value = args[2], args[3]
		}
		r := runBinary(t, 20*time.Second, args...)
		r.oneLine(t, 2, flag+" "+value+": want ", " to ")
		if r.stdout != "" {
			t.Errorf("gloved %s printed %q", strings.Join(args, " "), r.stdout)
		}
	}
}

// TestSIGTERMStopsALongBenchInOneLine: a bench experiment asked for a
// long run (cab and self: a million frames; bch: 400 poses a body) stops
// soon after SIGTERM or SIGINT, mid-table, with one line saying it was
// interrupted and that what it printed is all it measured, exit 1, as an
// interrupted export does (cab and self ran on, deaf to the signal, and
// bch said only "context canceled"). It runs alone: it waits on a stop.
func TestSIGTERMStopsALongBenchInOneLine(t *testing.T) {
	fullRunOnly(t) // the binary's benches, one after another
	for _, tc := range []struct {
		sig  syscall.Signal
		args []string
	}{
		{syscall.SIGTERM, []string{"bench", "cab", "--frames", "1000000"}},
		{syscall.SIGINT, []string{"bench", "self", "--frames", "1000000"}},
		{syscall.SIGTERM, []string{"bench", "bch", "--bodies", "humanoid", "--poses", "400"}},
	} {
		p := startGloved(t, tc.args[1], tc.args...)
		time.Sleep(time.Second) // well into its first table
		p.cmd.Process.Signal(tc.sig)
		r := result{code: p.exit(t)} // fails if it runs on past 10 s
		r.stdout, r.stderr = p.out.String(), p.errs.String()
		r.oneLine(t, 1, "bench "+tc.args[1]+" interrupted", "signal received", "what it printed is all it measured")
	}
}

// TestEveryBenchProximityOptionOutOfItsRangeIsRefusedInOneLine: each of
// bench proximity's flags has a stated range, NaN and infinities outside
// it, refused in one line naming the flag and the range, exit 2, before
// the spheres are built: a gap of 1e308 printed no table and exited 0, a
// NaN fit bound was taken, and a billion gaps a decade ran forever.
func TestEveryBenchProximityOptionOutOfItsRangeIsRefusedInOneLine(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"--level", "1", "--eps-max", "1e308"},
		{"--eps-max", "+Inf"},
		{"--eps-max", "0.5", "--eps-min", "0.9"},
		{"--eps-min", "0"},
		{"--eps-min", "1e-300"},
		{"--fit-max", "NaN"},
		{"--fit-max", "-1"},
		{"--plateau", "NaN"},
		{"--plateau", "0"},
		{"--plateau", "1.5"},
		{"--per-decade", "1000000000"},
		{"--per-decade", "0"},
	} {
		r := runBinary(t, 20*time.Second, append([]string{"bench", "proximity", "--level", "8"}, args...)...)
		flag, value := args[len(args)-2], args[len(args)-1]
		r.oneLine(t, 2, flag+" ", ": want ")
		if !strings.Contains(r.stderr, value) && !strings.Contains(r.stderr, "1e+308") && !strings.Contains(r.stderr, "+Inf") {
			t.Errorf("%v: %q does not name the value", args, r.stderr)
		}
		if r.stdout != "" {
			t.Errorf("%v printed %q", args, r.stdout)
		}
	}
}

// TestBenchProximityWithNoGapsToFitSaysThereIsNoSlope: gaps that leave
// fewer than two points to fit (all above --fit-max) give no slope, said
// so, not "slope 0.00 over 0 gaps".
func TestBenchProximityWithNoGapsToFitSaysThereIsNoSlope(t *testing.T) {
	t.Parallel()
	r := runBinary(t, 60*time.Second, "bench", "proximity", "--level", "1", "--eps-min", "1", "--eps-max", "1")
	if r.code != 0 || strings.Count(r.stdout, "log-log slope: none, 0 gaps within --fit-max 0.5") != 2 || strings.Contains(r.stdout, "slope 0.00") {
		t.Errorf("exit %d, stdout:\n%s", r.code, r.stdout)
	}
}

// TestBenchPipelineOfADamagedRecordingWarns: a recording cut short is
// benched up to its damage, with the warning naming the byte offset that
// every command running a recording gives (bench pipeline said nothing).
func TestBenchPipelineOfADamagedRecordingWarns(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../testdata/recordings/grasp.glove")
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(t.TempDir(), "cut.glove")
	if err := os.WriteFile(cut, b[:5000], 0o644); err != nil {
		t.Fatal(err)
	}
	r := runBinary(t, 60*time.Second, "bench", "pipeline", "--scene", "builtin:grasp", "--recording", cut)
	if r.code != 0 || strings.Count(r.stderr, "recording damaged: record at byte") != 1 {
		t.Errorf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
}
