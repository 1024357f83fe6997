package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/env/experiments"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/session"
	"github.com/gloved/gloved/traversal"
)

func gloved(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	err := run(context.Background(), args, &out)
	return out.String(), err
}

// writeOBJ writes a mesh as an OBJ file, the round trip a user would make.
func writeOBJ(t *testing.T, m *env.Mesh, name string) string {
	t.Helper()
	var b bytes.Buffer
	if err := env.WriteOBJ(&b, m); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

type collideJSON struct {
	Pairs    [][2]int32 `json:"pairs"`
	BoxTests int        `json:"box_tests"`
	TriTests int        `json:"tri_tests"`
	BuildS   []float64  `json:"build_s"`
}

func TestCollideAnswersWhatBruteForceAnswers(t *testing.T) {
	t.Parallel()
	a := env.Sphere("left", geom.Vec3{}, 1, 3)
	b := env.Sphere("right", geom.Vec3{}, 0.7, 3)
	pa, pb := writeOBJ(t, a, "a.obj"), writeOBJ(t, b, "b.obj")
	for _, pose := range []string{"1.6 0.1 0 0 0 0 1", "1.2 0.3 -0.2 0.1 0.3 0.2 0.9", "5 0 0 0 0 0 1", "0 0 0 0 0 0 1"} {
		out, err := gloved(t, "collide", pa, pb, "--json", "--place-b", pose)
		if err != nil {
			t.Fatal(err)
		}
		var got collideJSON
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("output is not the JSON object: %v\n%s", err, out)
		}
		v, err := session.ParsePose(pose, session.PositionFirst)
		if err != nil {
			t.Fatal(err)
		}
		x, err := session.PoseFrom(v)
		if err != nil {
			t.Fatal(err)
		}
		ma, _ := env.Load(pa, env.LoadOptions{})
		mb, _ := env.Load(pb, env.LoadOptions{})
		want := traversal.BruteForce(ma, mb, x)
		if want == nil {
			want = [][2]int32{}
		}
		if !slices.Equal(got.Pairs, want) {
			t.Errorf("pose %q: %d pairs, brute force %d", pose, len(got.Pairs), len(want))
		}
		if len(got.BuildS) != 2 || got.BuildS[0] <= 0 || (len(want) > 0 && got.TriTests == 0) {
			t.Errorf("pose %q: counters %+v", pose, got)
		}
		if !strings.Contains(out, `"pairs":[`) {
			t.Errorf("pose %q: pairs must be a JSON array even when empty: %s", pose, out)
		}
	}
}

func TestCollideFirstStopsAtOnePair(t *testing.T) {
	out, err := gloved(t, "collide", "../../testdata/scenes/two_objects.obj", "../../testdata/scenes/crate.glb", "--first", "--json", "--place-b", "-10 0.5 0 0 0 0 1")
	if err != nil {
		t.Fatal(err)
	}
	var got collideJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Pairs) != 1 {
		t.Fatalf("--first returned %d pairs, want 1", len(got.Pairs))
	}
}

// crossingFans writes two fans of n triangles each, every triangle of
// one crossing every triangle of the other (n*n pairs), and returns their
// paths.
func crossingFans(t *testing.T, n int) (a, b string) {
	t.Helper()
	var fa, fb strings.Builder
	for i := range n {
		y, x := float64(i)/float64(n), float64(i)/float64(n)-0.5
		fmt.Fprintf(&fa, "v -1 %g -1\nv 1 %g -1\nv 0 %g 1\nf %d %d %d\n", y, y, y, 3*i+1, 3*i+2, 3*i+3)
		fmt.Fprintf(&fb, "v %g -1 -1\nv %g 2 -1\nv %g 0.5 1\nf %d %d %d\n", x, x, x, 3*i+1, 3*i+2, 3*i+3)
	}
	dir := t.TempDir()
	a, b = filepath.Join(dir, "a.obj"), filepath.Join(dir, "b.obj")
	for path, text := range map[string]string{a: fa.String(), b: fb.String()} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return a, b
}

