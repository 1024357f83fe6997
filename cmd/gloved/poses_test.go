package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	goosc "github.com/hypebeast/go-osc/osc"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/recording"
)

// TestPosesAndScalesBeyondTheirBoundsAreRefusedByCheckAndRun: a config's
// wrist pose (either key) or scene placement farther than 100 m along an
// axis, a zero quaternion or one shorter than 1e-9 (not called zero), a scene scale outside 1e-6 to 1e6 (0 too), and
// an osc.wrist_box reaching beyond 100 m end `run --check` and `run` with
// one line naming the key and what is wrong, exit code 2.
func TestPosesAndScalesBeyondTheirBoundsAreRefusedByCheckAndRun(t *testing.T) {
	beyond := "the position (1e+300, 0, 0) is beyond 100 m from the origin along an axis"
	zero := "the rotation quaternion is zero, which is no rotation: give a unit quaternion"
	scale := "want 1e-06 to 1e+06"
	for _, tc := range []struct {
		name, hand, scene, osc string
		says                   []string
	}{
		{"wrist_pose far away", "wrist_pose = [1e300, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]", `path = "builtin:grasp"`, "", []string{"hand[0].wrist_pose: " + beyond}},
		{"old wrist far away", "wrist = [1.0, 0.0, 0.0, 0.0, 1e300, 0.0, 0.0]", `path = "builtin:grasp"`, "", []string{"hand[0].wrist: " + beyond}},
		{"wrist_pose of a zero quaternion", "wrist_pose = [0.0, 0.91, 0.1, 0.0, 0.0, 0.0, 0.0]", `path = "builtin:grasp"`, "", []string{"hand[0].wrist_pose: " + zero}},
		{"wrist_pose of a tiny quaternion", "wrist_pose = [0.0, 0.0, 0.0, 1e-38, 0.0, 0.0, 0.0]", `path = "builtin:grasp"`, "", []string{"hand[0].wrist_pose: the rotation quaternion's length 1e-38 is below 1e-9 (geom.MinQuatLen), too short to say a rotation"}},
		{"scene scale huge", "", `path = "builtin:grasp", scale = 1e300`, "", []string{"scene.files[0].scale = 1e+300: " + scale}},
		{"scene scale tiny", "", `path = "builtin:grasp", scale = 1e-300`, "", []string{"scene.files[0].scale = 1e-300: " + scale}},
		{"scene scale zero", "", `path = "builtin:grasp", scale = 0.0`, "", []string{"scene.files[0].scale = 0: " + scale}},
		{"scene pose far away", "", `path = "builtin:grasp", pose = [1e300, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]`, "", []string{"scene.files[0].pose: " + beyond}},
		{"old scene transform of a zero quaternion", "", `path = "builtin:grasp", transform = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]`, "", []string{"scene.files[0].transform: " + zero}},
		{"wrist box far away", "", `path = "builtin:grasp"`, "wrist_box = [-1e300, -5.0, -5.0, 5.0, 5.0, 5.0]", []string{"osc.wrist_box = [-1e+300 -5 -5 5 5 5]", "within ±100 m"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "gloved.toml")
			text := fmt.Sprintf("[[hand]]\nname = \"right\"\ndevice = \"sim\"\n%s\n[scene]\nfiles = [{ %s }]\n[osc]\nlisten = \"127.0.0.1:0\"\ntargets = []\n%s\n", tc.hand, tc.scene, tc.osc)
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			runBinary(t, 20*time.Second, "run", "-c", path, "--check").oneLine(t, 2, tc.says...)
			runBinary(t, 20*time.Second, "run", "-c", path, "--status=false", "--for", "3s").oneLine(t, 2, tc.says...)
		})
	}
}

