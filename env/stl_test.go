package env

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hschendel/stl"

	"github.com/gloved/gloved/geom"
)

func TestLoadSTLHostile(t *testing.T) {
	cube := stlCube()
	ascii := string(mustRead(scenes + "cube_ascii.stl"))
	loadHostile(t, []hostileCase{
		{"truncated.stl", stlBinary("binary", 1000, cube[:3]), "truncated binary STL: 1000 triangles declared, room for 3", 0},
		{"solidtruncated.stl", stlBinary("solid cube", 1000, cube[:3]), "truncated binary STL: 1000 triangles declared, room for 3", 0},
		{"count4g.stl", stlBinary("binary", 1<<32-1, nil), "truncated binary STL: 4294967295 triangles declared, room for 0", 0},
		{"short.stl", make([]byte, 50), "truncated binary STL: 50 bytes, the header alone takes 84", 0},
		{"solidbinary.stl", stlBinary("solid cube", 12, cube), "", 12},
		{"trailing.stl", append(stlBinary("binary", 12, cube), "padding"...), "", 12},
		{"blank.stl", []byte("solid x\n" + strings.Repeat("\n", 1<<20) + "endsolid x\n"), "no triangles", 0},
		{"asciitruncated.stl", []byte(ascii[:len(ascii)/2]), "the file ends before endsolid (truncated?)", 0},
	})
}

func TestLoadSTLNamesTheObject(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		file string
		b    []byte
		want string
	}{
		{"binary.stl", stlBinary("solid cube", 12, stlCube()), "binary"}, // a binary header names nothing
		{"ascii.stl", mustRead(scenes + "cube_ascii.stl"), "cube"},
		{"anonymous.stl", bytes.Replace(mustRead(scenes+"cube_ascii.stl"), []byte("solid cube"), []byte("solid "), 1), "anonymous"},
	} {
		p := filepath.Join(dir, tc.file)
		writeFile(t, p, tc.b)
		m, err := Load(p, LoadOptions{})
		if err != nil || len(m.Objects) != 1 || m.Objects[0] != tc.want {
			t.Errorf("%s: got %v, %v; want one object %q", tc.file, m, err, tc.want)
		}
	}
}

func TestAnASCIISTLHasAnObjectPerSolid(t *testing.T) {
	facet := func(z int) string {
		return fmt.Sprintf("facet normal 0 0 1\nouter loop\nvertex 0 0 %d\nvertex 1 0 %d\nvertex 0 1 %d\nendloop\nendfacet\n", z, z, z)
	}
	tests := []struct {
		name, src string
		objects   []string
		tris      []int // per object
		warning   string
	}{
		{"one", "solid a\n" + facet(0) + "endsolid a\n", []string{"a"}, []int{1}, ""},
		{"three", "solid a\n" + facet(0) + "endsolid a\nsolid b\n" + facet(1) + facet(2) + "endsolid b\n  solid c\n" + facet(3) + "endsolid\n",
			[]string{"a", "b", "c"}, []int{1, 2, 1}, ""},
		{"unnamed", "solid\n" + facet(0) + "endsolid\nsolid\n" + facet(1) + "endsolid\n", []string{"x", "x.1"}, []int{1, 1}, ""},
		{"glued", "solidcube\n" + facet(0) + "endsolidcube\n", []string{"cube"}, []int{1}, ""},
		{"trailing", "solid a\n" + facet(0) + "endsolid a\n\ncreated by a tool\n", []string{"a"}, []int{1}, "18 bytes after the last endsolid are not a solid and were ignored"},
		// A name with an escape is still ASCII: names are made printable later.
		{"escape", "solid \x1b[31mred\a\n" + facet(0) + "endsolid\n", []string{"\x1b[31mred\a"}, []int{1}, ""},
	}
	for _, tc := range tests {
		m, err := readSTL(context.Background(), []byte(tc.src), "x")
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if fmt.Sprint(m.Objects) != fmt.Sprint(tc.objects) {
			t.Errorf("%s: objects %q, want %q", tc.name, m.Objects, tc.objects)
		}
		count := make([]int, len(m.Objects))
		for _, o := range m.Object {
			count[o]++
		}
		if fmt.Sprint(count) != fmt.Sprint(tc.tris) {
			t.Errorf("%s: triangles per object %v, want %v", tc.name, count, tc.tris)
		}
		if got := strings.Join(m.Warnings, "; "); got != tc.warning {
			t.Errorf("%s: warnings %q, want %q", tc.name, got, tc.warning)
		}
	}
}

// A binary STL whose header begins "solid" and a line, then has the
// count and float32 corners, is still binary when truncated: the control
// bytes after the first line say so, or a NUL within it (a header padded
// with them).
func TestABinarySTLWithASolidHeaderLineIsBinary(t *testing.T) {
	for _, b := range [][]byte{
		stlBinary("solid cube\n", 1000, stlCube()[:3]),
		// The header padded with NULs, its first newline past them.
		append(stlBinary("solid cube", 1000, stlCube()[:3]), '\n'),
	} {
		_, err := readSTL(context.Background(), b, "x")
		if err == nil || !strings.Contains(err.Error(), "truncated binary STL: 1000 triangles declared, room for 3") {
			t.Errorf("got %v, want the truncated binary error", err)
		}
	}
}

