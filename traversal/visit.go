package traversal

import (
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
)

// TouchesTriangle reports whether any triangle of t meets tri (given in
// t's frame), descending with the caller's stack, which it may grow.
func TouchesTriangle(t *env.Tree, tri geom.Triangle, stack *[]int32) bool {
	hit := false
	visit(t, stack, func(b geom.OBB) bool { return geom.TriOBBMayMeet(tri, &b) }, func(k int32) bool {
		hit = geom.TriTri(t.Mesh.Triangle(int(k)), tri)
		return !hit
	})
	return hit
}

// VisitOBB calls fn for every triangle of t that meets box (in t's frame),
// descending with the caller's stack; fn returns false to stop early.
func VisitOBB(t *env.Tree, box *geom.OBB, stack *[]int32, fn func(tri int32) bool) {
	visit(t, stack, func(b geom.OBB) bool { return !geom.BoxesDisjoint(&b, box) }, func(k int32) bool {
		if !geom.TriOBBMayMeet(t.Mesh.Triangle(int(k)), box) {
			return true
		}
		return fn(k)
	})
}

// visit descends the tree into the nodes whose boxes pass node and calls
// leaf for each triangle reached, until leaf returns false.
func visit(t *env.Tree, stack *[]int32, node func(geom.OBB) bool, leaf func(int32) bool) {
	st := append((*stack)[:0], t.Root)
	defer func() { *stack = st[:0] }()
	for len(st) > 0 {
		r := st[len(st)-1]
		st = st[:len(st)-1]
		if k, ok := env.Leaf(r); ok {
			if !leaf(k) {
				return
			}
			continue
		}
		n := &t.Nodes[r]
		if node(t.Box(r)) {
			st = append(st, n.Child[1], n.Child[0])
		}
	}
}
