package env

import (
	"fmt"
	"math"

	"github.com/gloved/gloved/geom"
)

// Validate checks the tree's invariants: n-1 nodes, every node reached once
// from the root, every triangle in exactly one leaf, orthonormal finite axes,
// non-negative extents, every box containing every vertex of the triangles
// below it, and Depth equal to the longest root-to-leaf path. It is meant for
// tests and costs O(n·depth).
func (t *Tree) Validate() error {
	n := len(t.Mesh.Tris)
	if len(t.Nodes) != max(n-1, 0) {
		return fmt.Errorf("env: tree has %d nodes for %d triangles, want %d", len(t.Nodes), n, n-1)
	}
	seenNode := make([]bool, len(t.Nodes))
	seenTri := make([]bool, n)
	type frame struct {
		ref   int32
		depth int
	}
	var path []int32 // ancestors of the current node, for containment
	var st []frame
	st = append(st, frame{t.Root, 0})
	maxDepth := 0
	for len(st) > 0 {
		f := st[len(st)-1]
		st = st[:len(st)-1]
		path = path[:f.depth]
		if tri, ok := Leaf(f.ref); ok {
			if tri < 0 || int(tri) >= n || seenTri[tri] {
				return fmt.Errorf("env: leaf triangle %d out of range or repeated", tri)
			}
			seenTri[tri] = true
			maxDepth = max(maxDepth, f.depth)
			for _, a := range path {
				box := t.Box(a)
				tol := 1e-9 * (box.Size() + box.Center.Len() + 1)
				for _, v := range t.Mesh.Triangle(int(tri)) {
					if !box.Contains(v, tol) {
						return fmt.Errorf("env: node %d's box does not contain vertex %v of triangle %d", a, v, tri)
					}
				}
			}
			continue
		}
		if int(f.ref) >= len(t.Nodes) || seenNode[f.ref] {
			return fmt.Errorf("env: node %d out of range or reached twice", f.ref)
		}
		seenNode[f.ref] = true
		if err := checkBox(t.Box(f.ref)); err != nil {
			return fmt.Errorf("env: node %d: %w", f.ref, err)
		}
		path = append(path, f.ref)
		for _, c := range t.Nodes[f.ref].Child {
			st = append(st, frame{c, f.depth + 1})
		}
	}
	for i, s := range seenTri {
		if !s {
			return fmt.Errorf("env: triangle %d is in no leaf", i)
		}
	}
	if maxDepth != t.Depth {
		return fmt.Errorf("env: Depth is %d, longest path is %d", t.Depth, maxDepth)
	}
	return nil
}

func checkBox(b geom.OBB) error {
	for i := range 3 {
		if h := b.Half.At(i); !(h >= 0) || math.IsInf(h, 0) {
			return fmt.Errorf("half-extent %d is %v", i, h)
		}
		for j := range 3 {
			d := b.Axis(i).Dot(b.Axis(j))
			if i == j {
				d--
			}
			if !(math.Abs(d) < orthonormalTol) {
				return fmt.Errorf("axes not orthonormal: a%d·a%d off by %g", i, j, d)
			}
		}
	}
	if b.Axes.Det() < 0 {
		return fmt.Errorf("axes are left-handed")
	}
	return nil
}

// orthonormalTol is how far a box's axes may be from orthonormal (dot
// products) and still pass Validate: rounding in the fit stays far below.
const orthonormalTol = 1e-9