// TestPoseFlagsRefuseWhatIsOutOfBounds: --wrist-pose, --place-b and their
// old forms --wrist and --pose-b refuse a position beyond 100 m or a zero
// quaternion with one line naming the flag, exit code 2, in every command
// that takes them; both forms at once are refused too.
func TestPoseFlagsRefuseWhatIsOutOfBounds(t *testing.T) {
	beyond := "the position (1e+300, 0, 0) is beyond 100 m from the origin along an axis"
	zero := "the rotation quaternion is zero"
	rec := filepath.Join(t.TempDir(), "rec.glove")
	grasp := "../../testdata/scenes/grasp.obj"
	for _, tc := range []struct {
		args []string
		says []string
	}{
		{[]string{"contacts", "--scene", "builtin:grasp", "--sim", "--frames", "1", "--wrist-pose", "1e300 0 0 0 0 0 1"}, []string{"--wrist-pose: " + beyond}},
		{[]string{"contacts", "--scene", "builtin:grasp", "--sim", "--frames", "1", "--wrist", "1 0 0 0 1e300 0 0"}, []string{"--wrist: " + beyond}},
		{[]string{"contacts", "--scene", "builtin:grasp", "--sim", "--frames", "1", "--wrist-pose", "0 0.9 0.1 0 0 0 0"}, []string{"--wrist-pose: " + zero}},
		{[]string{"contacts", "--scene", "builtin:grasp", "--sim", "--frames", "1", "--wrist-pose", graspWrist, "--wrist", "1 0 0 0 0 0 0"}, []string{"--wrist and --wrist-pose: give the pose once, as --wrist-pose"}},
		{[]string{"export", "--scene", "builtin:grasp", "--sim", "--frames", "1", "--gltf", filepath.Join(t.TempDir(), "x.glb"), "--wrist-pose", "1e300 0 0 0 0 0 1"}, []string{"--wrist-pose: " + beyond}},
		{[]string{"record", "--device", "sim", "--seconds", "0.1", "-o", rec, "--wrist-pose", "1e300 0 0 0 0 0 1"}, []string{"--wrist-pose: " + beyond}},
		{[]string{"record", "--device", "sim", "--seconds", "0.1", "-o", rec, "--wrist", "0 0 0 0 0 0.9 0.1"}, []string{"--wrist: " + zero}},
		{[]string{"replay", "../../testdata/recordings/grasp.glove", "--wrist-pose", "1e300 0 0 0 0 0 1"}, []string{"--wrist-pose: " + beyond}},
		{[]string{"collide", grasp, grasp, "--place-b", "1e300 0 0 0 0 0 1"}, []string{"--place-b: " + beyond}},
		{[]string{"collide", grasp, grasp, "--pose-b", "0 0 0 0 0 0 0"}, []string{"--pose-b: " + zero}},
	} {
		runBinary(t, 20*time.Second, tc.args...).oneLine(t, 2, tc.says...)
	}
	if _, err := os.Stat(rec); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused record left %s (%v)", rec, err)
	}
}

