package main

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gloved/gloved/devices/sim"
)

// TestEmulateListsEveryModelAndMotionItPlays: `gloved emulate`'s usage
// line lists every model (cyberglove, cyberglove3, opengloves) and every
// simulated motion (sim.Motions) it plays, as does the error of an
// unknown --model (it left out opengloves), and each one listed is
// played: the emulator starts and links its port.
func TestEmulateListsEveryModelAndMotionItPlays(t *testing.T) {
	t.Parallel()
	wantModels := []string{"cyberglove", "cyberglove3", "opengloves"}
	var wantMotions []string
	for _, m := range sim.Motions {
		wantMotions = append(wantMotions, string(m))
	}
	h := runBinary(t, 20*time.Second, "emulate", "-h")
	usage := h.stdout + h.stderr
	listed := func(flag string) []string {
		m := regexp.MustCompile(`\[--` + flag + ` ([a-z0-9|]+)\]`).FindStringSubmatch(usage)
		if m == nil {
			t.Fatalf("the usage line has no [--%s a|b|...]: %s", flag, usage)
		}
		return strings.Split(m[1], "|")
	}
	models, motions := listed("model"), listed("motion")
	if !slices.Equal(models, wantModels) {
		t.Errorf("usage lists models %v, want %v", models, wantModels)
	}
	if !slices.Equal(motions, wantMotions) {
		t.Errorf("usage lists motions %v, want %v", motions, wantMotions)
	}
	runBinary(t, 20*time.Second, "emulate", "--model", "nope").
		oneLine(t, 2, `--model "nope": want cyberglove, cyberglove3 or opengloves`)
	runBinary(t, 20*time.Second, "emulate", "--motion", "nope").
		oneLine(t, 2, "nope", sim.MotionNames())
	for _, model := range models {
		for _, motion := range motions {
			// A subtest each, so each emulator is stopped before the next.
			t.Run(model+" "+motion, func(t *testing.T) {
				startEmulator(t, t.TempDir(), "--model", model, "--motion", motion)
			})
		}
	}
}
