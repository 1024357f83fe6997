package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestEveryCommandSaysItsOutputWasLost: with standard output on a full
// disk (/dev/full) every command fails, exit 1, in one line saying the
// write failed, as contacts and dump did and version, demo, hand, help,
// ports and run --check did not (exit 0, nothing said, nothing written).
func TestEveryCommandSaysItsOutputWasLost(t *testing.T) {
	t.Parallel()
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("no /dev/full: %v", err)
	}
	defer full.Close()
	cfg := writeConfig(t, "127.0.0.1:0", "builtin:grasp", "")
	for _, args := range [][]string{
		{"version"},
		{"demo"},
		{"hand"},
		{"help"},
		{"ports"},
		{"run", "-c", cfg, "--check"},
		{"contacts", "--sim", "--frames", "2", "--scene", "builtin:grasp"},
		{"dump", simRecording(t, 3)},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		cmd := exec.CommandContext(ctx, binary(t), args...)
		var stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = full, &stderr
		err := cmd.Run()
		cancel()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
		if code != 1 || len(lines) != 1 || !strings.Contains(lines[0], "no space left on device") {
			t.Errorf("gloved %s > /dev/full: exit %d, stderr:\n%s\nwant exit 1 and one line saying the write failed", strings.Join(args, " "), code, stderr.String())
		}
	}
}
