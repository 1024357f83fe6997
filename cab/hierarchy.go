package cab

import (
	"fmt"

	"github.com/gloved/gloved/geom"
)

// Node is an internal node of a hierarchy.
type Node struct {
	// Child: >= 0 another node, < 0 the leaf of link ^c.
	Child [2]int32
	// The children meet at the junction: the mean of the origins (joints)
	// of links junction[J0:J1] of the hierarchy's junction list.
	J0, J1 int32
	// The node's links are order[L0:L1].
	L0, L1 int32
}

// Hierarchy is a binary bounding-box hierarchy over a body. Nodes are
// stored children first, so refitting runs through them in order; the
// root is the last node (or, for a one-link body, the leaf ^0).
type Hierarchy struct {
	Body  *Body
	Nodes []Node
	Root  int32
	// Boxes[i] is node i's box and Leaves[l] link l's box after a refit,
	// in world coordinates. Axis-aligned strategies leave identity axes.
	Boxes  []geom.OBB
	Leaves []geom.OBB
	// Order lists the links so that every node's links are contiguous.
	Order    []int32
	junction []int32
	depth    int
	// levels: each node's depth from the root (the root's is 0), then
	// each link's, at len(Nodes)+link.
	levels   []int32
	children [][]int32
}

// Build makes the hierarchy of a body. Unbranched runs of links are split
// in the middle; a link's child subtrees (siblings) are merged in order by
// a balanced split (five fingers: (thumb, index) with (middle, (ring,
// little))); then the link itself joins its merged children.
func Build(b *Body) (*Hierarchy, error) {
	n := len(b.Links)
	if n == 0 {
		return nil, fmt.Errorf("cab: body %s has no links", b.Name)
	}
	h := &Hierarchy{Body: b, Leaves: make([]geom.OBB, n), children: make([][]int32, n)}
	roots := 0
	for i, l := range b.Links {
		switch {
		case l.Parent < 0:
			roots++
		case l.Parent >= i:
			return nil, fmt.Errorf("cab: body %s: link %d's parent %d does not come before it", b.Name, i, l.Parent)
		default:
			h.children[l.Parent] = append(h.children[l.Parent], int32(i))
		}
	}
	if roots != 1 {
		return nil, fmt.Errorf("cab: body %s has %d roots, want 1", b.Name, roots)
	}
	root := int32(0)
	for i, l := range b.Links {
		if l.Parent < 0 {
			root = int32(i)
		}
	}
	h.Root, h.depth = h.subtree(root)
	h.Boxes = make([]geom.OBB, len(h.Nodes))
	h.levels = make([]int32, len(h.Nodes)+n)
	h.setLevel(h.Root, 0)
	return h, nil
}

// setLevel records the depth of reference ref and of everything under it.
func (h *Hierarchy) setLevel(ref, level int32) {
	if ref < 0 {
		h.levels[int32(len(h.Nodes))+^ref] = level
		return
	}
	h.levels[ref] = level
	for _, c := range h.Nodes[ref].Child {
		h.setLevel(c, level+1)
	}
}

// Level returns a reference's depth below the root (the root's is 0).
func (h *Hierarchy) Level(ref int32) int {
	if ref < 0 {
		return int(h.levels[int32(len(h.Nodes))+^ref])
	}
	return int(h.levels[ref])
}

// subtree builds the hierarchy under link l and returns its reference and
// depth (in child links from it to its deepest leaf).
func (h *Hierarchy) subtree(l int32) (int32, int) {
	// Follow the unbranched run from l.
	run := []int32{l}
	for k := l; len(h.children[k]) == 1; {
		k = h.children[k][0]
		run = append(run, k)
	}
	last := run[len(run)-1]
	ref, d := h.chain(run)
	if kids := h.children[last]; len(kids) > 0 {
		// The run and its last link's children meet at the children's joints.
		sib, sd := h.siblings(kids)
		ref, d = h.merge(ref, sib, kids), 1+max(d, sd)
	}
	return ref, d
}

// chain builds a run of links, each the parent of the next, split in the
// middle: the halves meet at the joint of the second half's first link.
func (h *Hierarchy) chain(run []int32) (int32, int) {
	if len(run) == 1 {
		h.Order = append(h.Order, run[0])
		return ^run[0], 0
	}
	m := len(run) / 2
	a, da := h.chain(run[:m])
	b, db := h.chain(run[m:])
	return h.merge(a, b, run[m:m+1]), 1 + max(da, db)
}

// siblings merges the subtrees of links that share a parent, in order,
// with a balanced split; the halves meet at the mean of their joints.
func (h *Hierarchy) siblings(kids []int32) (int32, int) {
	if len(kids) == 1 {
		return h.subtree(kids[0])
	}
	m := len(kids) / 2
	a, da := h.siblings(kids[:m])
	b, db := h.siblings(kids[m:])
	return h.merge(a, b, kids), 1 + max(da, db)
}

// merge appends the node joining a and b at the mean of the joints of
// junction links, and returns its reference. The node's links are the
// union of the children's, which are contiguous in Order and adjacent.
func (h *Hierarchy) merge(a, b int32, junction []int32) int32 {
	lo, hi := h.span(a)
	lo2, hi2 := h.span(b)
	n := Node{Child: [2]int32{a, b}, L0: min(lo, lo2), L1: max(hi, hi2)}
	if n.L1-n.L0 != (hi-lo)+(hi2-lo2) {
		panic("cab: subtree links are not contiguous") // an invariant of the builder
	}
	n.J0 = int32(len(h.junction))
	h.junction = append(h.junction, junction...)
	n.J1 = int32(len(h.junction))
	h.Nodes = append(h.Nodes, n)
	return int32(len(h.Nodes) - 1)
}

// span returns the range of Order a reference covers.
func (h *Hierarchy) span(ref int32) (int32, int32) {
	if ref >= 0 {
		return h.Nodes[ref].L0, h.Nodes[ref].L1
	}
	for i, l := range h.Order {
		if l == ^ref {
			return int32(i), int32(i + 1)
		}
	}
	panic("cab: leaf not in order")
}

// junctionPoint returns the world point where node n's children meet.
func (h *Hierarchy) junctionPoint(n *Node, poses []geom.Transform) geom.Vec3 {
	var p geom.Vec3
	for _, l := range h.junction[n.J0:n.J1] {
		p = p.Add(poses[l].T)
	}
	return p.Mul(1 / float64(n.J1-n.J0))
}

// Box returns the box of a reference: a node's or a leaf's.
func (h *Hierarchy) Box(ref int32) *geom.OBB {
	if ref >= 0 {
		return &h.Boxes[ref]
	}
	return &h.Leaves[^ref]
}

// Depth returns the longest root-to-leaf path in child links.
func (h *Hierarchy) Depth() int { return h.depth }

// Links returns the links under a reference.
func (h *Hierarchy) Links(ref int32) []int32 {
	lo, hi := h.span(ref)
	return h.Order[lo:hi]
}
