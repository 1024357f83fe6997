package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// mkfifo makes a named pipe that nothing writes to.
func mkfifo(t *testing.T, path string) string {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// sparse makes a file of n bytes that takes no disk.
func sparse(t *testing.T, path string, n int64) string {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(n); err != nil {
		t.Fatal(err)
	}
	return path
}

// leftHand is a second [[hand]] with the keys given.
func leftHand(device string, keys ...string) string {
	return fmt.Sprintf("[[hand]]\nname = \"left\"\ndevice = %q\n%s\n", device, strings.Join(keys, "\n"))
}

// TestFilesThatAreNotFilesSayWhatToGive: a named pipe, a device, a
// directory, or a file far larger than its kind can be, where gloved
// reads a file (the config, a scene and the buffers a glTF names, a
// calibration, a skinned hand, a replay's recording) ends `run --check`
// and `run` promptly with one line naming the path, what it is and what
// to give. Nothing waits for a pipe's writer or reads without end; the
// deadline is generous, and a process still running at it fails the
// test.
func TestFilesThatAreNotFilesSayWhatToGive(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	scenePipe := mkfifo(t, filepath.Join(dir, "scene.obj"))
	calPipe := mkfifo(t, filepath.Join(dir, "cal.toml"))
	recPipe := mkfifo(t, filepath.Join(dir, "session.glove"))
	mkfifo(t, filepath.Join(dir, "buffer.bin"))
	gltf := filepath.Join(dir, "named.gltf")
	if err := os.WriteFile(gltf, []byte(`{"asset":{"version":"2.0"},"buffers":[{"byteLength":36,"uri":"buffer.bin"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	bigCal := sparse(t, filepath.Join(dir, "big.toml"), 300e6)
	glove := []string{`port = "/dev/null-glove"`}
	tests := []struct {
		name, config string
		says         []string
	}{
		{"a named pipe as the scene", writeConfig(t, "127.0.0.1:0", scenePipe, ""),
			[]string{"scene: env: " + scenePipe + " is not a regular file (a named pipe): give the path of a mesh file"}},
		{"a named pipe as a glTF scene's buffer", writeConfig(t, "127.0.0.1:0", gltf, ""),
			[]string{"named.gltf", "buffer 0", "buffer.bin is not a regular file (a named pipe): give the path of a glTF buffer file"}},
		{"/dev/zero as a calibration", writeConfig(t, "127.0.0.1:0", "builtin:grasp", leftHand("cyberglove", append(glove, `calibration = "/dev/zero"`)...)),
			[]string{"hand[1] (left).calibration", "/dev/zero is not a regular file (a character device): give the path of a calibration file"}},
		{"a named pipe as a calibration", writeConfig(t, "127.0.0.1:0", "builtin:grasp", leftHand("cyberglove", append(glove, fmt.Sprintf("calibration = %q", calPipe))...)),
			[]string{"hand[1] (left).calibration", calPipe + " is not a regular file (a named pipe)"}},
		{"a 300 MB calibration", writeConfig(t, "127.0.0.1:0", "builtin:grasp", leftHand("cyberglove", append(glove, fmt.Sprintf("calibration = %q", bigCal))...)),
			[]string{"hand[1] (left).calibration", bigCal + ": 300.0 MB: too big for a calibration file (the limit is 256.0 kB)"}},
		{"a directory as a skinned hand", writeConfig(t, "127.0.0.1:0", "builtin:grasp", leftHand("sim", fmt.Sprintf("mesh = %q", dir))),
			[]string{"hand[1] (left).mesh", dir + " is not a regular file (a directory): give the path of a skinned hand"}},
		{"a named pipe as a replay's recording", writeConfig(t, "127.0.0.1:0", "builtin:grasp", leftHand("replay", fmt.Sprintf("recording = %q", recPipe))),
			[]string{"hand[1] (left).recording", recPipe + " is not a regular file (a named pipe): give the path of a gloved recording"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := runBinary(t, 60*time.Second, "run", "-c", tc.config, "--check")
			r.oneLine(t, 2, tc.says...)
			r = runBinary(t, 60*time.Second, "run", "-c", tc.config, "--status=false", "--for", "3s")
			if r.code == 0 || r.code == -1 || len(strings.Split(strings.TrimSpace(r.stderr), "\n")) != 1 || !strings.Contains(r.stderr, tc.says[len(tc.says)-1]) {
				t.Errorf("run: exit %d, stderr (want one line saying %q):\n%s", r.code, tc.says[len(tc.says)-1], r.stderr)
			}
		})
	}
	known, _ := writeKnownCalibration(t, dir)
	scriptPipe := mkfifo(t, filepath.Join(dir, "poses.txt"))
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"contacts", "--scene", scenePipe, "--sim", "--frames", "1"}, scenePipe + " is not a regular file (a named pipe): give the path of a mesh file"},
		{[]string{"dump", recPipe}, recPipe + " is not a regular file (a named pipe): give the path of a gloved recording"},
		{[]string{"hand", "--mesh", scenePipe}, scenePipe + " is not a regular file (a named pipe): give the path of a skinned hand"},
		{[]string{"emulate", "--calibration", calPipe}, calPipe + " is not a regular file (a named pipe): give the path of a calibration file"},
		{[]string{"emulate", "--calibration", known, "--script", scriptPipe}, scriptPipe + ` is not a regular file (a named pipe): give the path of a script of "pose seconds" lines`},
	} {
		r := runBinary(t, 60*time.Second, tc.args...)
		r.oneLine(t, 1, tc.says)
	}
	for _, config := range []struct{ path, is string }{
		{"/dev/zero", "a character device"},
		{mkfifo(t, filepath.Join(dir, "gloved.toml")), "a named pipe"},
		{dir, "a directory"},
	} {
		r := runBinary(t, 60*time.Second, "run", "-c", config.path, "--check")
		r.oneLine(t, 2, "config: "+config.path+" is not a regular file ("+config.is+"): give the path of a config file")
	}
}
