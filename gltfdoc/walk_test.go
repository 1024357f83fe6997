package gltfdoc

import (
	"encoding/base64"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

type obj = map[string]any

// document is a .gltf of members m, with bin as its one buffer in a data
// URI (none if bin is nil).
func document(t testing.TB, m obj, bin []byte) []byte {
	t.Helper()
	m["asset"] = obj{"version": "2.0"}
	if bin != nil {
		m["buffers"] = []any{obj{"byteLength": len(bin), "uri": "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(bin)}}
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func read(t testing.TB, b []byte) *File {
	t.Helper()
	f, err := Read(b, nil, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestPlaceComposesTransformsDownFromTheRoots: a node's world transform
// is its parent's times its own (translation × rotation × scale, or its
// matrix); a root's is its own; a node without a transform has its
// parent's.
func TestPlaceComposesTransformsDownFromTheRoots(t *testing.T) {
	f := read(t, document(t, obj{"nodes": []any{
		obj{"translation": []any{1, 2, 3}, "children": []any{1}},
		obj{"rotation": []any{0, 0, math.Sqrt2 / 2, math.Sqrt2 / 2}, "scale": []any{2, 2, 2}, "children": []any{2}},
		obj{"children": []any{3}},
		obj{"matrix": []any{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 5, 1}},
	}}, nil))
	root := mgl64.Translate3D(1, 2, 3)
	turned := root.Mul4(mgl64.HomogRotate3DZ(math.Pi / 2)).Mul4(mgl64.Scale3D(2, 2, 2))
	want := []mgl64.Mat4{root, turned, turned, turned.Mul4(mgl64.Translate3D(0, 0, 5))}
	got := make([]mgl64.Mat4, len(want))
	roots, err := f.Roots()
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Place(roots, 0, func(n int32, w *mgl64.Mat4) error { got[n] = *w; return nil }); err != nil {
		t.Fatal(err)
	}
	if got[0] != root {
		t.Errorf("root: got %v, want its own transform %v exactly", got[0], root)
	}
	for n := range want {
		if !near(got[n], want[n], 1e-12) {
			t.Errorf("node %d: got %v, want %v", n, got[n], want[n])
		}
	}
}

// TestWalkRefusesCyclesAndSharedChildren: a node graph must be a forest.
func TestWalkRefusesCyclesAndSharedChildren(t *testing.T) {
	tests := []struct {
		name         string
		roots, nodes []any
		says         string
	}{
		{"cycle", []any{0}, []any{obj{"children": []any{1}}, obj{"children": []any{0}}}, "node 1's child: node 0: appears twice"},
		{"self", []any{0}, []any{obj{"children": []any{0}}}, "node 0's child: node 0: appears twice"},
		{"shared", []any{0, 1}, []any{obj{"children": []any{2}}, obj{"children": []any{2}}, obj{}}, "node 1's child: node 2: appears twice"},
		{"missing", []any{0}, []any{obj{"children": []any{5}}}, "node 0's child: node 5: out of range (1 nodes)"},
		{"missing root", []any{3}, []any{obj{}}, "node 3: out of range (1 nodes)"},
	}
	for _, tc := range tests {
		f := read(t, document(t, obj{"nodes": tc.nodes, "scenes": []any{obj{"nodes": tc.roots}}}, nil))
		roots, err := f.Roots()
		if err != nil {
			t.Fatal(err)
		}
		err = f.Walk(roots, func(int32, int) error { return nil })
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.says)
		}
	}
}

// TestParentlessIgnoresTheScenes: the nodes nobody names as a child,
// whatever the scene lists.
func TestParentlessIgnoresTheScenes(t *testing.T) {
	f := read(t, document(t, obj{
		"scenes": []any{obj{"nodes": []any{1}}},
		"nodes":  []any{obj{"children": []any{1}}, obj{}, obj{"children": []any{3}}, obj{}},
	}, nil))
	var got []int32
	for n := range f.Parentless() {
		got = append(got, n)
	}
	if len(got) != 2 || got[0] != 0 || got[1] != 2 {
		t.Errorf("got %v, want [0 2]", got)
	}
}

// TestRotationIsScaledToUnitLength: a quaternion off unit length turns
// as the unit one does instead of scaling.
func TestRotationIsScaledToUnitLength(t *testing.T) {
	f := read(t, document(t, obj{"nodes": []any{obj{"rotation": []any{0, 0, 2, 2}}}}, nil))
	want := mgl64.HomogRotate3DZ(math.Pi / 2)
	if got := f.Nodes[0].Local; got == nil || !near(*got, want, 1e-15) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// near reports whether a and b differ by at most tol in every entry.
func near(a, b mgl64.Mat4, tol float64) bool {
	for k := range a {
		if math.Abs(a[k]-b[k]) > tol {
			return false
		}
	}
	return true
}
