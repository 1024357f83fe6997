package main

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// writeConfig writes a config for one simulated hand on the built-in
// scene, with extra appended, and returns its path.
func writeConfig(t *testing.T, listen, scene, extra string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "gloved.toml")
	text := fmt.Sprintf(`
[[hand]]
name = "right"
device = "sim"
[scene]
files = [{ path = %q }]
[osc]
listen = %q
targets = []
%s`, scene, listen, extra)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestStartupFailuresSayWhatToDo: each way `gloved run` cannot start ends
// with one line naming what failed, exit code 2 for a config that is
// wrong and 1 for one that cannot run, and never a stack trace.
func TestStartupFailuresSayWhatToDo(t *testing.T) {
	busy, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	missing := filepath.Join(t.TempDir(), "nowhere.toml")
	tests := []struct {
		name   string
		config string
		code   int
		says   []string
	}{
		{"config file missing", missing, 2, []string{"nowhere.toml"}},
		{"config malformed", writeConfig(t, "127.0.0.1:0", "builtin:grasp", "[frame]\nbudget_ms = -1.0\n"), 2, []string{"frame.budget_ms"}},
		{"OSC port in use", writeConfig(t, busy.LocalAddr().String(), "builtin:grasp", ""), 1, []string{"osc.listen", "in use", "choose a free port"}},
		{"scene file missing", writeConfig(t, "127.0.0.1:0", "no-such-scene.obj", ""), 1, []string{"no-such-scene.obj"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := runBinary(t, 20*time.Second, "run", "-c", tc.config, "--status=false", "--for", "3s")
			r.oneLine(t, tc.code, tc.says...)
		})
	}
}
