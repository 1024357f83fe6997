package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSceneObjectNamesArePrintableAndShort: an OBJ object named with a
// terminal escape reached the terminal raw through every line that names
// objects, and one named with 70,000 bytes made every contact message too
// long to send; both load, named with '?' for each control character and
// cut to 256 bytes at a character's start, with one warning naming the
// file, and a UTF-8 name is kept as it is.
func TestSceneObjectNamesArePrintableAndShort(t *testing.T) {
	long := strings.Repeat("é", 40000) // 80,000 bytes, cut within no character
	path := filepath.Join(t.TempDir(), "names.obj")
	text := "o \x1b]0;OWNED\x07\x1b[2Jtable\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n" +
		"o " + long + "\nv 0 0 1\nv 1 0 1\nv 0 1 1\nf 4 5 6\n" +
		"o Stuhl größe\nv 0 0 2\nv 1 0 2\nv 0 1 2\nf 7 8 9\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	clean := []string{"?]0;OWNED??[2Jtable", strings.Repeat("é", 128), "Stuhl größe"}
	cfg := writeConfig(t, "127.0.0.1:0", path, "")
	for _, tc := range []struct {
		args     []string
		warnings int // one a load of the file
	}{
		{[]string{"run", "-c", cfg, "--check"}, 1},
		{[]string{"collide", path, path}, 2},
	} {
		r := runBinary(t, 20*time.Second, tc.args...)
		if r.code != 0 || strings.ContainsAny(r.stdout, "\x1b\x07") || strings.Contains(r.stdout, strings.Repeat("é", 129)) {
			t.Errorf("%s: exit %d, stdout holds an escape or a name past 256 bytes:\n%.600q", tc.args[0], r.code, r.stdout)
		}
		for _, c := range clean {
			if !strings.Contains(r.stdout, c) {
				t.Errorf("%s: stdout does not name %.40q", tc.args[0], c)
			}
		}
		lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
		if len(lines) != tc.warnings || !strings.Contains(lines[0], "warning: ") || !strings.Contains(lines[0], path+": 2 object name(s)") {
			t.Errorf("%s: want %d warning(s) naming %s and the 2 names changed; stderr:\n%.600q", tc.args[0], tc.warnings, path, r.stderr)
		}
	}
}
