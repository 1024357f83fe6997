package daemon

// The parts the tests' configs are made of, in TOML: hands (hand), then
// the sections after them (sections, builtinScene), profiles
// (profileTable), each table's keys one a line.

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"

	"github.com/gloved/gloved/session"
)

// hand is a [[hand]] table: its name, its device, and its other keys
// ("key = value").
func hand(name, device string, keys ...string) string {
	return fmt.Sprintf("[[hand]]\nname = %q\ndevice = %q\n", name, device) + lines(keys)
}

// quoted is the key set to the string value.
func quoted(key, value string) string { return fmt.Sprintf("%s = %q", key, value) }

// Keys of a hand the tests give.
const (
	// demoWrist holds the hand where the demo does, above the grasp
	// scene's ball.
	demoWrist      = "wrist_pose = [0.0, 0.91, 0.10, -0.70710678, 0.0, 0.0, 0.70710678]"
	graspRecording = `recording = "../testdata/recordings/grasp.glove"`
	atFullSpeed    = `speed = "max"`
)

var (
	// recordedGrasp is a right hand replaying the shipped recording at
	// full speed; loopingGrasp the same, in a loop.
	recordedGrasp = hand("right", "replay", graspRecording, atFullSpeed)
	loopingGrasp  = hand("right", "replay", graspRecording, atFullSpeed, "loop = true")
)

// graspScene is the shipped grasp scene's file (session.BuiltinScene
// is the same scene, built in).
const graspScene = "../testdata/scenes/grasp.obj"

// scene is a [scene] of the file at path.
func scene(path string) string { return fmt.Sprintf("[scene]\nfiles = [{ path = %q }]\n", path) }

// simOnTheBuiltinScene is the least of a config: a simulated right hand
// on the built-in scene, every other section the test's.
var simOnTheBuiltinScene = hand("right", "sim") + scene(session.BuiltinScene)

// sections are a test config's sections after its hands: [scene] (the
// built-in grasp unless scene names a file), [osc] sending to target
// (none unless given) from listen (any loopback port unless given), and
// [frame] with a generous budget, the keys frame holds and, unless
// countTris, no triangle counts.
type sections struct {
	scene, target, listen string
	frame                 []string
	countTris             bool
}

func (s sections) String() string {
	to := targets()
	if s.target != "" {
		to = targets(s.target)
	}
	frame := append([]string{"budget_ms = 100.0"}, s.frame...)
	if !s.countTris {
		frame = append(frame, "count_tris = false")
	}
	return scene(cmp.Or(s.scene, session.BuiltinScene)) +
		fmt.Sprintf("[osc]\n%s\nlisten = %q\n[frame]\n%s", to, cmp.Or(s.listen, "127.0.0.1:0"), lines(frame))
}

// builtinScene is the sections of a config that sends to target on the
// built-in scene, with the frame keys frame.
func builtinScene(target string, frame ...string) string {
	return sections{target: target, frame: frame}.String()
}

// lines is keys one a line.
func lines(keys []string) string {
	if len(keys) == 0 {
		return ""
	}
	return strings.Join(keys, "\n") + "\n"
}

// profileTable is an [[osc.profile]] table: its profile's name, and its
// other keys ("key = value").
func profileTable(name string, keys ...string) string {
	return fmt.Sprintf("[[osc.profile]]\nname = %q\n", name) + lines(keys)
}

// targets is the key targets listing addrs.
func targets(addrs ...string) string {
	quoted := make([]string, len(addrs))
	for i, a := range addrs {
		quoted[i] = strconv.Quote(a)
	}
	return "targets = [" + strings.Join(quoted, ", ") + "]"
}
