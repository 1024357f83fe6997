package daemon

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gloved/gloved/configs"
	"github.com/gloved/gloved/osc"
)

func TestShippedConfigsParse(t *testing.T) {
	hands := map[string]int{"demo.toml": 1, "cyberglove.toml": 1, "replay.toml": 1, "handshake.toml": 2}
	for name, n := range hands {
		text, err := configs.Files.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		c, err := ParseConfig("../configs/"+name, text)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(c.Hands) != n || c.OSC.Prefix != "/gloved" || c.OSC.Listen != osc.DefaultListen {
			t.Errorf("%s: %+v", name, c)
		}
		if len(c.Warnings) > 0 {
			t.Errorf("%s: warnings %q: the shipped configs are written as they are to be written", name, c.Warnings)
		}
	}
}

func TestConfigErrorsNameTheKey(t *testing.T) {
	base := simOnTheBuiltinScene
	tests := []struct {
		name, text, says string
	}{
		{"unknown key", base + "[frame]\nbudget = 3\n", "unknown key frame.budget"},
		{"unknown section key", strings.Replace(base, `device = "sim"`, "device = \"sim\"\nvelocity = 2", 1), "unknown key hand.velocity"},
		{"syntax", base + "[frame\n", "line 6"},
		{"no hand", `[scene]`, "no [[hand]]"},
		{"device", strings.Replace(base, `"sim"`, `"glove9000"`, 1), `hand[0].device = "glove9000"`},
		{"cyberglove port", strings.Replace(base, `"sim"`, `"cyberglove"`, 1), "hand[0].port"},
		{"replay file", strings.Replace(base, `"sim"`, `"replay"`, 1), "hand[0].recording"},
		{"sensors", strings.Replace(base, `device = "sim"`, "device = \"sim\"\nsensors = 20", 1), "hand[0].sensors = 20"},
		{"name", strings.Replace(base, `"right"`, `"my hand"`, 1), `hand[0].name = "my hand"`},
		{"duplicate name", base + "[[hand]]\nname = \"right\"\ndevice = \"sim\"\n", `hand[1].name = "right": used by another hand`},
		{"wrist", strings.Replace(base, `device = "sim"`, "device = \"sim\"\nwrist = [1, 0, 0]", 1), "hand[0].wrist: want 7 numbers"},
		{"zero quaternion", strings.Replace(base, `device = "sim"`, "device = \"sim\"\nwrist = [0, 0, 0, 0, 1, 2, 3]", 1), "hand[0].wrist: the rotation quaternion is zero"},
		{"wrist beyond", strings.Replace(base, `device = "sim"`, "device = \"sim\"\nwrist_pose = [1e300, 0, 0, 0, 0, 0, 1]", 1), "hand[0].wrist_pose: the position (1e+300, 0, 0) is beyond 100 m"},
		{"wrist pose", strings.Replace(base, `device = "sim"`, "device = \"sim\"\nwrist_pose = [1, 0, 0]", 1), "hand[0].wrist_pose: want 7 numbers (tx ty tz qx qy qz qw"},
		{"wrist twice", strings.Replace(base, `device = "sim"`, "device = \"sim\"\nwrist_pose = [0, 1, 0, 0, 0, 0, 1]\nwrist = [1, 0, 0, 0, 0, 1, 0]", 1), "hand[0].wrist and wrist_pose: give the pose once"},
		{"motion", strings.Replace(base, `device = "sim"`, "device = \"sim\"\nmotion = \"wave\"", 1), `hand[0].motion = "wave"`},
		{"scene up", strings.Replace(base, `path = "builtin:grasp"`, `path = "x.obj", up = "x"`, 1), `scene.files[0].up = "x"`},
		{"scene scale", strings.Replace(base, `path = "builtin:grasp"`, `path = "x.obj", scale = -2.0`, 1), "scene.files[0].scale = -2"},
		{"scene scale zero", strings.Replace(base, `path = "builtin:grasp"`, `path = "x.obj", scale = 0.0`, 1), "scene.files[0].scale = 0: want 1e-06 to 1e+06"},
		{"scene pose and transform", strings.Replace(base, `path = "builtin:grasp"`, `path = "x.obj", pose = [0, 0, 0, 0, 0, 0, 1], transform = [1, 0, 0, 0, 0, 0, 0]`, 1), "scene.files[0].pose and transform: give the placement once, as pose"},
		{"prefix", base + "[osc]\nprefix = \"gloved\"\n", `osc.prefix = "gloved"`},
		{"budget", base + "[frame]\nbudget_ms = -1.0\n", "frame.budget_ms = -1"},
		{"proximity", base + "[frame]\nproximity_m = 5.0\n", "frame.proximity_m = 5"},
		{"workers", base + "[frame]\nworkers = -1\n", "frame.workers = -1"},
		{"hand max depth", base + "[hand_contact]\nmax_depth = -1\n", "hand_contact.max_depth = -1"},
		{"feedback pulse", base + "[feedback]\npulse_ms = 5000.0\n", "feedback.pulse_ms = 5000: want 1 to 2000"},
		{"hand contact key", base + "[hand_contact]\ndepth = 3\n", "unknown key hand_contact.depth"},
		{"level", base + "[log]\nlevel = \"loud\"\n", `log.level = "loud"`},
		{"format", base + "[log]\nformat = \"xml\"\n", `log.format = "xml"`},
		{"type", strings.Replace(base, `device = "sim"`, "device = \"sim\"\nbaud = \"fast\"", 1), "baud"},
	}
	for _, tc := range tests {
		_, err := ParseConfig("lab.toml", []byte(tc.text))
		if err == nil || !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "lab.toml") || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: got %v, want a config error naming lab.toml and saying %q", tc.name, err, tc.says)
		}
	}
}

