package experiments

import (
	"github.com/gloved/gloved/cab"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
)

// LinkPair is a candidate pair of links (of two bodies, or of one).
type LinkPair struct{ A, B int32 }

// BodyQuery descends two refitted hierarchies together (two hands, two
// chains), or one against itself.
type BodyQuery struct {
	Pairs    []LinkPair
	BoxTests int
	// SkipAdjacent leaves out pairs of links joined by a joint (which
	// touch at the joint by construction) in self tests.
	SkipAdjacent bool
	stack        [][2]int32
}

// Run finds every (link of a, link of b) pair whose leaf boxes overlap.
func (q *BodyQuery) Run(a, b *cab.Hierarchy) int {
	q.Pairs, q.BoxTests = q.Pairs[:0], 0
	q.descend(a, b, a.Root, b.Root, false)
	return len(q.Pairs)
}

// Self finds every pair of distinct links of h whose leaf boxes overlap,
// each pair once with A < B: for every internal node, its two subtrees
// against each other.
func (q *BodyQuery) Self(h *cab.Hierarchy) int {
	q.Pairs, q.BoxTests = q.Pairs[:0], 0
	for _, n := range h.Nodes {
		q.descend(h, h, n.Child[0], n.Child[1], true)
	}
	return len(q.Pairs)
}

// descend adds the overlapping leaf pairs under references ra of a and rb
// of b.
func (q *BodyQuery) descend(a, b *cab.Hierarchy, ra, rb int32, self bool) {
	env.DescendPairs(&q.stack, ra, rb, func(x, y int32) (env.Step, [2]int32) {
		bx, by := a.Box(x), b.Box(y)
		q.BoxTests++
		if geom.BoxesDisjoint(bx, by) {
			return env.Prune, [2]int32{}
		}
		switch {
		case x < 0 && y < 0:
			q.add(a, ^x, ^y, self)
			return env.Prune, [2]int32{}
		case x < 0:
			bx = nil // a link is a leaf: never split
		case y < 0:
			by = nil
		}
		if geom.SplitFirst(bx, by) {
			return env.SplitA, a.Nodes[x].Child
		}
		return env.SplitB, b.Nodes[y].Child
	})
}

// add records the pair of links la of a and lb of b; in a self test, in
// order, unless they are adjacent and SkipAdjacent is set.
func (q *BodyQuery) add(a *cab.Hierarchy, la, lb int32, self bool) {
	if self {
		if q.SkipAdjacent && a.Body.Adjacent(la, lb) {
			return
		}
		la, lb = min(la, lb), max(la, lb)
	}
	q.Pairs = append(q.Pairs, LinkPair{la, lb})
}
