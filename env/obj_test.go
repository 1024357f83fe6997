package env

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"
)

func TestLoadOBJHostile(t *testing.T) {
	tri := "v 0 0 0\nv 1 0 0\nv 0 1 0\n"
	loadHostile(t, []hostileCase{
		// 500 000 corners on one line: a fan of 499 998 triangles.
		{"face.obj", []byte("v 0 0 0\nf" + strings.Repeat(" 1", 500_000) + "\n"), "", 499_998},
		{"verts.obj", []byte(strings.Repeat("v 0 0 0\n", 1<<17) + "f 1 2 3\n"), "", 1},
		{"negative.obj", []byte(tri + "f" + strings.Repeat(" -1", 300_000) + "\n"), "", 299_998},
		{"int32.obj", []byte(tri + "f 1 2 4294967298\n"), "line 4: face corner \"4294967298\": vertex index out of range: 4294967298 with 3 vertices defined so far", 0},
		{"int64.obj", []byte(tri + "f 1 2 99999999999999999999\n"), "line 4: face corner \"99999999999999999999\": vertex index \"99999999999999999999\" is not an integer", 0},
		{"ahead.obj", []byte("v 0 0 0\nf 1 2 3\n" + tri), "line 2: face corner \"2\": vertex index out of range: 2 with 1 vertices defined so far", 0},
		{"zero.obj", []byte(tri + "f 0 1 2\n"), "line 4: face corner \"0\": vertex index out of range", 0},
		{"objects.obj", []byte(tri + strings.Repeat("o a\nf 1 2 3\n", maxObjects+1)), "16385 objects: too big (the limit is 16384)", 0},
		{"emptyobjects.obj", []byte(tri + strings.Repeat("o a\n", 100_000) + "f 1 2 3\n"), "", 1},
		{"long.obj", []byte(tri + "f 1 2 3" + strings.Repeat(" ", maxOBJLine) + "\n"), "line 4: longer than 1.0 MB", 0},
	})
}

func TestReadOBJMatchesTheScannerReader(t *testing.T) {
	for _, name := range []string{"two_objects.obj", "grasp.obj", "degenerate.obj", "empty.obj"} {
		b, err := os.ReadFile(scenes + name)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ReadOBJ(bytes.NewReader(b), name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want, err := oracleOBJ(bytes.NewReader(b), name)
		if err != nil {
			t.Fatalf("%s: the scanner reader: %v", name, err)
		}
		if !slices.Equal(got.Verts, want.Verts) || !slices.Equal(got.Tris, want.Tris) ||
			!slices.Equal(got.Object, want.Object) || !slices.Equal(got.Objects, want.Objects) {
			t.Errorf("%s: the readers differ", name)
		}
	}
}

// TestAnOBJBeginningWithAByteOrderMarkReadsAsWithout: a file an editor
// saved with a UTF-8 byte-order mark gives the same mesh as without it
// (its first vertex was lost, and the error named the last line).
func TestAnOBJBeginningWithAByteOrderMarkReadsAsWithout(t *testing.T) {
	text := "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"
	plain, err := ReadOBJ(strings.NewReader(text), "t")
	if err != nil {
		t.Fatal(err)
	}
	marked, err := ReadOBJ(strings.NewReader("\xef\xbb\xbf"+text), "t")
	if err != nil {
		t.Fatalf("with a byte-order mark: %v", err)
	}
	if !slices.Equal(marked.Verts, plain.Verts) || !slices.Equal(marked.Tris, plain.Tris) {
		t.Fatalf("with a byte-order mark: %v %v, want %v %v", marked.Verts, marked.Tris, plain.Verts, plain.Tris)
	}
}