// TestTheOldWristIsReadWithAWarning: a hand's wrist in the old order, qw
// qx qy qz tx ty tz, places the hand as the same pose in wrist_pose's
// order, tx ty tz qx qy qz qw, does; the old form is warned of once,
// naming the wrist_pose to write, and the new form is not.
func TestTheOldWristIsReadWithAWarning(t *testing.T) {
	withWrist := func(key string) string {
		return strings.Replace(simOnTheBuiltinScene, `device = "sim"`, "device = \"sim\"\n"+key, 1)
	}
	old, err := ParseConfig("lab.toml", []byte(withWrist("wrist = [0.70710678, -0.70710678, 0.0, 0.0, 0.0, 0.91, 0.10]")))
	if err != nil {
		t.Fatal(err)
	}
	written, err := ParseConfig("lab.toml", []byte(withWrist("wrist_pose = [0.0, 0.91, 0.1, -0.70710678, 0.0, 0.0, 0.70710678]")))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := old.Spec(0).Wrist, written.Spec(0).Wrist; !slices.Equal(got, want) {
		t.Errorf("the old form gives the wrist %v, wrist_pose %v", got, want)
	}
	want := "lab.toml: hand[0].wrist = [0.70710678, -0.70710678, 0.0, 0.0, 0.0, 0.91, 0.1] is the old order, qw qx qy qz tx ty tz: " +
		"write wrist_pose = [0.0, 0.91, 0.1, -0.70710678, 0.0, 0.0, 0.70710678] (tx ty tz qx qy qz qw, as the OSC wrist message)"
	if len(old.Warnings) != 1 || old.Warnings[0] != want {
		t.Errorf("the old form's warnings: got %q, want [%q]", old.Warnings, want)
	}
	if len(written.Warnings) != 0 {
		t.Errorf("wrist_pose warned: %q", written.Warnings)
	}
}

