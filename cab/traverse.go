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
	st := append(q.stack[:0], [2]int32{h.Root, scene.Root})
	for len(st) > 0 {
		p := st[len(st)-1]
		st = st[:len(st)-1]
		a, s := p[0], p[1]
		box := q.box(h, a)
		q.BoxTests++
		if tri, ok := env.Leaf(s); ok {
			if !geom.TriOBB(scene.Mesh.Triangle(int(tri)), *box) {
				continue
			}
			if a < 0 {
				q.Pairs = append(q.Pairs, LinkTri{^a, tri})
				continue
			}
			ch := h.Nodes[a].Child
			st = append(st, [2]int32{ch[1], s}, [2]int32{ch[0], s})
			continue
		}
		sn := &scene.Nodes[s]
		if geom.BoxesDisjoint(box, &sn.Box) {
			continue
		}
		if a < 0 || sn.Box.Size() > box.Size() {
			st = append(st, [2]int32{a, sn.Child[1]}, [2]int32{a, sn.Child[0]})
		} else {
			ch := h.Nodes[a].Child
			st = append(st, [2]int32{ch[1], s}, [2]int32{ch[0], s})
		}
	}
	q.stack = st
	return len(q.Pairs)
}

// LinksNear appends to out the links whose leaf boxes, grown by margin,
// meet box, descending the hierarchy with the query's stack, and returns
// it. It is the broad phase for a scene object treated as one solid.
func (q *SceneQuery) LinksNear(h *Hierarchy, box *geom.OBB, out []int32) []int32 {
	st := append(q.stack[:0], [2]int32{h.Root, 0})
	for len(st) > 0 {
		a := st[len(st)-1][0]
		st = st[:len(st)-1]
		b := q.box(h, a)
		q.BoxTests++
		if geom.BoxesDisjoint(b, box) {
			continue
		}
		if a < 0 {
			out = append(out, ^a)
			continue
		}
		ch := h.Nodes[a].Child
		st = append(st, [2]int32{ch[1], 0}, [2]int32{ch[0], 0})
	}
	q.stack = st
	return out
}
