package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestAHandThatStopsOnAnErrorLeavesTheDaemonRunning: a glove that opens
// but reports another sensor count than its calibration's stops its hand
// alone: the hand reports no-glove, the log says once what failed and
// what to do, and the daemon and its other hand go on (it used to exit 1).
func TestAHandThatStopsOnAnErrorLeavesTheDaemonRunning(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	link := filepath.Join(dir, "glove")
	emu, _ := startLinkedEmulator(t, link, "") // a right CyberGlove II of 22 sensors
	t.Cleanup(func() { emu.Process.Kill(); emu.Wait() })
	p, metrics := runServed(t, dir, fmt.Sprintf(`[[hand]]
name = "right"
device = "cyberglove"
port = %q
calibration = %q
[[hand]]
name = "left"
device = "sim"
`, link, mustAbs(t, "../../configs/calibration-18.toml")), mustAbs(t, "../../testdata/scenes/grasp.obj"))
	p.until(t, "the right hand stopped", func() bool { return strings.Contains(p.errs.String(), "hand stopped") })
	n := metric(metrics, "gloved_frames_total")
	p.until(t, "the left hand's frames after the right one stopped", func() bool { return metric(metrics, "gloved_frames_total") > n+100 })
	if metric(metrics, handStatus("no-glove")) != 1 {
		t.Errorf("the stopped hand's status is not no-glove:\n%s", p.errs.String())
	}
	var stopped []string
	for _, line := range strings.Split(p.errs.String(), "\n") {
		if strings.Contains(line, `"level":"error"`) {
			stopped = append(stopped, line)
		}
	}
	if len(stopped) != 1 {
		t.Fatalf("%d error lines, want one:\n%s", len(stopped), p.errs.String())
	}
	for _, says := range []string{`"hand":"right"`, "calibration-18.toml is for 18 sensors, the glove has 22", "reload (SIGHUP)"} {
		if !strings.Contains(stopped[0], says) {
			t.Errorf("%s does not say %s", stopped[0], says)
		}
	}
}
