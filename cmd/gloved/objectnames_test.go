package main

import (
	"fmt"
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

// TestObjectsThatShareANameAreRenamedSoEachNameIsOneObject: an OBJ with
// two objects named ball, and the same scene file twice, gave contacts
// and --check several objects of one name (which ball a contact meant,
// and which a config's methods key set, could not be told); each later
// one is renamed NAME.N, with one warning per load naming the first.
func TestObjectsThatShareANameAreRenamedSoEachNameIsOneObject(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "two.obj")
	text := "o ball\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\no ball.1\nv 0 0 1\nv 1 0 1\nv 0 1 1\nf 4 5 6\no ball\nv 0 0 2\nv 1 0 2\nv 0 1 2\nf 7 8 9\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(t.TempDir(), "gloved.toml")
	text = fmt.Sprintf("[[hand]]\nname = \"right\"\ndevice = \"sim\"\n[scene]\nfiles = [{ path = %q }, { path = \"builtin:grasp\" }]\n[osc]\nlisten = \"127.0.0.1:0\"\ntargets = []\n", path)
	if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runBinary(t, 20*time.Second, "run", "-c", cfg, "--check")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{"ball.2", "ball.3"} { // the file's second ball; then the built-in's
		if !strings.Contains(r.stdout, want) {
			t.Errorf("--check does not name %s:\n%s", want, r.stdout)
		}
	}
	for _, want := range []string{path + `: 1 object(s) had the name of an earlier one and were renamed NAME.N`, `the first, object 2 "ball", is now "ball.2")`, `the scene's files: 1 object(s)`, `is now "ball.3"`} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("the warnings do not say %q:\n%s", want, r.stderr)
		}
	}
}
