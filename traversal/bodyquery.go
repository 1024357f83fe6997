package traversal

import (
	"github.com/gloved/gloved/cab"
	"github.com/gloved/gloved/geom"
)

// LinkPair is a candidate pair of links (of two bodies, or of one).
type LinkPair struct{ A, B int32 }

// RefPair is a pair of hierarchy references (nodes, or leaves ^link), the
// first of body A, the second of body B.
type RefPair struct{ A, B int32 }

// BodyQuery descends two refitted hierarchies together (two hands, two
// chains), or one against itself. It owns its stack and lists: reused
// across frames it allocates nothing once they have grown.
type BodyQuery struct {
	// Pairs are the (link of a, link of b) pairs whose leaf boxes overlap.
	Pairs []LinkPair
	// Limited are the overlapping pairs a depth limit stopped at: a node
	// at the limit, which was not split (RunLimited). Their boxes overlap
	// as they are, without the Margin.
	Limited  []RefPair
	BoxTests int
	// SkipAdjacent leaves out pairs of links joined by a joint (which
	// touch at the joint by construction) in self tests.
	SkipAdjacent bool
	// Margin grows the first hierarchy's boxes as SceneQuery.Margin does,
	// so that the pairs include links within Margin of each other.
	Margin float64
	stack  [][2]int32
	grown  geom.OBB
}

// Run finds every (link of a, link of b) pair whose leaf boxes overlap.
func (q *BodyQuery) Run(a, b *cab.Hierarchy) int {
	q.RunLimited(a, b, -1)
	return len(q.Pairs)
}

// RunLimited is Run with a maximum depth, the level of detail of the
// bounding cylinder hierarchy's section 5.1: a node maxDepth below its
// root or deeper is not split, and when its box overlaps the other side's
// the pair goes to Limited instead (a collision at that level). maxDepth
// < 0 is no limit. It reports whether the limit stopped the descent. A
// limited query visits the pairs the unlimited one does until it stops
// at the limit, so every pair of overlapping links the unlimited query
// finds is in Pairs or under a pair of Limited (pairs only within the
// Margin may be neither).
func (q *BodyQuery) RunLimited(a, b *cab.Hierarchy, maxDepth int) bool {
	q.Pairs, q.Limited, q.BoxTests = q.Pairs[:0], q.Limited[:0], 0
	q.descend(a, b, a.Root, b.Root, false, maxDepth)
	return len(q.Limited) > 0
}

// Self finds every pair of distinct links of h whose leaf boxes overlap,
// each pair once with A < B: for every internal node, its two subtrees
// against each other.
func (q *BodyQuery) Self(h *cab.Hierarchy) int {
	q.Pairs, q.Limited, q.BoxTests = q.Pairs[:0], q.Limited[:0], 0
	for _, n := range h.Nodes {
		q.descend(h, h, n.Child[0], n.Child[1], true, -1)
	}
	return len(q.Pairs)
}

// descend adds the overlapping leaf pairs under references ra of a and rb
// of b.
func (q *BodyQuery) descend(a, b *cab.Hierarchy, ra, rb int32, self bool, maxDepth int) {
	limit := func(h *cab.Hierarchy, r int32) bool { return r >= 0 && maxDepth >= 0 && h.Level(r) >= maxDepth }
	DescendPairs(&q.stack, ra, rb, func(x, y int32) (Step, [2]int32) {
		bx, by := grownBox(a, x, q.Margin, &q.grown), b.Box(y)
		q.BoxTests++
		if geom.BoxesDisjoint(bx, by) {
			return Prune, [2]int32{}
		}
		switch {
		case x < 0 && y < 0:
			q.add(a, ^x, ^y, self)
			return Prune, [2]int32{}
		case limit(a, x) || limit(b, y):
			// A collision at this level is of the boxes themselves: grown
			// boxes that overlap only within the margin are near, not
			// colliding, and near pairs are not sought below a limit.
			if q.Margin <= 0 || !geom.BoxesDisjoint(a.Box(x), by) {
				q.Limited = append(q.Limited, RefPair{x, y})
			}
			return Prune, [2]int32{}
		case x < 0:
			bx = nil // a link is a leaf: never split
		case y < 0:
			by = nil
		}
		if geom.SplitFirst(bx, by) {
			return SplitA, a.Nodes[x].Child
		}
		return SplitB, b.Nodes[y].Child
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
