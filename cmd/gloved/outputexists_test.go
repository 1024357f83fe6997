package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestExportGLTFAndHandNeverReplaceAFileUnlessForced: export --gltf FILE
// and hand -o FILE refuse a file already there, as calibrate -o and
// emulate --stamps do: one line naming it and --force, exit 1, the file
// left byte for byte; with --force it is written. --force without the
// file it overwrites is a usage error.
func TestExportGLTFAndHandNeverReplaceAFileUnlessForced(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	kept := []byte("kept: not a glTF file, nor an OBJ\n")
	for _, tc := range []struct {
		name string
		cmd  func(path string) []string
		flag string
	}{
		{"x.glb", func(p string) []string {
			return []string{"export", "--sim", "--frames", "2", "--scene", "builtin:grasp", "--gltf", p}
		}, "--gltf"},
		{"x.gltf", func(p string) []string {
			return []string{"export", "--sim", "--frames", "2", "--scene", "builtin:grasp", "--gltf", p}
		}, "--gltf"},
		{"h.obj", func(p string) []string { return []string{"hand", "-o", p} }, "-o"},
		{"h.glb", func(p string) []string { return []string{"hand", "--pose", "fist", "-o", p} }, "-o"},
	} {
		path := filepath.Join(dir, tc.name)
		if err := os.WriteFile(path, kept, 0o644); err != nil {
			t.Fatal(err)
		}
		runBinary(t, 30*time.Second, tc.cmd(path)...).oneLine(t, 1, "gloved: "+tc.flag+" "+path+" exists: give --force to overwrite it")
		if b, err := os.ReadFile(path); err != nil || !bytes.Equal(b, kept) {
			t.Errorf("%s refused: the file is now %d bytes (%v), want it as it was", tc.name, len(b), err)
		}
		if r := runBinary(t, 30*time.Second, append(tc.cmd(path), "--force")...); r.code != 0 {
			t.Fatalf("%s --force: exit %d: %s", tc.name, r.code, r.stderr)
		}
		if b, err := os.ReadFile(path); err != nil || bytes.Equal(b, kept) || len(b) < 100 {
			t.Errorf("%s --force: the file is %d bytes (%v), want it written", tc.name, len(b), err)
		}
	}
	runBinary(t, 20*time.Second, "hand", "--force").oneLine(t, 2, "--force overwrites the -o file: give it only with -o FILE")
	runBinary(t, 20*time.Second, "export", "--sim", "--frames", "2", "--scene", "builtin:grasp", "--out", t.TempDir(), "--force").
		oneLine(t, 2, "--force overwrites the --gltf file: give it only with --gltf FILE")
}
