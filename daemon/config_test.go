package daemon

import (
	"errors"
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
	}
}

func TestConfigErrorsNameTheKey(t *testing.T) {
	base := `
[[hand]]
name = "right"
device = "sim"
[scene]
files = [{ path = "builtin:grasp" }]
`
	tests := []struct {
		name, text, says string
	}{
		{"unknown key", base + "[frame]\nbudget = 3\n", "unknown key frame.budget"},
		{"unknown section key", strings.Replace(base, `device = "sim"`, "device = \"sim\"\nvelocity = 2", 1), "unknown key hand.velocity"},
		{"syntax", base + "[frame\n", "line 8"},
		{"no hand", `[scene]`, "no [[hand]]"},
		{"device", strings.Replace(base, `"sim"`, `"glove9000"`, 1), `hand[0].device = "glove9000"`},
		{"cyberglove port", strings.Replace(base, `"sim"`, `"cyberglove"`, 1), "hand[0].port"},
		{"replay file", strings.Replace(base, `"sim"`, `"replay"`, 1), "hand[0].recording"},
		{"sensors", strings.Replace(base, `device = "sim"`, "device = \"sim\"\nsensors = 20", 1), "hand[0].sensors = 20"},
		{"name", strings.Replace(base, `"right"`, `"my hand"`, 1), `hand[0].name = "my hand"`},
		{"duplicate name", base + "[[hand]]\nname = \"right\"\ndevice = \"sim\"\n", `hand[1].name = "right": used by another hand`},
		{"wrist", strings.Replace(base, `device = "sim"`, "device = \"sim\"\nwrist = [1, 0, 0]", 1), "hand[0].wrist: want 7 numbers"},
		{"zero quaternion", strings.Replace(base, `device = "sim"`, "device = \"sim\"\nwrist = [0, 0, 0, 0, 1, 2, 3]", 1), "hand[0].wrist: the quaternion is zero"},
		{"motion", strings.Replace(base, `device = "sim"`, "device = \"sim\"\nmotion = \"wave\"", 1), `hand[0].motion = "wave"`},
		{"scene up", strings.Replace(base, `path = "builtin:grasp"`, `path = "x.obj", up = "x"`, 1), `scene.files[0].up = "x"`},
		{"scene scale", strings.Replace(base, `path = "builtin:grasp"`, `path = "x.obj", scale = -2.0`, 1), "scene.files[0].scale = -2"},
		{"prefix", base + "[osc]\nprefix = \"gloved\"\n", `osc.prefix = "gloved"`},
		{"budget", base + "[frame]\nbudget_ms = -1.0\n", "frame.budget_ms = -1"},
		{"proximity", base + "[frame]\nproximity_m = 5.0\n", "frame.proximity_m = 5"},
		{"hand max depth", base + "[hand_contact]\nmax_depth = -1\n", "hand_contact.max_depth = -1"},
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
