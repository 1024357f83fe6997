package env

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gloved/gloved/geom"
)

// TestObjectTrisListsEachObjectsTrianglesInOrder: for objects whose
// triangles are interleaved at random, ObjectTris lists exactly the
// triangles a scan of Object finds, in increasing order; after Append it
// lists the new objects' too, and ObjectMesh holds those triangles.
func TestObjectTrisListsEachObjectsTrianglesInOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	m := &Mesh{Objects: []string{"a", "b", "c", "d"}, Verts: make([]geom.Vec3, 3)}
	for range 200 {
		m.Tris = append(m.Tris, [3]int32{0, 1, 2})
		m.Object = append(m.Object, int32(r.IntN(3))) // "d" has none
	}
	check := func() {
		t.Helper()
		for o := range m.Objects {
			var want []int32
			for i, ob := range m.Object {
				if int(ob) == o {
					want = append(want, int32(i))
				}
			}
			if got := m.ObjectTris(o); !slices.Equal(got, want) {
				t.Fatalf("object %d: ObjectTris %v, want %v", o, got, want)
			}
			sub, orig := m.ObjectMesh(o)
			if !slices.Equal(orig, want) || len(sub.Tris) != len(want) {
				t.Fatalf("object %d: ObjectMesh of %d triangles from %v, want %v", o, len(sub.Tris), orig, want)
			}
		}
	}
	check()
	m.Append(Box("e", geom.Vec3{}, geom.Vec3{X: 1, Y: 1, Z: 1}))
	check()
	if n := len(m.ObjectTris(4)); n != 12 {
		t.Fatalf("the appended box has %d triangles listed, want 12", n)
	}
}

// TestUniqueNamesRenamesEachLaterObjectOfAName: each object whose name an
// earlier one has takes NAME.N, the least N no object has (cut to fit
// MaxObjectName); the first of each name, and the names already unique,
// are kept; Given keeps the names as given, which Named still answers.
func TestUniqueNamesRenamesEachLaterObjectOfAName(t *testing.T) {
	for _, tc := range []struct {
		in, want []string
		warns    bool
	}{
		{[]string{"a", "b"}, []string{"a", "b"}, false},
		{[]string{"ball", "ball", "ball.1", "ball"}, []string{"ball", "ball.2", "ball.1", "ball.3"}, true},
		{[]string{"x", "x.1", "x", "x.1"}, []string{"x", "x.1", "x.2", "x.1.1"}, true},
	} {
		m := &Mesh{Objects: slices.Clone(tc.in)}
		w := m.UniqueNames()
		if !slices.Equal(m.Objects, tc.want) || (w != "") != tc.warns {
			t.Errorf("%q: got %q (warning %q), want %q", tc.in, m.Objects, w, tc.want)
		}
		if tc.warns && !slices.Equal(m.Given, tc.in) || !tc.warns && m.Given != nil {
			t.Errorf("%q: given %q", tc.in, m.Given)
		}
		for o, name := range tc.in {
			if !m.Named(o, name) || !m.Named(o, m.Objects[o]) {
				t.Errorf("%q: object %d is not named %q and %q", tc.in, o, name, m.Objects[o])
			}
		}
	}
	// A name of MaxObjectName bytes is cut to make room for its number.
	long := strings.Repeat("é", MaxObjectName/2)
	m := &Mesh{Objects: []string{long, long}}
	m.UniqueNames()
	if n := m.Objects[1]; len(n) > MaxObjectName || !strings.HasSuffix(n, ".1") || !utf8.ValidString(n) {
		t.Errorf("a long name renamed %d bytes %q", len(n), n)
	}
}