// TestCollideStopsAtMaxPairs: two fans of triangles where every
// triangle of one crosses every triangle of the other meet in N*N pairs
// (N = 10,000 ran out of memory holding them); collide lists at most
// --max-pairs of them, says in one line (or "at_max_pairs" in --json)
// that it stopped there, and exits 0 as --first does; with the cap at
// or above their number it lists them all and says nothing of it.
func TestCollideStopsAtMaxPairs(t *testing.T) {
	const n = 30
	a, b := crossingFans(t, n)
	r := runBinary(t, 20*time.Second, "collide", a, b, "--max-pairs", "100")
	if r.code != 0 || !strings.Contains(r.stdout, "intersecting pairs: 100\n") || !strings.Contains(r.stdout, "stopped at --max-pairs 100") {
		t.Errorf("capped at 100 of %d pairs: exit %d, stderr %q, stdout:\n%s", n*n, r.code, r.stderr, r.stdout)
	}
	r = runBinary(t, 20*time.Second, "collide", a, b, "--max-pairs", "100", "--json")
	var got struct {
		Pairs      [][2]int32 `json:"pairs"`
		AtMaxPairs bool       `json:"at_max_pairs"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || len(got.Pairs) != 100 || !got.AtMaxPairs {
		t.Errorf("--json capped at 100: %d pairs, at_max_pairs %v, err %v", len(got.Pairs), got.AtMaxPairs, err)
	}
	for _, args := range [][]string{{"collide", a, b}, {"collide", a, b, "--max-pairs", fmt.Sprint(n * n)}} {
		r = runBinary(t, 20*time.Second, args...)
		if r.code != 0 || !strings.Contains(r.stdout, fmt.Sprintf("intersecting pairs: %d\n", n*n)) || strings.Contains(r.stdout, "stopped at") {
			t.Errorf("%q: exit %d, stdout lacks all %d pairs or says it stopped:\n%.400s", args, r.code, n*n, r.stdout)
		}
	}
}

// TestSIGTERMStopsALongCollideInOneLine: two fans of 3,000 triangles,
// every pair crossing (nine million pairs, some 18 s), with --max-pairs
// high enough to list them all: SIGTERM or SIGINT a second in stops
// collide within seconds, exit 1, with one line saying it was
// interrupted before it answered and what to do (it ran on for minutes,
// the signal caught and never acted on). It runs alone: it waits on a
// stop.
func TestSIGTERMStopsALongCollideInOneLine(t *testing.T) {
	a, b := crossingFans(t, 3000)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		p := startGloved(t, "collide", "collide", a, b, "--max-pairs", "100000000")
		time.Sleep(time.Second) // into the query
		p.cmd.Process.Signal(sig)
		r := result{code: p.exit(t)} // fails if it runs on past 10 s
		r.stdout, r.stderr = p.out.String(), p.errs.String()
		r.oneLine(t, 1, "collide interrupted", "signal received", "before it answered", "--first")
	}
}

func TestCollideHumanOutputNamesObjects(t *testing.T) {
	out, err := gloved(t, "collide", "../../testdata/scenes/two_objects.obj", "../../testdata/scenes/cube_binary.stl", "--place-b", "3 -0.5 1.5 0 0 0 1")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"box tests:", "intersecting pairs:", "(table top)", "(cube_binary)"} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
		}
	}
}

func TestCommandLineErrors(t *testing.T) {
	tests := []struct {
		args  []string
		says  string
		usage bool
	}{
		{[]string{"frobnicate"}, `unknown command "frobnicate"`, true},
		{[]string{"collide", "only-one.obj"}, "two mesh files, got 1", true},
		{[]string{"collide", "a.obj", "b.obj", "--place-b", "1 0 0"}, "want 7 numbers", true},
		{[]string{"collide", "a.obj", "b.obj", "--place-b", "0 0 0 0 0 0 0"}, "the rotation quaternion is zero", true},
		{[]string{"collide", "a.obj", "b.obj", "--fit", "sphere"}, `"sphere": want hull`, true},
		{[]string{"collide", "a.obj", "b.obj", "--max-pairs", "0"}, "--max-pairs 0: want 1 to 100000000", true},
		{[]string{"collide", "../../testdata/scenes/missing.obj", "../../testdata/scenes/cube_ascii.stl"}, "missing.obj", false},
		{[]string{"bench"}, "needs an experiment", true},
		{[]string{"bench", "proximity", "--level", "12"}, "level", true},
	}
	for _, tc := range tests {
		_, err := gloved(t, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.says) || errors.Is(err, errUsage) != tc.usage {
			t.Errorf("%v: error %v, want one saying %q (usage error: %v)", tc.args, err, tc.says, tc.usage)
		}
	}
}

func TestBenchProximity(t *testing.T) {
	t.Parallel()
	fullRunOnly(t)
	plot := filepath.Join(t.TempDir(), "p.svg")
	out, err := gloved(t, "bench", "proximity", "--level", "4", "--eps-min", "0.001", "--per-decade", "3", "--json", "--plot", plot)
	if err != nil {
		t.Fatal(err)
	}
	var res experiments.ProximityResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if res.Triangles != 2048 || len(res.Rows) != 10 {
		t.Fatalf("got %d triangles and %d rows, want 2048 and 10", res.Triangles, len(res.Rows))
	}
	for i, r := range res.Rows {
		// Before the OBBTree levels off, the AABB tree does more work.
		if r.Eps >= res.OBB.EpsMin && r.AABBTests <= r.OBBTests {
			t.Errorf("eps %g: AABB tree did fewer box tests (%d) than the OBBTree (%d)", r.Eps, r.AABBTests, r.OBBTests)
		}
		if i > 0 && (r.OBBTests < res.Rows[i-1].OBBTests || r.AABBTests < res.Rows[i-1].AABBTests) {
			t.Errorf("eps %g: box tests fell as the gap shrank", r.Eps)
		}
	}
	if res.OBB.Points < 2 || res.AABB.Points < 2 || !(res.OBB.Slope < -0.5) || !(res.AABB.Slope < res.OBB.Slope) {
		t.Errorf("fits OBB %+v, AABB %+v: want both falling, AABB steeper", res.OBB, res.AABB)
	}
	svg, err := os.ReadFile(plot)
	if err != nil || !bytes.HasPrefix(svg, []byte("<svg")) || !bytes.Contains(svg, []byte("<polyline")) {
		t.Fatalf("plot not written as SVG: %v", err)
	}
}

func TestDemoShowsTheGraspTouchingTheBall(t *testing.T) {
	t.Parallel()
	out, err := gloved(t, "demo")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if !strings.Contains(lines[2], "no contact") || !strings.Contains(out, " in ball ") || !strings.Contains(out, " near ball ") || !strings.Contains(lines[len(lines)-1], "300 frames") {
		t.Fatalf("the demo should start clear, grasp the ball, and report 300 frames:\n%s", out)
	}
	if strings.Contains(out, "in table") {
		t.Errorf("the hand hovers over the ball and should not touch the table:\n%s", out)
	}
	if _, err := gloved(t, "demo", "--motion", "wave"); err == nil {
		t.Error("an unknown motion must be an error")
	}
	for _, args := range [][]string{{"demo", "--frames", "0"}, {"contacts", "--scene", "builtin:grasp", "--sim", "--frames", "0"}} {
		if _, err := gloved(t, args...); !errors.Is(err, errUsage) {
			t.Errorf("%v: got %v, want a usage error (it would run for ever)", args, err)
		}
	}
}

func TestBenchCAB(t *testing.T) {
	t.Parallel()
	fullRunOnly(t)
	plot := filepath.Join(t.TempDir(), "cab.svg")
	out, err := gloved(t, "bench", "cab", "--frames", "60", "--json", "--plot", plot)
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Tables []struct {
			Name   string `json:"name"`
			Frames int    `json:"frames"`
			Rows   []struct {
				Method string `json:"method"`
				Coll   int    `json:"coll"`
				False  int    `json:"false"`
			} `json:"rows"`
		} `json:"tables"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(res.Tables) != 5 {
		t.Fatalf("%d tables, want 5", len(res.Tables))
	}
	for _, tab := range res.Tables {
		counts := map[string][2]int{}
		for _, r := range tab.Rows {
			counts[r.Method] = [2]int{r.Coll, r.False}
		}
		if len(counts) != 6 || counts["OBB"] != counts["CAB"] {
			t.Errorf("%s: rows %v: want six methods and OBB == CAB", tab.Name, counts)
		}
	}
	if b, err := os.ReadFile(plot); err != nil || !bytes.Contains(b, []byte("<rect")) {
		t.Errorf("plot: %v", err)
	}
	human, err := gloved(t, "bench", "cab", "--frames", "20")
	if err != nil || !strings.Contains(human, "OBB and CAB counts: identical") || !strings.Contains(human, "Table 5") {
		t.Errorf("table output: %v\n%s", err, human)
	}
}

// TestBenchScenes: the scenes benchmark runs every class at its smallest
// size; the grasp sinks fingers into the ball and the torus, and nothing
// comes near the height field under the hand.
func TestBenchScenes(t *testing.T) {
	t.Parallel()
	fullRunOnly(t)
	plot := filepath.Join(t.TempDir(), "scenes.svg")
	args, frames := []string{"bench", "scenes", "--max-tris", "50000", "--motions", "grasp", "--json", "--plot", plot}, 150
	out, err := gloved(t, append(args, "--frames", strconv.Itoa(frames))...)
	if err != nil {
		t.Fatal(err)
	}
	var rows []sceneRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	seen := map[string]bool{}
	for _, r := range rows {
		seen[r.Class] = true
		if r.Frames != frames || r.Motion != "grasp" || r.Tris < 1000 || !(r.BuildS > 0) || len(r.Stages) != 7 {
			t.Errorf("%+v: want %d frames, a built scene and seven stages", r, frames)
		}
		switch r.Class {
		case "ball", "torus":
			if !(r.ContactsPerFrm > 1) {
				t.Errorf("%s of %d triangles: %v contacts per frame, want the grasp in it", r.Class, r.Tris, r.ContactsPerFrm)
			}
		case "field":
			if r.ContactsPerFrm != 0 || r.NearPerFrame != 0 {
				t.Errorf("field: %v contacts and %v near per frame, want nothing within the band", r.ContactsPerFrm, r.NearPerFrame)
			}
		}
	}
	if !seen["ball"] || !seen["torus"] || !seen["field"] {
		t.Errorf("classes run: %v", seen)
	}
	if svg, err := os.ReadFile(plot); err != nil || !bytes.Contains(svg, []byte("<polyline")) {
		t.Errorf("plot not written: %v", err)
	}
	if _, err := gloved(t, "bench", "scenes", "--classes", "cube"); err == nil {
		t.Error("an unknown class was accepted")
	}
}

// TestBenchScenesProfileIsWrittenOnlyByARunThatSucceeds: --cpuprofile
// names a file (here an earlier run's profile) that a run failing on its flags (checked before the
// profile starts, or a class name checked in the run) leaves as it was,
// exit 2 and one line; a run that succeeds puts the whole profile there.
func TestBenchScenesProfileIsWrittenOnlyByARunThatSucceeds(t *testing.T) {
	dir := t.TempDir()
	prof := filepath.Join(dir, "cpu.prof")
	const kept = "\x1f\x8b kept" // a profile of an earlier run: gzip, as pprof writes
	if err := os.WriteFile(prof, []byte(kept), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"--frames", "0"}, "--frames 0: want 1 to 1000000"},
		{[]string{"--classes", "nope"}, `no scene class "nope"`},
		{[]string{"--classes", "ball", "--max-tris", "10"}, "--max-tris 10: no scene of the classes run is that small"},
	} {
		runBinary(t, 20*time.Second, append([]string{"bench", "scenes", "--cpuprofile", prof}, tc.args...)...).oneLine(t, 2, tc.says)
		if b, err := os.ReadFile(prof); err != nil || string(b) != kept {
			t.Errorf("%v: the profile file was written over (%d bytes, %v), want it as it was", tc.args, len(b), err)
		}
	}
	if matches, _ := filepath.Glob(filepath.Join(dir, ".*partial*")); len(matches) != 0 {
		t.Errorf("scratch files left: %v", matches)
	}
	r := runBinary(t, 30*time.Second, "bench", "scenes", "--cpuprofile", prof, "--classes", "ball", "--max-tris", "3000", "--frames", "1", "--motions", "grasp")
	if b, err := os.ReadFile(prof); r.code != 0 || err != nil || len(b) == 0 || string(b) == kept {
		t.Errorf("a run that succeeded (exit %d %s) left the profile %d bytes (%v)", r.code, r.stderr, len(b), err)
	}
}