// TestOldPoseFlagsWarnWithTheNewForm: --wrist and --pose-b, rotation
// first, still place the wrist and B as --wrist-pose and --place-b place
// them given the same pose position first, with one warning line that
// gives the new flag to write.
func TestOldPoseFlagsWarnWithTheNewForm(t *testing.T) {
	contacts := []string{"contacts", "--scene", "builtin:grasp", "--sim", "--frames", "120", "--json"}
	old := runBinary(t, 30*time.Second, append(contacts, "--wrist", "0.70710678 -0.70710678 0 0 0 0.91 0.10")...)
	written := runBinary(t, 30*time.Second, append(contacts, "--wrist-pose", graspWrist)...)
	says := `gloved: warning: --wrist "0.70710678 -0.70710678 0 0 0 0.91 0.10" is the old order, qw qx qy qz tx ty tz: ` +
		`write --wrist-pose "0 0.91 0.1 -0.70710678 0 0 0.70710678" (tx ty tz qx qy qz qw, as the OSC wrist message)` + "\n"
	if old.code != 0 || old.stderr != says {
		t.Errorf("--wrist: exit %d, stderr %q; want the one warning %q", old.code, old.stderr, says)
	}
	if written.code != 0 || written.stderr != "" || written.stdout != old.stdout || !strings.Contains(written.stdout, `"object":"ball"`) {
		t.Errorf("--wrist-pose: exit %d, stderr %q; want the frames --wrist gave, the ball touched", written.code, written.stderr)
	}

	a, b := "../../testdata/scenes/two_objects.obj", "../../testdata/scenes/cube_binary.stl"
	old = runBinary(t, 30*time.Second, "collide", a, b, "--json", "--pose-b", "0.9 0.1 0.3 0.2 3 -0.5 1.5")
	written = runBinary(t, 30*time.Second, "collide", a, b, "--json", "--place-b", "3 -0.5 1.5 0.1 0.3 0.2 0.9")
	var o, w collideJSON
	json.Unmarshal([]byte(old.stdout), &o)
	json.Unmarshal([]byte(written.stdout), &w)
	if old.code != 0 || !strings.Contains(old.stderr, `write --place-b "3 -0.5 1.5 0.1 0.3 0.2 0.9"`) || strings.Count(old.stderr, "\n") != 1 {
		t.Errorf("--pose-b: exit %d, stderr %q; want one warning giving --place-b", old.code, old.stderr)
	}
	if written.code != 0 || written.stderr != "" || len(w.Pairs) == 0 || fmt.Sprint(w.Pairs) != fmt.Sprint(o.Pairs) {
		t.Errorf("--place-b: exit %d, stderr %q, pairs %v; want those of --pose-b, %v", written.code, written.stderr, w.Pairs, o.Pairs)
	}
}

