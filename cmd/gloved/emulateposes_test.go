package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/gloved/gloved/devices/cyberglove/layout"
	"github.com/gloved/gloved/devices/emulator"
)

// TestPosesFromStdinSkipALineTooLongAndReadOn: a pose line longer than
// any step (70,000 bytes) is warned of and skipped, and the lines after
// it are read (one over 64 KiB ended the reading, without a word).
func TestPosesFromStdinSkipALineTooLongAndReadOn(t *testing.T) {
	var warned bytes.Buffer
	old := warnings
	defer func() { warnings = old }()
	warnings = &warned
	poses := map[string][layout.Slots]float64{"fist": {}, "spread": {}, "flat": {}}
	s, err := emulator.NewScript(poses, "flat", 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	in := "fist 0.01\n" + strings.Repeat("x", 70000) + "\nspread 0.01\n"
	readPoses(strings.NewReader(in), s)
	if !strings.Contains(warned.String(), "stdin line 2: longer than 4096 bytes, no pose: skipped") {
		t.Errorf("warned %q", warned.String())
	}
	// flat, then fist for 10 ms, then spread: the line after the long one
	// was read.
	if got := s.Playing(time.Hour); got != "spread" {
		t.Errorf("after an hour the script plays %q, want spread", got)
	}
}