// TestBenchScenesExportsForThePeers: --export writes what bench/fcl and
// bench/coal read for each scene: the scene, the links, every frame's
// poses, gloved's contacts, and gloved's own timing of the collision part
// (refit + traverse + narrow, never more than the whole frame) with the
// band. It also profiles the run when asked, and says what the scene holds
// in memory per triangle: at least its mesh.
func TestBenchScenesExportsForThePeers(t *testing.T) {
	dir := t.TempDir()
	prof := filepath.Join(dir, "cpu.prof")
	out, err := gloved(t, "bench", "scenes", "--classes", "ball", "--max-tris", "3000", "--frames", "40", "--motions", "grasp", "--json", "--export", dir, "--cpuprofile", prof)
	if err != nil {
		t.Fatal(err)
	}
	var rows []sceneRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) != 1 {
		t.Fatalf("%v\n%s", err, out)
	}
	r := rows[0]
	if st, err := os.Stat(prof); err != nil || st.Size() == 0 {
		t.Errorf("--cpuprofile wrote nothing: %v", err)
	}
	if r.BytesPerTri < 28 || r.MemMB <= 0 {
		t.Errorf("%v bytes per triangle (%v MB): less than the mesh", r.BytesPerTri, r.MemMB)
	}
	if _, err := gloved(t, "bench", "scenes", "--classes", "ball", "--max-tris", "3000", "--cpuprofile", filepath.Join(dir, "none", "cpu.prof")); err == nil || !strings.Contains(err.Error(), "--cpuprofile") {
		t.Errorf("a profile that cannot be written: %v", err)
	}
	scene := filepath.Join(dir, fmt.Sprintf("ball-%d-grasp", r.Tris))
	for _, f := range []string{"scene.obj", "frames.txt", "contacts.jsonl", "links/palm.obj"} {
		if _, err := os.Stat(filepath.Join(scene, f)); err != nil {
			t.Error(err)
		}
	}
	var timing struct {
		Band float64 `json:"band_m"`
		P50  float64 `json:"collision_p50_us"`
		P99  float64 `json:"collision_p99_us"`
		Mean float64 `json:"collision_mean_us"`
		Warm int     `json:"warm_frames"`
	}
	b, err := os.ReadFile(filepath.Join(scene, "gloved.json"))
	if err != nil || json.Unmarshal(b, &timing) != nil {
		t.Fatalf("gloved.json: %v %s", err, b)
	}
	total := r.Stages[len(r.Stages)-1]
	if timing.Band != 0.01 || timing.P50 != r.Collision.P50US || !(timing.P50 > 0) || timing.P50 > total.P50US || timing.P99 < timing.P50 ||
		timing.Mean != r.Collision.MeanUS || !(timing.Mean > 0) || timing.Mean > r.Collision.MaxUS || timing.Warm != warmFrames {
		t.Errorf("gloved.json %+v, the run's collision part %+v, its total %+v", timing, r.Collision, total)
	}
}

