package main

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeConfig writes a config for one simulated hand on the built-in
// scene, with extra appended, and returns its path.
func writeConfig(t *testing.T, listen, scene, extra string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "gloved.toml")
	text := fmt.Sprintf(`
[[hand]]
name = "right"
device = "sim"
[scene]
files = [{ path = %q }]
[osc]
listen = %q
targets = []
%s`, scene, listen, extra)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// handConfig writes dir/gloved.toml: one right hand of the [[hand]]
// keys given (device, port, ...) over the built-in grasp scene, sending
// to target, without triangle counts, and tables after; it returns the
// file's path.
func handConfig(t *testing.T, dir, hand, target, tables string) string {
	t.Helper()
	path := filepath.Join(dir, "gloved.toml")
	text := fmt.Sprintf(`
[[hand]]
name = "right"
%s
[scene]
files = [{ path = "builtin:grasp" }]
[osc]
listen = "127.0.0.1:0"
targets = [%q]
[frame]
count_tris = false
%s`, hand, target, tables)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestStartupFailuresSayWhatToDo: each way `gloved run` cannot start ends
// with one line naming what failed, exit code 2 for a config that is
// wrong and 1 for one that cannot run, and never a stack trace.
func TestStartupFailuresSayWhatToDo(t *testing.T) {
	busy, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	missing := filepath.Join(t.TempDir(), "nowhere.toml")
	tests := []struct {
		name   string
		config string
		code   int
		says   []string
	}{
		{"config file missing", missing, 2, []string{"nowhere.toml"}},
		{"config malformed", writeConfig(t, "127.0.0.1:0", "builtin:grasp", "[frame]\nbudget_ms = -1.0\n"), 2, []string{"frame.budget_ms"}},
		{"frame workers negative", writeConfig(t, "127.0.0.1:0", "builtin:grasp", "[frame]\nworkers = -2\n"), 2, []string{"frame.workers = -2", "want 0"}},
		{"hand contact depth out of range", writeConfig(t, "127.0.0.1:0", "builtin:grasp", "[hand_contact]\nmax_depth = 99\n"), 2, []string{"hand_contact.max_depth = 99", "want 0"}},
		{"OSC port in use", writeConfig(t, busy.LocalAddr().String(), "builtin:grasp", ""), 1, []string{"osc.listen", "in use", "choose a free port"}},
		{"scene file missing", writeConfig(t, "127.0.0.1:0", "no-such-scene.obj", ""), 2, []string{"no-such-scene.obj", "scene: "}},
		{"metrics port in use", writeConfig(t, "127.0.0.1:0", "builtin:grasp", fmt.Sprintf("[metrics]\nlisten = %q\n", busyTCP(t))), 1, []string{"metrics.listen", "in use"}},
		{"OSCQuery port in use", writeConfig(t, "127.0.0.1:0", "builtin:grasp", fmt.Sprintf("[oscquery]\nlisten = %q\n", busyTCP(t))), 1, []string{"oscquery.listen", "in use", "choose a free port"}},
		{"viewers out of range", writeConfig(t, "127.0.0.1:0", "builtin:grasp", "[view]\nlisten = \"127.0.0.1:0\"\nmax_viewers = 1000\n"), 2, []string{"view.max_viewers = 1000", "want 1 to 256"}},
		{"OSCQuery name", writeConfig(t, "127.0.0.1:0", "builtin:grasp", "[oscquery]\nname = \"lab glove\"\n"), 2, []string{`oscquery.name = "lab glove"`, "starting with gloved"}},
		{"contact method for an object the scene lacks", writeConfig(t, "127.0.0.1:0", "builtin:grasp", "[scene.methods]\nbowl = \"solid\"\n"), 2, []string{`scene.methods: "bowl" = "solid"`, "the scene has no such object: its objects are table and ball"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := runBinary(t, 20*time.Second, "run", "-c", tc.config, "--status=false", "--for", "3s")
			r.oneLine(t, tc.code, tc.says...)
		})
	}
}

// busyTCP returns a loopback TCP address something listens on until the
// test ends.
func busyTCP(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l.Addr().String()
}

// TestCheckRejectsWhatRunCannotStart: --check validates everything that
// can be validated without opening the glove, so a config it passes is
// one run can start.
func TestCheckRejectsWhatRunCannotStart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tests := []struct {
		name, config string
		says         []string
	}{
		{"listen port out of range", writeConfig(t, "127.0.0.1:70000", "builtin:grasp", ""), []string{"osc.listen", "70000"}},
		{"listen without a port", writeConfig(t, "127.0.0.1", "builtin:grasp", ""), []string{"osc.listen"}},
		{"target port out of range", writeConfig(t, "127.0.0.1:0", "builtin:grasp", "targets = [\"127.0.0.1:99999\"]\n"), []string{"osc.targets"}},
		{"metrics address", writeConfig(t, "127.0.0.1:0", "builtin:grasp", "[metrics]\nlisten = \"127.0.0.1:http-ish\"\n"), []string{"metrics.listen"}},
		{"OSCQuery address", writeConfig(t, "127.0.0.1:0", "builtin:grasp", "[oscquery]\nlisten = \"127.0.0.1:http-ish\"\n"), []string{"oscquery.listen"}},
		{"recording is a directory", writeConfig(t, "127.0.0.1:0", "builtin:grasp", "[[hand]]\nname = \"left\"\ndevice = \"sim\"\nrecording = "+fmt.Sprintf("%q", dir)+"\n"), []string{"hand[1] (left).recording", "is a directory"}},
		{"recording cannot be written", writeConfig(t, "127.0.0.1:0", "builtin:grasp", "[[hand]]\nname = \"left\"\ndevice = \"sim\"\nrecording = \"/proc/gloved.glove\"\n"), []string{"hand[1] (left).recording", "cannot write"}},
		{"skinned hand missing", writeConfig(t, "127.0.0.1:0", "builtin:grasp", "[[hand]]\nname = \"left\"\ndevice = \"sim\"\nmesh = \"no-such-hand.glb\"\n"), []string{"hand[1] (left).mesh", "no-such-hand.glb"}},
		{"skinned hand not glTF", writeConfig(t, "127.0.0.1:0", "builtin:grasp", "[[hand]]\nname = \"left\"\ndevice = \"sim\"\nmesh = "+fmt.Sprintf("%q", notGLTF(t))+"\n"), []string{"hand[1] (left).mesh", "not glTF"}},
		{"skinned hand without the WebXR joints", writeConfig(t, "127.0.0.1:0", "builtin:grasp", "[[hand]]\nname = \"left\"\ndevice = \"sim\"\nmesh = "+fmt.Sprintf("%q", webxrAbs(t))+"\njoints = { wrist = \"Hand_L\" }\n"), []string{"hand[1] (left).mesh", "Hand_L"}},
		{"joint table key not a WebXR joint", writeConfig(t, "127.0.0.1:0", "builtin:grasp", "[[hand]]\nname = \"left\"\ndevice = \"sim\"\nmesh = "+fmt.Sprintf("%q", webxrAbs(t))+"\njoints = { wirst = \"wrist\" }\n"), []string{`hand[1].joints.wirst = "wrist": "wirst" is not a WebXR joint name: the table's keys are (wrist, thumb-metacarpal,`}},
		{"joint table without a mesh", writeConfig(t, "127.0.0.1:0", "builtin:grasp", "[[hand]]\nname = \"left\"\ndevice = \"sim\"\njoints = { wrist = \"Hand_L\" }\n"), []string{"hand[1].joints", "set mesh"}},
		{"options for a driver without any", writeConfig(t, "127.0.0.1:0", "builtin:grasp", "[[hand]]\nname = \"left\"\ndevice = \"sim\"\n[hand.options]\nwave = 3\n"), []string{"hand[1].options: unknown key wave", "the sim driver has no options"}},
		{"convex named for a flat object", writeConfig(t, "127.0.0.1:0", wallOBJ(t), "[scene.methods]\nwall = \"convex\"\n"), []string{`scene.methods: "wall" = "convex"`, "no convex hull", "name the method surface"}},
		{"contact method unknown", writeConfig(t, "127.0.0.1:0", "builtin:grasp", "[scene.methods]\nball = \"sdf\"\n"), []string{`scene.methods: "ball" = "sdf"`, "no such contact method: want convex, solid or surface"}},
		{"calibration missing", writeConfig(t, "127.0.0.1:0", "builtin:grasp", "[[hand]]\nname = \"left\"\ndevice = \"cyberglove\"\nport = \"/dev/null-glove\"\ncalibration = \"no-such-cal.toml\"\n"), []string{"hand[1] (left).calibration", "no-such-cal.toml"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := runBinary(t, 20*time.Second, "run", "-c", tc.config, "--check")
			r.oneLine(t, 2, tc.says...)
		})
	}
	for _, extra := range []string{"", "[scene.methods]\nball = \"surface\"\ntable = \"solid\"\n"} {
		ok := runBinary(t, 20*time.Second, "run", "-c", writeConfig(t, "127.0.0.1:0", "builtin:grasp", extra), "--check")
		if ok.code != 0 || !strings.Contains(ok.stdout, "config ok") {
			t.Fatalf("a good config %q: exit %d, %s %s", extra, ok.code, ok.stdout, ok.stderr)
		}
	}
}

