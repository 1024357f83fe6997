package cab

import (
	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
)

// LinkTri is a candidate pair: a link and a scene triangle whose boxes
// (the link's leaf box, the triangle itself) overlap.
type LinkTri struct{ Link, Tri int32 }

// SceneQuery descends a refitted hierarchy and the scene's OBBTree
// together. It owns its stack and pair list: reused across frames it
// allocates nothing once they have grown.
type SceneQuery struct {
	Pairs    []LinkTri
	BoxTests int
	// Margin grows every hierarchy box by this much in each direction, so
	// that the candidates include triangles within Margin of a link (the
	// narrow phase's proximity band).
	Margin float64
	stack  [][2]int32
	grown  geom.OBB
}

// box returns the box of hierarchy reference a, grown by the margin.
func (q *SceneQuery) box(h *Hierarchy, a int32) *geom.OBB {
	b := h.Box(a)
	if q.Margin <= 0 {
		return b
	}
	q.grown = *b
	q.grown.Half = q.grown.Half.Add(mgl64.Vec3{q.Margin, q.Margin, q.Margin})
	return &q.grown
}

// Run finds every (link, triangle) pair whose link box meets the triangle.
// The hierarchy's boxes must be refitted for the frame.
func (q *SceneQuery) Run(h *Hierarchy, scene *env.Tree) int {
	q.Pairs, q.BoxTests = q.Pairs[:0], 0
	env.DescendPairs(&q.stack, h.Root, scene.Root, func(a, s int32) (env.Step, [2]int32) { return q.step(h, scene, a, s) })
	return len(q.Pairs)
}

// step tests hierarchy reference a against scene reference s: a box or a
// triangle, which is its own leaf.
func (q *SceneQuery) step(h *Hierarchy, scene *env.Tree, a, s int32) (env.Step, [2]int32) {
	box := q.box(h, a)
	q.BoxTests++
	var sceneBox *geom.OBB
	if tri, ok := env.Leaf(s); ok {
		if !geom.TriOBB(scene.Mesh.Triangle(int(tri)), *box) {
			return env.Prune, [2]int32{}
		}
		if a < 0 {
			q.Pairs = append(q.Pairs, LinkTri{^a, tri})
			return env.Prune, [2]int32{}
		}
	} else {
		sceneBox = &scene.Nodes[s].Box
		if geom.BoxesDisjoint(box, sceneBox) {
			return env.Prune, [2]int32{}
		}
	}
	if a < 0 {
		box = nil // a link is a leaf: never split
	}
	if geom.SplitFirst(box, sceneBox) {
		return env.SplitA, h.Nodes[a].Child
	}
	return env.SplitB, scene.Nodes[s].Child
}

// LinksNear appends to out the links whose leaf boxes, grown by margin,
// meet box, descending the hierarchy with the query's stack, and returns
// it. It is the broad phase for a scene object treated as one solid.
func (q *SceneQuery) LinksNear(h *Hierarchy, box *geom.OBB, out []int32) []int32 {
	// box is the fixed second member of every pair, never split.
	env.DescendPairs(&q.stack, h.Root, 0, func(a, _ int32) (env.Step, [2]int32) {
		q.BoxTests++
		if geom.BoxesDisjoint(q.box(h, a), box) {
			return env.Prune, [2]int32{}
		}
		if a < 0 {
			out = append(out, ^a)
			return env.Prune, [2]int32{}
		}
		return env.SplitA, h.Nodes[a].Child
	})
	return out
}
