package env

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
)

const scenes = "../testdata/scenes/"

func bounds(m *Mesh) geom.AABB {
	b := geom.EmptyAABB()
	for _, v := range m.Verts {
		b = b.Extend(v)
	}
	return b
}

func near(a, b geom.Vec3) bool { return a.Sub(b).Len() < 1e-6 }

func TestLoadFormats(t *testing.T) {
	tests := []struct {
		file    string
		tris    int
		objects []string
		min     geom.Vec3
		max     geom.Vec3
	}{
		{"two_objects.obj", 12 + 4, []string{"cube", "table top"}, geom.Vec3{Y: -math.Sqrt(3) / 2}, geom.Vec3{X: 4, Y: 1, Z: 2}},
		{"cube_ascii.stl", 12, []string{"cube"}, geom.Vec3{}, geom.Vec3{X: 1, Y: 1, Z: 1}},
		{"cube_binary.stl", 12, []string{"cube_binary"}, geom.Vec3{}, geom.Vec3{X: 1, Y: 1, Z: 1}},
		// crate at x=10; lid its child at +2 in y, scaled 2: spans y 2..4.
		{"crate.gltf", 24, []string{"crate", "lid"}, geom.Vec3{X: 10}, geom.Vec3{X: 12, Y: 4, Z: 2}},
		{"crate.glb", 24, []string{"crate", "lid"}, geom.Vec3{X: 10}, geom.Vec3{X: 12, Y: 4, Z: 2}},
	}
	for _, tc := range tests {
		m, err := Load(scenes+tc.file, LoadOptions{})
		if err != nil {
			t.Errorf("%s: %v", tc.file, err)
			continue
		}
		if len(m.Tris) != tc.tris || !slices.Equal(m.Objects, tc.objects) {
			t.Errorf("%s: got %d triangles in %v, want %d in %v", tc.file, len(m.Tris), m.Objects, tc.tris, tc.objects)
		}
		if b := bounds(m); !near(b.Min, tc.min) || !near(b.Max, tc.max) {
			t.Errorf("%s: bounds %v..%v, want %v..%v", tc.file, b.Min, b.Max, tc.min, tc.max)
		}
	}
}

func TestLoadOBJObjectsOwnTheirTriangles(t *testing.T) {
	m, err := Load(scenes+"two_objects.obj", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range m.Tris {
		want := "cube"
		if i >= 12 {
			want = "table top"
		}
		if got := m.ObjectName(i); got != want {
			t.Fatalf("triangle %d: object %q, want %q", i, got, want)
		}
	}
}

func TestLoadOptionsPlaceTheFile(t *testing.T) {
	x, err := geom.FromQuat(mgl64.QuatRotate(math.Pi/2, mgl64.Vec3{0, 1, 0}), geom.Vec3{Z: 5})
	if err != nil {
		t.Fatal(err)
	}
	m, err := Load(scenes+"cube_ascii.stl", LoadOptions{Scale: 2, Up: UpZ, Transform: &x})
	if err != nil {
		t.Fatal(err)
	}
	// Z-up (x,y,z) -> (x,z,-y): cube spans x 0..1, y 0..1, z -1..0; scaled
	// by 2; then +90° about y maps (x,y,z) -> (z,y,-x), plus 5 in z.
	b := bounds(m)
	if !near(b.Min, geom.Vec3{X: -2, Z: 3}) || !near(b.Max, geom.Vec3{Y: 2, Z: 5}) {
		t.Fatalf("bounds %v..%v", b.Min, b.Max)
	}
}

func TestLoadErrorsNameFileAndElement(t *testing.T) {
	tests := []struct {
		file   string
		opt    LoadOptions
		target error
		says   []string
	}{
		{"missing.obj", LoadOptions{}, fs.ErrNotExist, []string{"missing.obj"}},
		{"empty.obj", LoadOptions{}, ErrEmpty, []string{"empty.obj"}},
		{"bad_nan.obj", LoadOptions{}, ErrNonFinite, []string{"bad_nan.obj", "line 4", "vertex 3"}},
		{"bad_index.obj", LoadOptions{}, ErrIndexRange, []string{"bad_index.obj", "line 6", `"7"`}},
		{"bad_inf.stl", LoadOptions{}, ErrNonFinite, []string{"bad_inf.stl", "facet 1 corner 2"}},
		{"bad_index.gltf", LoadOptions{}, ErrIndexRange, []string{"bad_index.gltf", "node 0", "crate", "index 2 = 9"}},
		{"cube_ascii.stl", LoadOptions{Up: "x"}, nil, []string{"cube_ascii.stl", `up axis "x"`}},
		{"cube_ascii.stl", LoadOptions{Scale: -1}, nil, []string{"scale -1"}},
		{"cube_ascii.stl", LoadOptions{Scale: math.Inf(1)}, nil, []string{"scale"}},
		{"../scenes", LoadOptions{}, ErrUnsupported, []string{"scenes"}},
	}
	for _, tc := range tests {
		_, err := Load(scenes+tc.file, tc.opt)
		if err == nil {
			t.Errorf("%s: no error", tc.file)
			continue
		}
		if tc.target != nil && !errors.Is(err, tc.target) {
			t.Errorf("%s: error %q does not wrap %v", tc.file, err, tc.target)
		}
		for _, s := range tc.says {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("%s: error %q does not mention %s", tc.file, err, s)
			}
		}
	}
}