// TestCheckTriesWhereTheConfigListens: --check binds each address the
// config listens on and lets it go. One that is not this machine's cannot
// run anywhere: exit 2, naming the key, at --check and at start alike. A port in use passes with a note
// (the gloved running the config holds its own ports while it is checked
// for a reload), as does an OSCQuery interface that is missing, which run
// only warns of.
func TestCheckTriesWhereTheConfigListens(t *testing.T) {
	t.Parallel()
	busy := busyTCP(t)
	for _, tc := range []struct {
		name, listen, extra string
		says                []string
	}{
		{"OSC on an address not this machine's", "192.0.2.1:19483", "", []string{`osc.listen = "192.0.2.1:19483"`, "cannot listen there", "give an address of this machine"}},
		{"page on an address not this machine's", "127.0.0.1:0", "[view]\nlisten = \"192.0.2.1:19484\"\n", []string{`view.listen = "192.0.2.1:19484"`, "cannot listen there"}},
	} {
		cfg := writeConfig(t, tc.listen, "builtin:grasp", tc.extra)
		runBinary(t, 20*time.Second, "run", "-c", cfg, "--check").oneLine(t, 2, tc.says...)
		runBinary(t, 20*time.Second, "run", "-c", cfg, "--for", "3s", "--status=false").oneLine(t, 2, append(tc.says, "config: "+cfg)...)
	}
	for _, tc := range []struct {
		name, extra, note string
	}{
		{"page on a port in use", fmt.Sprintf("[view]\nlisten = %q\n", busy), fmt.Sprintf("view.listen = %q is in use now", busy)},
		{"metrics on a port in use", fmt.Sprintf("[metrics]\nlisten = %q\n", busy), fmt.Sprintf("metrics.listen = %q is in use now", busy)},
		{"OSCQuery on a port in use", fmt.Sprintf("[oscquery]\nlisten = %q\n", busy), fmt.Sprintf("oscquery.listen = %q is in use now", busy)},
		{"OSCQuery on a missing interface", "[oscquery]\ninterfaces = [\"nosuchif0\"]\n", "oscquery.interfaces: no network interface nosuchif0"},
	} {
		r := runBinary(t, 20*time.Second, "run", "-c", writeConfig(t, "127.0.0.1:0", "builtin:grasp", tc.extra), "--check")
		if r.code != 0 || !strings.Contains(r.stdout, "config ok") || !strings.Contains(r.stderr, tc.note) || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q: want config ok and the one note %q", tc.name, r.code, r.stdout, r.stderr, tc.note)
		}
	}
}

