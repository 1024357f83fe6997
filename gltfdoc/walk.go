package gltfdoc

import (
	"fmt"
	"iter"
	"math"
	"slices"

	"github.com/go-gl/mathgl/mgl64"
)

// Roots returns the scene's root nodes: those of the default scene, else
// of the first, else (no scene) every node that is nobody's child.
func (f *File) Roots() (iter.Seq[int32], error) {
	switch {
	case f.scene >= 0 && int(f.scene) >= len(f.scenes):
		return nil, fmt.Errorf("scene %d: out of range (%d scenes)", f.scene, len(f.scenes))
	case f.scene >= 0:
		return slices.Values(f.list(f.scenes[f.scene])), nil
	case len(f.scenes) > 0:
		return slices.Values(f.list(f.scenes[0])), nil
	}
	return f.Parentless(), nil
}

// Parentless returns every node that is nobody's child, whatever the
// scenes say.
func (f *File) Parentless() iter.Seq[int32] {
	child := make([]bool, len(f.Nodes))
	for i := range f.Nodes {
		for _, c := range f.Children(int32(i)) {
			if c >= 0 && int(c) < len(child) {
				child[c] = true
			}
		}
	}
	return func(yield func(int32) bool) {
		for i, c := range child {
			if !c && !yield(int32(i)) {
				return
			}
		}
	}
}

// Walk visits every node below roots once, depth first, with its depth
// (1 for a root), failing on a node out of range or reached twice (a
// cycle, or a child with two parents). It walks iteratively, however deep
// the graph.
func (f *File) Walk(roots iter.Seq[int32], visit func(n int32, depth int) error) error {
	return f.walk(roots, 0, false, func(n int32, _ *mgl64.Mat4, depth int) error { return visit(n, depth) })
}

// Place is Walk with each node's world transform, its ancestors' local
// transforms composed down from its root; depth (at most the graph's, as
// Walk found it) sizes the stack once.
func (f *File) Place(roots iter.Seq[int32], depth int, visit func(n int32, world *mgl64.Mat4) error) error {
	return f.walk(roots, depth, true, func(n int32, world *mgl64.Mat4, _ int) error { return visit(n, world) })
}

// walk is Walk and Place. Its stack is the current path, made with room
// for depth nodes. With place, visit gets each node's world transform;
// without, nil.
func (f *File) walk(roots iter.Seq[int32], depth int, place bool, visit func(n int32, world *mgl64.Mat4, depth int) error) error {
	type frame struct{ node, next int32 } // next: the child to visit next
	path := make([]frame, 0, depth)
	var worlds []mgl64.Mat4
	if place {
		worlds = make([]mgl64.Mat4, 0, depth)
	}
	seen := make([]bool, len(f.Nodes))
	enter := func(n int32) error {
		if n < 0 || int(n) >= len(seen) {
			return fmt.Errorf("node %d: out of range (%d nodes)", n, len(seen))
		}
		if seen[n] {
			return fmt.Errorf("node %d: appears twice in the node graph (cycle or shared child)", n)
		}
		seen[n] = true
		path = append(path, frame{node: n})
		if !place {
			return visit(n, nil, len(path))
		}
		w := f.Nodes[n].world(worlds)
		for _, x := range w {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return fmt.Errorf("node %d %q: its transform, with its ancestors', overflows a float64: a scale, translation or matrix too large", n, f.Nodes[n].Name)
			}
		}
		worlds = append(worlds, w)
		return visit(n, &worlds[len(worlds)-1], len(path))
	}
	for r := range roots {
		if err := enter(r); err != nil {
			return err
		}
		for len(path) > 0 {
			fr := &path[len(path)-1]
			children := f.Children(fr.node)
			if int(fr.next) == len(children) {
				path = path[:len(path)-1]
				worlds = worlds[:min(len(worlds), len(path))]
				continue
			}
			n, c := fr.node, children[fr.next]
			fr.next++
			if err := enter(c); err != nil {
				return fmt.Errorf("node %d's child: %w", n, err)
			}
		}
	}
	return nil
}

// world is the node's world transform below the world transforms of its
// ancestors, the last its parent's: its local transform at a root.
func (n *Node) world(ancestors []mgl64.Mat4) mgl64.Mat4 {
	switch {
	case len(ancestors) == 0 && n.Local == nil:
		return mgl64.Ident4()
	case len(ancestors) == 0:
		return *n.Local
	case n.Local == nil:
		return ancestors[len(ancestors)-1]
	}
	return ancestors[len(ancestors)-1].Mul4(*n.Local)
}
