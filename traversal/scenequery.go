package traversal

import (
	"math"

	"github.com/gloved/gloved/cab"
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
	under  []int32 // the descent of a scene subtree inside a link's box
	grown  geom.OBB
	into   intoTree
}

// box returns the box of hierarchy reference a grown by the margin.
func (q *SceneQuery) box(h *cab.Hierarchy, a int32) *geom.OBB {
	return grownBox(h, a, q.Margin, &q.grown)
}

// grownBox returns the box of reference a grown by margin (scratch holds
// it): a link's box by the margin itself, a node's by √3 times it. A
// node's box holds its links' boxes, but grown along its own axes it need
// not hold theirs grown along their axes, whose corners reach the
// margin·√3 from the ungrown box; grown by that much it does, so no pair
// is lost below it. With no margin it is the box itself.
func grownBox(h *cab.Hierarchy, a int32, margin float64, scratch *geom.OBB) *geom.OBB {
	b := h.Box(a)
	if margin <= 0 {
		return b
	}
	m := margin
	if a >= 0 {
		m *= math.Sqrt(3)
	}
	*scratch = *b
	scratch.Half = scratch.Half.Add(geom.Vec3{X: m, Y: m, Z: m})
	return scratch
}

// Run finds every (link, triangle) pair whose link box meets the triangle.
// The hierarchy's boxes must be refitted for the frame.
func (q *SceneQuery) Run(h *cab.Hierarchy, scene *env.Tree) int {
	q.into = intoTree{Margin: q.Margin, Emit: q.into.Emit[:0], boxes: q.into.boxes}
	DescendPairs(&q.stack, h.Root, scene.Root, func(a, s int32) (Step, [2]int32) { return q.into.step(h, scene, a, s) })
	q.Pairs, q.BoxTests = q.Pairs[:0], q.into.BoxTests
	for _, e := range q.into.Emit {
		q.appendUnder(scene, e[0], e[1])
	}
	return len(q.Pairs)
}

// appendUnder pairs link with every triangle under scene reference s (a
// node the descent stopped at, or a triangle).
func (q *SceneQuery) appendUnder(scene *env.Tree, link, s int32) {
	st := append(q.under[:0], s)
	for len(st) > 0 {
		r := st[len(st)-1]
		st = st[:len(st)-1]
		if tri, ok := env.Leaf(r); ok {
			q.Pairs = append(q.Pairs, LinkTri{link, tri})
			continue
		}
		st = append(st, scene.Nodes[r].Child[1], scene.Nodes[r].Child[0])
	}
	q.under = st
}

// contains reports whether box b lies wholly inside box a: along each of
// a's axes, b's extent about its center fits within a's from b's center.
// b's triangles are then inside a too (a box bounds its triangles), which
// saves the descent below b the box tests it would pass anyway. It is a
// strict test: boxes touching a's faces from inside go on to the descent.
func contains(a, b *geom.OBB) bool {
	d := b.Center.Sub(a.Center)
	for i, h := range [3]float64{a.Half.X, a.Half.Y, a.Half.Z} {
		u := a.Axis(i)
		r := math.Abs(d.Dot(u)) + math.Abs(u.Dot(b.Axis(0)))*b.Half.X + math.Abs(u.Dot(b.Axis(1)))*b.Half.Y + math.Abs(u.Dot(b.Axis(2)))*b.Half.Z
		if !(r < h) {
			return false
		}
	}
	return true
}

// LinksNear appends to out the links whose leaf boxes, grown by margin,
// meet box, descending the hierarchy with the query's stack, and returns
// it. It is the broad phase for a scene object treated as one solid.
func (q *SceneQuery) LinksNear(h *cab.Hierarchy, box *geom.OBB, out []int32) []int32 {
	// box is the fixed second member of every pair, never split.
	DescendPairs(&q.stack, h.Root, 0, func(a, _ int32) (Step, [2]int32) {
		q.BoxTests++
		if geom.BoxesDisjoint(q.box(h, a), box) {
			return Prune, [2]int32{}
		}
		if a < 0 {
			out = append(out, ^a)
			return Prune, [2]int32{}
		}
		return SplitA, h.Nodes[a].Child
	})
	return out
}