// TestProfileConfigErrorsNameTheKey: each bad [[osc.profile]] value is one
// line naming its key and what to want.
func TestProfileConfigErrorsNameTheKey(t *testing.T) {
	base := `
[[hand]]
name = "right"
device = "sim"
[[hand]]
name = "left"
device = "sim"
side = "left"
[osc]
targets = ["127.0.0.1:9430"]
`
	profile := func(body string) string {
		return base + "[[osc.profile]]\nname = \"openxr\"\ntargets = [\"127.0.0.1:9500\"]\n[[osc.profile]]\n" + body + "\n"
	}
	tests := []struct {
		name, text, says string
	}{
		{"unknown profile", profile(`name = "mocap"`), `osc.profile[1].name = "mocap": want gloved, openxr, `},
		{"no targets", profile(`name = "openxr"`), "osc.profile[1].targets: the openxr profile needs somewhere to send"},
		{"bad target", profile("name = \"gloved\"\ntargets = [\"127.0.0.1\"]"), `osc.profile[1].targets[0] = "127.0.0.1": want host:port`},
		{"bad pattern", profile("name = \"vrchat\"\ntargets = [\"oscquery:VRChat-[\"]"), `osc.profile[1].targets[0] = "oscquery:VRChat-[": want oscquery: and a glob`},
		{"bad coords", profile("name = \"openxr\"\ntargets = [\"127.0.0.1:9\"]\ncoords = \"blender\""), `osc.profile[1].coords = "blender": want gloved`},
		{"coords on vrchat", profile("name = \"vrchat\"\ncoords = \"unity\""), `osc.profile[1].coords = "unity": the vrchat profile sends no positions or rotations`},
		{"coords on vmc", profile("name = \"vmc\"\ncoords = \"ros\""), `osc.profile[1].coords = "ros": the vmc profile is in Unity's coordinates`},
		{"rate on openxr", profile("name = \"openxr\"\ntargets = [\"127.0.0.1:9\"]\nrate_hz = 5.0"), "osc.profile[1].rate_hz: only the vrchat profile has it; the openxr profile's keys are name, targets and coords"},
		{"rate type", profile("name = \"vrchat\"\nrate_hz = \"fast\""), `osc.profile[1].rate_hz = "fast": want a number`},
		{"integer rate", profile("name = \"vrchat\"\nrate_hz = 500"), "osc.profile[1].rate_hz = 500: want 1 to 50"},
		{"name type", profile("name = 3"), "osc.profile[1].name = 3: want a string"},
		{"targets type", profile("name = \"vmc\"\ntargets = \"127.0.0.1:9\""), `osc.profile[1].targets = "127.0.0.1:9": want a list of strings`},
		{"target type", profile("name = \"vmc\"\ntargets = [9]"), "osc.profile[1].targets[0] = 9: want a string"},
		{"parameter type", profile("name = \"vrchat\"\nparameters = { curl = 1 }"), "osc.profile[1].parameters.curl = 1: want a string"},
		{"coords before keys", profile("name = \"vrchat\"\ncoords = \"unity\"\nport = 1"), "osc.profile[1].coords"},
		{"rate", profile("name = \"vrchat\"\nrate_hz = 500.0"), "osc.profile[1].rate_hz = 500: want 1 to 50"},
		{"approach", profile("name = \"vrchat\"\napproach_mps = -1.0"), "osc.profile[1].approach_mps = -1"},
		{"parameter key", profile("name = \"vrchat\"\nparameters = { grip = \"Grip\" }"), "osc.profile[1].parameters.grip: not a parameter"},
		{"two hands one name", profile("name = \"vrchat\"\nparameters = { curl = \"{finger}Curl\" }"), `osc.profile[1].parameters.curl = "{finger}Curl": want {hand}`},
		{"unknown profile key", profile("name = \"vmc\"\nport = 39539"), "osc.profile[1].port: unknown key; the vmc profile's keys are name, targets and coords"},
		{"osc.targets", strings.Replace(base, `"127.0.0.1:9430"`, `"localhost"`, 1), `osc.targets[0] = "localhost": want host:port`},
	}
	for _, tc := range tests {
		_, err := ParseConfig("lab.toml", []byte(tc.text))
		if err == nil || !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tc.says) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: got %v, want one line saying %q", tc.name, err, tc.says)
		}
	}
}