// TestTheOldSceneTransformPlacesAsPoseDoesWithAWarning: a scene file's
// transform, rotation first, places it where pose does given the same
// placement position first (the hands' contacts with it are the same, and
// not those of the scene unmoved), with one warning line giving the pose
// to write; pose itself says nothing.
func TestTheOldSceneTransformPlacesAsPoseDoesWithAWarning(t *testing.T) {
	t.Parallel()
	hands := func(placement string) string {
		path := filepath.Join(t.TempDir(), "hands.toml")
		text := fmt.Sprintf("[[hand]]\nname = \"right\"\ndevice = \"sim\"\nwrist_pose = [0.0, 0.91, 0.1, -0.70710678, 0.0, 0.0, 0.70710678]\n"+
			"[[hand]]\nname = \"left\"\ndevice = \"sim\"\nside = \"left\"\nwrist_pose = [0.5, 0.91, 0.1, -0.70710678, 0.0, 0.0, 0.70710678]\n"+
			"[scene]\nfiles = [{ path = \"builtin:grasp\"%s }]\n", placement)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	oldPath := hands(", transform = [0.99619470, 0.0, 0.08715574, 0.0, 0.0, 0.0, 0.015]")
	old := runBinary(t, 60*time.Second, "contacts", "--hands", oldPath, "--frames", "60")
	written := runBinary(t, 60*time.Second, "contacts", "--hands", hands(", pose = [0.0, 0.0, 0.015, 0.0, 0.08715574, 0.0, 0.9961947]"), "--frames", "60")
	unmoved := runBinary(t, 60*time.Second, "contacts", "--hands", hands(""), "--frames", "60")
	says := "gloved: warning: " + oldPath + ": scene.files[0].transform = [0.9961947, 0.0, 0.08715574, 0.0, 0.0, 0.0, 0.015] is the old order, qw qx qy qz tx ty tz: " +
		"write pose = [0.0, 0.0, 0.015, 0.0, 0.08715574, 0.0, 0.9961947] (tx ty tz qx qy qz qw, as the OSC wrist message)\n"
	if old.code != 0 || old.stderr != says {
		t.Errorf("transform: exit %d, stderr %q; want the one warning %q", old.code, old.stderr, says)
	}
	if written.code != 0 || written.stderr != "" || written.stdout != old.stdout {
		t.Errorf("pose: exit %d, stderr %q; want the frames transform gave", written.code, written.stderr)
	}
	if unmoved.code != 0 || unmoved.stdout == written.stdout || !strings.Contains(unmoved.stdout, `"ball"`) {
		t.Errorf("the placement changed nothing: exit %d, stderr %q", unmoved.code, unmoved.stderr)
	}
}

// TestARecordingsDamagedWristPosesAreSkippedAndSaid: wrist poses in a
// recording that make no pose (a position of 1e300 m, a zero quaternion)
// are never used, the wrist kept as it was: `gloved contacts` answers what
// it answers without them and says how many it skipped and why the first,
// in one warning line; the daemon replaying it logs the first.
func TestARecordingsDamagedWristPosesAreSkippedAndSaid(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good, bad := filepath.Join(dir, "good.glove"), filepath.Join(dir, "bad.glove")
	if r := runBinary(t, 30*time.Second, "record", "--device", "sim", "--seconds", "1.2", "--wrist-pose", graspWrist, "-o", good); r.code != 0 {
		t.Fatalf("record: exit %d: %s", r.code, r.stderr)
	}
	offset := copyRecording(t, good, bad, map[int][7]float64{
		5:  {1, 0, 0, 0, 1e300, 0, 0},
		10: {0, 0, 0, 0, 0, 0.91, 0.1},
	})
	contacts := []string{"contacts", "--scene", "builtin:grasp", "--json", "--recording"}
	want := runBinary(t, 30*time.Second, append(contacts, good)...)
	got := runBinary(t, 30*time.Second, append(contacts, bad)...)
	says := fmt.Sprintf("gloved: warning: %s: 2 damaged wrist poses skipped, the wrist kept as it was (the first: the wrist pose at byte %d: "+
		"the position (1e+300, 0, 0) is beyond 100 m from the origin along an axis: give metres, each within ±100)\n", bad, offset)
	if want.code != 0 || want.stderr != "" || got.code != 0 || got.stderr != says {
		t.Fatalf("exit %d, stderr %q; want exit 0 and %q", got.code, got.stderr, says)
	}
	if got.stdout != want.stdout || !strings.Contains(got.stdout, `"object":"ball"`) {
		t.Errorf("the damaged wrist poses changed the contacts:\n%.300s\nwant\n%.300s", got.stdout, want.stdout)
	}
	config := rightHandConfig(t, fmt.Sprintf("device = \"replay\"\nrecording = %q\n", bad), "127.0.0.1:0", "")
	r := runBinary(t, 30*time.Second, "run", "-c", config, "--status=false", "--for", "2s")
	if r.code != 0 || strings.Count(r.stderr, "damaged wrist pose") != 1 || !strings.Contains(r.stderr, "is beyond 100 m") {
		t.Errorf("run: exit %d, want the first damaged wrist pose logged once:\n%s", r.code, r.stderr)
	}
}

// copyRecording copies the recording src to dst, writing after the Nth
// sample (from 1) the wrist pose insert[N], rotation first as recordings
// keep it; it returns the byte offset of the first pose inserted.
func copyRecording(t *testing.T, src, dst string, insert map[int][7]float64) int64 {
	t.Helper()
	writeRecording(t, src, dst, insert)
	in, err := recording.Open(dst)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	for first := insert[slices.Min(slices.Collect(maps.Keys(insert)))]; ; {
		rec, err := in.Next()
		if err != nil {
			t.Fatalf("the pose inserted is not in %s: %v", dst, err)
		}
		if pose, _ := recording.DecodeWrist(rec.Payload); rec.Kind == recording.KindWrist && pose == first {
			return rec.Offset
		}
	}
}

// writeRecording is copyRecording's copy.
func writeRecording(t *testing.T, src, dst string, insert map[int][7]float64) {
	t.Helper()
	in, err := recording.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := recording.Create(dst, in.Header)
	if err != nil {
		t.Fatal(err)
	}
	samples := 0
	for {
		rec, err := in.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		switch rec.Kind {
		case recording.KindSample:
			var s devices.Sample
			if err := recording.DecodeSample(rec.Payload, &s); err != nil {
				t.Fatal(err)
			}
			s.Time = rec.Time
			out.WriteSample(&s)
			samples++
			if pose, ok := insert[samples]; ok {
				out.WriteWrist(rec.Time, pose)
			}
		case recording.KindWrist:
			pose, err := recording.DecodeWrist(rec.Payload)
			if err != nil {
				t.Fatal(err)
			}
			out.WriteWrist(rec.Time, pose)
		default:
			t.Fatalf("a record of kind %c in a simulation's recording", rec.Kind)
		}
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestAGLTFNodeWhoseScaleOverflowsSaysSo: a glTF scene whose nested node
// scales multiply beyond a float64, or whose node's scale carries a
// vertex beyond it, is refused with one line naming the node (or the
// vertex) and the overflow, not a NaN position.
func TestAGLTFNodeWhoseScaleOverflowsSaysSo(t *testing.T) {
	nested := crateWith(t, "nested.gltf", func(nodes []any) {
		for _, n := range nodes {
			n.(map[string]any)["scale"] = []float64{1e200, 1e200, 1e200}
		}
	})
	turned := crateWith(t, "turned.gltf", func(nodes []any) {
		n := nodes[0].(map[string]any)
		delete(n, "children")
		n["scale"] = []float64{1.5e308, 1.5e308, 1.5e308}
		n["rotation"] = []float64{0, 0, 0.38268343, 0.92387953} // 45° about z: y' = s (x + y) / √2
	})
	for _, tc := range []struct {
		file string
		says []string
	}{
		{nested, []string{"nested.gltf", `node 1 "lid": its transform, with its ancestors', overflows a float64: a scale, translation or matrix too large`}},
		{turned, []string{"turned.gltf", `node 0 "crate" primitive 0: POSITION 2 [1 1 0]: placed by its node's transform, with its ancestors', it overflows a float64`}},
	} {
		r := runBinary(t, 20*time.Second, "contacts", "--scene", tc.file, "--sim", "--frames", "1")
		r.oneLine(t, 1, tc.says...)
		if strings.Contains(r.stderr, "NaN") {
			t.Errorf("%q speaks of NaN", r.stderr)
		}
		runBinary(t, 20*time.Second, "run", "-c", writeConfig(t, "127.0.0.1:0", tc.file, ""), "--check").oneLine(t, 2, tc.says...)
	}
}

// crateWith writes testdata's crate.gltf with its nodes changed by edit
// to a file named name, and returns its path.
func crateWith(t *testing.T, name string, edit func(nodes []any)) string {
	t.Helper()
	var doc map[string]any
	text, err := os.ReadFile("../../testdata/scenes/crate.gltf")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(text, &doc); err != nil {
		t.Fatal(err)
	}
	edit(doc["nodes"].([]any))
	path := filepath.Join(t.TempDir(), name)
	text, _ = json.Marshal(doc)
	if err := os.WriteFile(path, text, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestAZeroQuaternionOverOSCIsLoggedAsSuch: the daemon's log line for a
// wrist pose dropped for its zero quaternion says that, not a list of
// what might have been wrong.
func TestAZeroQuaternionOverOSCIsLoggedAsSuch(t *testing.T) {
	t.Parallel()
	listen := freeUDP(t)
	p := startGloved(t, "gloved run", "run", "-c", writeConfig(t, listen, "builtin:grasp", ""), "--status=false")
	conn, err := net.Dial("udp", listen)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	msg, _ := goosc.NewMessage("/gloved/right/wrist", float32(0), float32(0.91), float32(0.1), float32(0), float32(0), float32(0), float32(0)).MarshalBinary()
	says := "wrist pose dropped: the rotation quaternion (x y z w) is zero, which is no rotation: send a unit quaternion, 0 0 0 1 for none"
	for deadline := time.Now().Add(15 * time.Second); !strings.Contains(p.errs.String(), says); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the log never said %q:\n%s", says, p.errs.String())
		}
		conn.Write(msg)
	}
	if strings.Contains(p.errs.String(), "not finite") || strings.Contains(p.errs.String(), "outside") {
		t.Errorf("the log names other faults:\n%s", p.errs.String())
	}
}
