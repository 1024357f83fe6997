package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
)

// TestALineAboutASceneOfManyObjectsNamesAFew: `run --check` and the
// daemon's "gloved running" line name the first env.ShownObjects
// objects of a scene and count the rest, so that a scene of thousands
// of objects gives a line a terminal or a journal can show (16,000
// names made a 200 KB line). The daemon runs for 1 s, its start within
// it: the test runs alone (not t.Parallel).
func TestALineAboutASceneOfManyObjectsNamesAFew(t *testing.T) {
	m := &env.Mesh{}
	for i := range 40 {
		m.Append(env.Box(fmt.Sprintf("crate%02d", i), geom.Vec3{X: 1 + 0.1*float64(i)}, geom.Vec3{X: 0.02, Y: 0.02, Z: 0.02}))
	}
	cfg := writeConfig(t, "127.0.0.1:0", writeOBJ(t, m, "crates.obj"), "")
	more := fmt.Sprintf("and %d more objects", 40-env.ShownObjects)
	check := runBinary(t, 20*time.Second, "run", "-c", cfg, "--check")
	if check.code != 0 || !strings.Contains(check.stdout, "crate00") || !strings.Contains(check.stdout, more) || strings.Contains(check.stdout, "crate39") {
		t.Fatalf("--check: exit %d, %q: want the first objects named and %q", check.code, check.stdout, more)
	}
	run := runBinary(t, 20*time.Second, "run", "-c", cfg, "--for", "1s", "--status=false")
	var line string
	for _, l := range strings.Split(run.stderr, "\n") {
		if strings.Contains(l, `"message":"gloved running"`) {
			line = l
		}
	}
	if !strings.Contains(line, fmt.Sprintf(`"more_objects":%d`, 40-env.ShownObjects)) || strings.Contains(line, "crate39") || len(line) > 1000 {
		t.Fatalf("the running line names every object, or does not count them: %q", line)
	}
}