// TestProfileConfigDefaults: vrchat and vmc send to their apps' ports on
// this machine unless told otherwise, vmc in Unity's coordinates, vrchat
// in none, the others in gloved's unless coords says; the same profile
// may be given twice; oscquery: patterns are targets too.
func TestProfileConfigDefaults(t *testing.T) {
	c, err := ParseConfig("lab.toml", []byte(hand("right", "sim")+"[osc]\n"+targets("127.0.0.1:9430", "oscquery:TouchDesigner*")+"\n"+
		profileTable("vrchat")+profileTable("vmc")+profileTable("gloved", `coords = "ros"`, targets("oscquery:ROS-*"))+
		profileTable("gloved", `coords = "unreal"`, targets("127.0.0.1:9600"))))
	if err != nil {
		t.Fatal(err)
	}
	p := c.OSC.Profiles
	if len(p) != 4 || p[0].Targets[0] != "127.0.0.1:9000" || p[1].Targets[0] != "127.0.0.1:39539" {
		t.Fatalf("profiles %+v", p)
	}
	for i, want := range []string{"", "unity", "ros", "unreal"} {
		if got := p[i].Convention().Name(); got != want {
			t.Errorf("profile %d (%s): coords %s, want %s", i, p[i].Name, got, want)
		}
	}
}

// TestDemosProfileExampleParses: the commented [[osc.profile]] tables of
// the demo config, their comment marks taken off, are a config that
// parses: three profiles.
func TestDemosProfileExampleParses(t *testing.T) {
	text, err := configs.Files.ReadFile("demo.toml")
	if err != nil {
		t.Fatal(err)
	}
	// The block runs from the first "# [[osc.profile]]" to the first line
	// that is not a comment.
	lines := strings.Split(string(text), "\n")
	in := false
	for i, line := range lines {
		in = in && strings.HasPrefix(line, "# ") || line == "# [[osc.profile]]"
		if in {
			lines[i] = strings.TrimPrefix(line, "# ")
		}
	}
	out := lines
	c, err := ParseConfig("../configs/demo.toml", []byte(strings.Join(out, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.OSC.Profiles) != 3 || c.OSC.Profiles[0].Name != "openxr" || c.OSC.Profiles[2].Convention().Name() != "unity" {
		t.Errorf("the demo's profiles: %+v", c.OSC.Profiles)
	}
}

// TestProfileKeysMayBeASubtable: a profile's own table-valued key may be
// written as a subtable of its [[osc.profile]], and is checked as the
// inline table is.
func TestProfileKeysMayBeASubtable(t *testing.T) {
	text := simOnTheBuiltinScene + profileTable("vrchat") + "[osc.profile.parameters]\ncurl = \"{finger}_{hand}_curl\"\n"
	c, err := ParseConfig("lab.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(c.OSC.Profiles[0].Keys); got != "map[parameters:map[curl:{finger}_{hand}_curl]]" {
		t.Errorf("keys %s", got)
	}
	_, err = ParseConfig("lab.toml", []byte(strings.Replace(text, "{finger}_{hand}", "{hand}", 1)))
	if err == nil || !strings.Contains(err.Error(), `osc.profile[0].parameters.curl = "{hand}_curl": want {finger}`) {
		t.Errorf("a bad name in the subtable: %v", err)
	}
}

// TestFrameKeysSetThePipelineOptions: [frame] count_tris, accelerate and
// workers reach the pipeline as SkipTris, NoAccel and Workers; left out,
// counts and accelerations are on and the workers one per CPU.
func TestFrameKeysSetThePipelineOptions(t *testing.T) {
	for _, tc := range []struct {
		frame             string
		skipTris, noAccel bool
		workers           int
	}{
		{"", false, false, 0},
		{"count_tris = false\n", true, false, 0},
		{"accelerate = false\n", false, true, 0},
		{"accelerate = true\ncount_tris = true\nworkers = 1\n", false, false, 1},
	} {
		c, err := ParseConfig("lab.toml", []byte(hand("right", "sim")+"[frame]\n"+tc.frame))
		if err != nil {
			t.Fatal(err)
		}
		o := c.PipelineOptions()
		if o.SkipTris != tc.skipTris || o.NoAccel != tc.noAccel || o.Workers != tc.workers {
			t.Errorf("[frame] %q: SkipTris %v NoAccel %v Workers %d, want %v %v %d", tc.frame, o.SkipTris, o.NoAccel, o.Workers, tc.skipTris, tc.noAccel, tc.workers)
		}
	}
}