func TestLoadKeepsAndCountsDegenerateTriangles(t *testing.T) {
	m, err := Load(scenes+"degenerate.obj", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Tris) != 3 || m.Degenerate != 2 {
		t.Fatalf("got %d triangles, %d degenerate; want 3 and 2", len(m.Tris), m.Degenerate)
	}
	mustBuild(t, m, geom.FitHull)
}

func TestReadOBJLineTooLongNamesTheLine(t *testing.T) {
	src := "v 0 0 0\n# " + strings.Repeat("x", maxOBJLine+1) + "\n"
	_, err := ReadOBJ(strings.NewReader(src), "long")
	if err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("got %v, want an error naming line 2", err)
	}
}

func TestReadOBJPolygonsAndNegativeIndices(t *testing.T) {
	src := "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0.5 1.5 0 2\nf -5 -4 -3 -2 -1\n"
	m, err := ReadOBJ(strings.NewReader(src), "pentagon")
	if err != nil {
		t.Fatal(err)
	}
	want := [][3]int32{{0, 1, 2}, {0, 2, 3}, {0, 3, 4}}
	if !slices.Equal(m.Tris, want) || m.Objects[0] != "pentagon" {
		t.Fatalf("got %v %v, want fan %v", m.Tris, m.Objects, want)
	}
	if m.Verts[4] != (geom.Vec3{X: 0.25, Y: 0.75}) {
		t.Fatalf("w=2 vertex read as %v", m.Verts[4])
	}
}

// FuzzReadOBJ: any bytes either fail with an error or give a mesh whose
// indices are in range and whose coordinates are finite, the same as the
// scanner-based reader it replaced gives, allocating no more than the
// loader's bound.
func FuzzReadOBJ(f *testing.F) {
	for _, name := range []string{"two_objects.obj", "bad_nan.obj", "bad_index.obj", "degenerate.obj"} {
		b, err := os.ReadFile(filepath.Join(scenes, name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("v 1 2 3 0\nf 1 1 1\n"))
	f.Add([]byte("v 1e400 0 0\n"))
	f.Add([]byte("v 0 0 0\nv 1 0 0\nv 0 1 0\no\u00a0a \t b\r\nf 1/2/3 -1//2 2 3 1\ng\nf 1 2 3\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		var m *Mesh
		var err error
		alloc := roughAlloc(func() { m, err = readOBJ(context.Background(), b, "fuzz") })
		if alloc > hostileAlloc(len(b)) {
			t.Fatalf("%d bytes allocated for %d bytes of file, more than %d", alloc, len(b), hostileAlloc(len(b)))
		}
		want, werr := oracleOBJ(bytes.NewReader(b), "fuzz")
		if (err == nil) != (werr == nil) {
			t.Fatalf("got error %v, the scanner-based reader %v", err, werr)
		}
		if err != nil {
			return
		}
		checkMesh(t, m)
		if !slices.Equal(m.Verts, want.Verts) || !slices.Equal(m.Tris, want.Tris) ||
			!slices.Equal(m.Object, want.Object) || !slices.Equal(m.Objects, want.Objects) {
			t.Fatalf("got %v, the scanner-based reader %v", m, want)
		}
	})
}