func TestReadASCIISTLErrorsNameTheLine(t *testing.T) {
	facet := "facet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\n"
	tests := []struct {
		src, want string
	}{
		{"solid a\n" + facet + "endsolid a\n", ""},
		{"solid a\n" + facet, "line 8: the file ends before endsolid"},
		{"solid a\n" + strings.Replace(facet, "vertex 1 0 0", "vertex 1 zero 0", 1), `line 5: facet 1: "zero" is not a number`},
		{"solid a\n" + strings.Replace(facet, "vertex 1 0 0", "vertex 1 1e999 0", 1), "line 5: facet 1: corner 2 [1 +Inf 0]: coordinate is NaN or infinite"},
		{"solid a\n" + strings.Replace(facet, "outer loop", "outer", 1), `line 4: facet 1: want loop, got "vertex"`},
		{"solid a\n" + facet + facet + "endfacet\nendsolid\n", `line 16: want facet or endsolid, got "endfacet"`},
		{"solid a\n  \n\n" + facet + "endsolid\n", ""},
		{"solid a\n" + facet + "endsolid a\nsolid b\n" + facet, "line 17: the file ends before endsolid"},
		{"solid a\n" + facet + "endsolid a\nsolid b\n" + strings.Replace(facet, "vertex 0 0 0", "vertex 0 0", 1), `line 14: facet 2: "vertex" is not a number`},
	}
	for _, tc := range tests {
		m, err := readSTL(context.Background(), []byte(tc.src), "x")
		switch {
		case tc.want == "" && (err != nil || len(m.Tris) == 0):
			t.Errorf("%q: got %v, want a triangle", tc.src, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%q: got error %v, want %q", tc.src, err, tc.want)
		}
	}
}

// randomSolids are seeded random solids, some with shared corners, for
// comparing with hschendel/stl.
func randomSolids() []*stl.Solid {
	r := rand.New(rand.NewPCG(1, 1))
	var out []*stl.Solid
	for n := range 8 {
		s := &stl.Solid{Name: fmt.Sprintf("random%d", n)}
		var pool []stl.Vec3
		for range 1 + n*n*7 {
			var t stl.Triangle
			for k := range t.Vertices {
				if len(pool) > 0 && r.IntN(2) == 0 {
					t.Vertices[k] = pool[r.IntN(len(pool))]
					continue
				}
				v := stl.Vec3{float32(r.NormFloat64()), float32(r.NormFloat64() * 1e3), float32(r.NormFloat64() * 1e-3)}
				pool = append(pool, v)
				t.Vertices[k] = v
			}
			s.Triangles = append(s.Triangles, t)
		}
		out = append(out, s)
	}
	return out
}

func TestReadSTLMatchesLibrary(t *testing.T) {
	files := map[string][]byte{
		"cube_ascii.stl":  mustRead(scenes + "cube_ascii.stl"),
		"cube_binary.stl": mustRead(scenes + "cube_binary.stl"),
	}
	for _, s := range randomSolids() {
		for _, ascii := range []bool{false, true} {
			var b bytes.Buffer
			s.IsAscii = ascii
			if err := s.WriteAll(&b); err != nil {
				t.Fatal(err)
			}
			files[fmt.Sprintf("%s ascii=%v", s.Name, ascii)] = b.Bytes()
		}
	}
	for name, b := range files {
		got, err := readSTL(context.Background(), b, "x")
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		want, err := stl.ReadAll(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: the library: %v", name, err)
		}
		if len(got.Tris) != len(want.Triangles) {
			t.Errorf("%s: got %d triangles, want %d", name, len(got.Tris), len(want.Triangles))
			continue
		}
		for i, tri := range want.Triangles {
			g := got.Triangle(i)
			for k, v := range tri.Vertices {
				// The library parses ASCII to float32; this reader to float64.
				if float32(g[k].X) != v[0] || float32(g[k].Y) != v[1] || float32(g[k].Z) != v[2] {
					t.Fatalf("%s: triangle %d corner %d: got %v, want %v", name, i, k, g[k], v)
				}
			}
		}
		if len(got.Verts) > 3*len(got.Tris) || !welded(got) {
			t.Errorf("%s: %d vertices for %d triangles, not welded", name, len(got.Verts), len(got.Tris))
		}
	}
}

// welded reports that no two vertices are equal.
func welded(m *Mesh) bool {
	seen := map[geom.Vec3]bool{}
	for _, v := range m.Verts {
		if seen[v] {
			return false
		}
		seen[v] = true
	}
	return true
}

// FuzzReadSTL: any bytes either fail with an error or give welded
// objects whose indices are in range and whose coordinates are finite,
// allocating no more than the loader's bound.
func FuzzReadSTL(f *testing.F) {
	for _, name := range []string{"cube_binary.stl", "cube_ascii.stl", "bad_inf.stl"} {
		f.Add(mustRead(filepath.Join(scenes, name)))
	}
	f.Add(stlBinary("solid cube", 12, stlCube()))
	f.Add(stlBinary("binary", 1000, stlCube()[:3]))
	f.Add([]byte("solid a\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid a\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		var m *Mesh
		var err error
		alloc := roughAlloc(func() { m, err = readSTL(context.Background(), b, "fuzz") })
		if alloc > hostileAlloc(len(b)) {
			t.Fatalf("%d bytes allocated for %d bytes of file, more than %d", alloc, len(b), hostileAlloc(len(b)))
		}
		if err != nil {
			return
		}
		checkMesh(t, m)
		if len(m.Objects) == 0 || len(m.Object) != len(m.Tris) || !welded(m) {
			t.Fatalf("%d objects for %d triangles (%d owners), welded %v", len(m.Objects), len(m.Tris), len(m.Object), welded(m))
		}
		for _, o := range m.Object {
			if o < 0 || int(o) >= len(m.Objects) {
				t.Fatalf("a triangle of object %d of %d", o, len(m.Objects))
			}
		}
	})
}
