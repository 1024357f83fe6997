package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestABenchOutputNeverWritesOverAFileOfAnotherKind: bench --plot must
// name a .svg file, and neither --plot nor bench scenes --cpuprofile
// writes over a file that is not of its own kind (a recording named by
// mistake destroyed it): one line naming the flag, exit 2, the file as it
// was. A bench re-run over its own plot or profile still writes it.
func TestABenchOutputNeverWritesOverAFileOfAnotherKind(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mine := filepath.Join(dir, "mine.glove")
	if r := runBinary(t, 30*time.Second, "record", "--device", "sim", "--seconds", ".5", "-o", mine); r.code != 0 {
		t.Fatalf("record: exit %d: %s", r.code, r.stderr)
	}
	recorded, err := os.ReadFile(mine)
	if err != nil {
		t.Fatal(err)
	}
	disguised := filepath.Join(dir, "mine.svg")
	os.WriteFile(disguised, recorded, 0o644)
	scenes := []string{"bench", "scenes", "--classes", "ball", "--max-tris", "2000", "--motions", "grasp", "--frames", "1"}
	for _, tc := range []struct {
		args []string
		says []string
	}{
		{[]string{"bench", "self", "--frames", "1", "--plot", mine}, []string{"--plot " + mine, "want a .svg file"}},
		{[]string{"bench", "proximity", "--level", "1", "--plot", mine}, []string{"--plot " + mine, "want a .svg file"}},
		{[]string{"bench", "self", "--frames", "1", "--plot", disguised}, []string{"--plot " + disguised, "exists and is not an SVG plot", "name another file"}},
		{[]string{"bench", "cab", "--frames", "10", "--plot", disguised}, []string{"--plot " + disguised, "exists and is not an SVG plot"}},
		{append(scenes, "--plot", disguised), []string{"--plot " + disguised, "exists and is not an SVG plot"}},
		{append(scenes, "--cpuprofile", mine), []string{"--cpuprofile " + mine, "exists and is not a CPU profile", "name another file"}},
	} {
		r := runBinary(t, 30*time.Second, tc.args...)
		r.oneLine(t, 2, tc.says...)
		for _, p := range []string{mine, disguised} {
			if got, _ := os.ReadFile(p); !bytes.Equal(got, recorded) {
				t.Fatalf("%v: %s is no longer the recording", tc.args, p)
			}
		}
	}
	plot, profile := filepath.Join(dir, "p.svg"), filepath.Join(dir, "cpu.prof")
	for range 2 {
		r := runBinary(t, 60*time.Second, "bench", "self", "--frames", "1", "--plot", plot)
		if got, _ := os.ReadFile(plot); r.code != 0 || !bytes.HasPrefix(got, []byte("<svg")) || !strings.Contains(r.stdout, "plot written to "+plot) {
			t.Fatalf("bench self --plot over its own plot: exit %d, %q: %s", r.code, r.stdout, r.stderr)
		}
		r = runBinary(t, 60*time.Second, append(scenes, "--cpuprofile", profile)...)
		if got, _ := os.ReadFile(profile); r.code != 0 || !bytes.HasPrefix(got, []byte{0x1f, 0x8b}) {
			t.Fatalf("bench scenes --cpuprofile over its own profile: exit %d: %s", r.code, r.stderr)
		}
	}
}

// TestAPlotPathThatCannotBeWrittenIsRefusedBeforeTheBenchRuns: a --plot
// that is a directory, or in a directory that is not there, is refused
// in one line, exit 2, at once: it failed only once the run (a million
// frames here, hours) was done.
func TestAPlotPathThatCannotBeWrittenIsRefusedBeforeTheBenchRuns(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	isDir := filepath.Join(dir, "d1.svg")
	os.Mkdir(isDir, 0o755)
	missing := filepath.Join(dir, "nodir", "p.svg")
	for _, tc := range []struct {
		plot string
		says []string
	}{
		{isDir, []string{"--plot " + isDir, "is a directory", "name a file"}},
		{missing, []string{"--plot " + missing, "is missing or not a directory", "create it"}},
	} {
		for _, bench := range [][]string{{"self"}, {"cab"}, {"scenes", "--classes", "ball"}} {
			args := append(append([]string{"bench"}, bench...), "--frames", "1000000", "--plot", tc.plot)
			r := runBinary(t, 20*time.Second, args...)
			r.oneLine(t, 2, tc.says...)
			if r.stdout != "" {
				t.Errorf("%v printed %q before refusing", args, r.stdout)
			}
		}
	}
}