// wallOBJ returns an OBJ file of one open quad, the object "wall".
func wallOBJ(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "wall.obj")
	text := "o wall\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3\nf 1 3 4\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// notGLTF returns a file that is not glTF.
func notGLTF(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "hand.glb")
	if err := os.WriteFile(path, []byte("not a hand\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// webxrAbs is the WebXR right hand's absolute path.
func webxrAbs(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs(webxrRight)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRecordWithoutAGloveSaysWhatToDo: recording from a glove that is not
// there ends with one line naming the port and what to check.
func TestRecordWithoutAGloveSaysWhatToDo(t *testing.T) {
	port := filepath.Join(t.TempDir(), "ttyUSB9")
	r := runBinary(t, 20*time.Second, "record", "--device", "cyberglove", "--port", port, "--seconds", "1", "-o", filepath.Join(t.TempDir(), "x.glove"))
	r.oneLine(t, 1, port, "plugged in")
}

// TestBadSceneFilesSayWhatIsWrong: a truncated STL and a glTF that claims
// more data than it holds end with one line naming the file and the fault,
// quickly and without running out of memory.
func TestBadSceneFilesSayWhatIsWrong(t *testing.T) {
	dir := t.TempDir()
	stl, err := os.ReadFile("../../testdata/scenes/cube_binary.stl")
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "cut.stl")
	os.WriteFile(cut, stl[:len(stl)-30], 0o644)
	huge := filepath.Join(dir, "huge.gltf")
	os.WriteFile(huge, []byte(`{"asset":{"version":"2.0"},"buffers":[{"byteLength":12,"uri":"data:application/octet-stream;base64,AAAAAAAAAAAAAAAA"}],`+
		`"bufferViews":[{"buffer":0,"byteLength":12}],"accessors":[{"bufferView":0,"componentType":5126,"count":2147483647,"type":"VEC3"}],`+
		`"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],"nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}]}`), 0o644)
	for _, tc := range []struct {
		file string
		says []string
	}{
		{cut, []string{"cut.stl", "truncated binary STL"}},
		{huge, []string{"huge.gltf", "2147483647"}},
	} {
		r := runBinary(t, 20*time.Second, "contacts", "--scene", tc.file, "--sim", "--frames", "1")
		r.oneLine(t, 1, tc.says...)
		r = runBinary(t, 20*time.Second, "run", "-c", writeConfig(t, "127.0.0.1:0", tc.file, ""), "--check")
		r.oneLine(t, 2, tc.says...)
	}
}

// TestAScenePlacedBeyondAThousandKilometresIsRefused: a vertex at 1e39,
// 1e160 or 1e303 (finite in a float64) in an OBJ, an ASCII STL at 1e38,
// and a glTF whose node scales its crate by 1e30 are refused by
// contacts, --check and run, in one line naming the file, the vertex and
// the bound (env.MaxCoordinate); before, --check passed them and the page
// showed no scene (json: unsupported value: -Inf). A vertex at the bound
// passes.
func TestAScenePlacedBeyondAThousandKilometresIsRefused(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	crate, err := os.ReadFile("../../testdata/scenes/crate.gltf")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(crate, &doc); err != nil {
		t.Fatal(err)
	}
	doc["nodes"].([]any)[0].(map[string]any)["scale"] = []float64{1e30, 1e30, 1e30}
	scaled, _ := json.Marshal(doc)
	os.WriteFile(filepath.Join(dir, "far.gltf"), scaled, 0o644)
	for _, tc := range []struct{ file, vertex string }{
		{write("far39.obj", "v 0 0 0\nv 1 0 0\nv 0 1e39 0\nf 1 2 3\n"), "vertex 3"},
		{write("far160.obj", "v 1e160 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"), "vertex 1"},
		{write("far303.obj", "v 0 0 0\nv 1 0 -1e303\nv 0 1 0\nf 1 2 3\n"), "vertex 2"},
		{write("far.stl", "solid far\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1e38 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid far\n"), "vertex 2"},
		{filepath.Join(dir, "far.gltf"), "vertex "},
	} {
		says := []string{filepath.Base(tc.file), tc.vertex, "beyond ±1e+06 m (env.MaxCoordinate)"}
		runBinary(t, 20*time.Second, "contacts", "--scene", tc.file, "--sim", "--frames", "1").oneLine(t, 1, says...)
		cfg := writeConfig(t, "127.0.0.1:0", tc.file, "")
		runBinary(t, 20*time.Second, "run", "-c", cfg, "--check").oneLine(t, 2, says...)
		runBinary(t, 20*time.Second, "run", "-c", cfg).oneLine(t, 2, says...)
	}
	edge := write("edge.obj", "v 0 0 0\nv 1e6 0 0\nv 0 -1e6 0\nf 1 2 3\n")
	if r := runBinary(t, 20*time.Second, "run", "-c", writeConfig(t, "127.0.0.1:0", edge, ""), "--check"); r.code != 0 {
		t.Errorf("a vertex at the bound refused: %s", r.stderr)
	}
}

// TestHelpIsNotAnError: -h prints the usage and exits 0, for commands and
// for bench.
func TestHelpIsNotAnError(t *testing.T) {
	for _, args := range [][]string{{"contacts", "-h"}, {"bench", "-h"}, {"bench", "pipeline", "-h"}, {"help"}} {
		r := runBinary(t, 20*time.Second, args...)
		if r.code != 0 || strings.Contains(r.stderr, "gloved:") || !strings.Contains(r.stdout+r.stderr, "usage") && args[0] != "help" {
			t.Errorf("%v: exit %d\nstdout %s\nstderr %s", args, r.code, r.stdout, r.stderr)
		}
	}
}

// TestTheShippedGloveConfigChecksWhereverItIsCopied: the README's way to
// a real glove is to copy configs/cyberglove.toml and set its port; the
// copy, anywhere, passes --check (its scene is built in, not a path
// beside the repository).
func TestTheShippedGloveConfigChecksWhereverItIsCopied(t *testing.T) {
	text, err := os.ReadFile("../../configs/cyberglove.toml")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "my.toml")
	if err := os.WriteFile(path, text, 0o644); err != nil {
		t.Fatal(err)
	}
	r := runBinary(t, 20*time.Second, "run", "-c", path, "--check")
	if r.code != 0 || !strings.Contains(r.stdout, "config ok") {
		t.Fatalf("exit %d: %s %s", r.code, r.stdout, r.stderr)
	}
}
