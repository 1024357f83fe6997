package experiments

import (
	"github.com/gloved/gloved/cab"
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

func (q *BodyQuery) descend(a, b *cab.Hierarchy, ra, rb int32, self bool) {
	st := append(q.stack[:0], [2]int32{ra, rb})
	for len(st) > 0 {
		p := st[len(st)-1]
		st = st[:len(st)-1]
		x, y := p[0], p[1]
		bx, by := a.Box(x), b.Box(y)
		q.BoxTests++
		if geom.BoxesDisjoint(bx, by) {
			continue
		}
		switch {
		case x < 0 && y < 0:
			la, lb := ^x, ^y
			if self {
				if q.SkipAdjacent && (a.Body.Links[la].Parent == int(lb) || a.Body.Links[lb].Parent == int(la)) {
					continue
				}
				la, lb = min(la, lb), max(la, lb)
			}
			q.Pairs = append(q.Pairs, LinkPair{la, lb})
		case y < 0 || (x >= 0 && bx.Size() >= by.Size()):
			ch := a.Nodes[x].Child
			st = append(st, [2]int32{ch[1], y}, [2]int32{ch[0], y})
		default:
			ch := b.Nodes[y].Child
			st = append(st, [2]int32{x, ch[1]}, [2]int32{x, ch[0]})
		}
	}
	q.stack = st
}