// TestANegativeWorkerCountIsAUsageError: --workers takes 0 (one per CPU)
// or more, on the benches and on the commands that run a session; the
// binary says which flag in one line and exits 2.
func TestANegativeWorkerCountIsAUsageError(t *testing.T) {
	for _, args := range [][]string{
		{"bench", "scenes", "--classes", "ball", "--workers", "-1"},
		{"contacts", "--scene", "builtin:grasp", "--sim", "--workers", "-1"},
	} {
		runBinary(t, 20*time.Second, args...).oneLine(t, 2, "--workers -1")
	}
}

// TestRoundingKeepsTheSignAndSizeOfLargeValues: the outputs' rounding to
// nine (contacts) or six (dump) decimals gives a value too large for
// them back as it is, never an int64's saturation with its sign flipped,
// and rounds halves away from zero.
func TestRoundingKeepsTheSignAndSizeOfLargeValues(t *testing.T) {
	for _, tc := range []struct{ in, nine, six float64 }{
		{1e300, 1e300, 1e300},
		{-1e300, -1e300, -1e300},
		{1e10, 1e10, 1e10},
		{0.0123456789012, 0.012345679, 0.012346},
		{-0.0123456789012, -0.012345679, -0.012346},
		{2.5e-10, 0, 0},
	} {
		if got := round9(tc.in); got != tc.nine {
			t.Errorf("round9(%v) = %v, want %v", tc.in, got, tc.nine)
		}
		if got := round6(tc.in); got != tc.six {
			t.Errorf("round6(%v) = %v, want %v", tc.in, got, tc.six)
		}
	}
}
