package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestASerialGlovesBaudAndPortAreRefusedBeforeItIsOpened: a baud rate
// the serial line cannot be set to, or a port that is there and is not
// a device (a regular file, a directory), is a mistake in the config,
// not an unplugged glove: --check and run refuse it in one line naming
// the key and what to give, exit 2, instead of retrying for ever. A
// port that is not there yet stays legal: the glove is plugged in
// later.
func TestASerialGlovesBaudAndPortAreRefusedBeforeItIsOpened(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	absent := filepath.Join(dir, "ttyUSB7")
	tests := []struct {
		name, hand string
		says       []string
	}{
		{"baud 1", fmt.Sprintf("device = \"cyberglove\"\nport = %q\nbaud = 1", absent), []string{"baud = 1", "115200", "19200", "38400", "4000000"}},
		{"baud 12345", fmt.Sprintf("device = \"opengloves\"\nport = %q\nbaud = 12345", absent), []string{"baud = 12345", "115200"}},
		{"port a regular file", fmt.Sprintf("device = \"cyberglove\"\nport = %q", file), []string{fmt.Sprintf("port = %q: a regular file, not a serial device", file), "/dev/ttyUSB0"}},
		{"port a directory", fmt.Sprintf("device = \"cyberglove3\"\nport = %q", dir), []string{fmt.Sprintf("port = %q: a directory, not a serial device", dir), "/dev/ttyUSB0"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := handConfig(t, t.TempDir(), tc.hand, "127.0.0.1:9", "")
			runBinary(t, 10*time.Second, "run", "-c", cfg, "--check").oneLine(t, 2, tc.says...)
			runBinary(t, 10*time.Second, "run", "-c", cfg, "--status=false", "--for", "3s").oneLine(t, 2, tc.says...)
		})
	}
	for _, baud := range []int{115200, 38400, 921600} {
		cfg := handConfig(t, t.TempDir(), fmt.Sprintf("device = \"cyberglove\"\nport = %q\nbaud = %d", absent, baud), "127.0.0.1:9", "")
		if ok := runBinary(t, 10*time.Second, "run", "-c", cfg, "--check"); ok.code != 0 || !strings.Contains(ok.stdout, "config ok") {
			t.Errorf("baud %d, a port not plugged in yet: exit %d, %s %s", baud, ok.code, ok.stdout, ok.stderr)
		}
	}
}

// TestRecordAndCalibrateNameTheFlagThatCannotRun: the same mistakes given
// to record and calibrate as flags are refused in one line naming the
// flag as it was typed (`--baud 1`), not the config key (`baud = 1`),
// exit 2, before any port is opened.
func TestRecordAndCalibrateNameTheFlagThatCannotRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	absent := filepath.Join(dir, "ttyUSB7")
	out := filepath.Join(dir, "out")
	tests := []struct {
		args []string
		says []string
	}{
		{[]string{"--baud", "1", "--port", absent}, []string{"--baud 1: not a rate", "115200"}},
		{[]string{"--port", file}, []string{"--port " + file + ": a regular file, not a serial device", "/dev/ttyUSB0"}},
		{[]string{"--side", "up", "--port", absent, "--device", "cyberglove3"}, []string{"--side up: want right or left"}},
	}
	for _, tc := range tests {
		for _, cmd := range [][]string{{"record", "--seconds", "1", "-o", out}, {"calibrate", "-o", out}} {
			r := runBinary(t, 10*time.Second, append(cmd, tc.args...)...)
			r.oneLine(t, 2, tc.says...)
			if strings.Contains(r.stderr, " = ") {
				t.Errorf("%q: names a config key: %s", append(cmd, tc.args...), r.stderr)
			}
		}
	}
}
