package traversal

import (
	"github.com/gloved/gloved/cab"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
)

// intoTree is a refitted hierarchy's descent into an OBBTree, the larger
// box split first (a link, a leaf, is never split), filing in Emit each
// (link, tree reference) where it stops for that link: a triangle the
// link's box may meet, or a node it stops at. SceneQuery and Candidates
// both run it; they differ in where a node stops the descent.
type intoTree struct {
	// Margin grows the hierarchy's boxes (grownBox).
	Margin float64
	// OwnScale stops at a node no larger than the link's box (by its
	// longest half-extent); otherwise at a node wholly inside it.
	OwnScale bool
	Emit     [][2]int32
	BoxTests int
	grown    geom.OBB
	boxes    env.BoxCache // packed tree boxes decoded
}

// step tests hierarchy reference a against tree reference s (a box or a
// triangle, which is its own leaf).
func (d *intoTree) step(h *cab.Hierarchy, t *env.Tree, a, s int32) (Step, [2]int32) {
	box := grownBox(h, a, d.Margin, &d.grown)
	d.BoxTests++
	var treeBox *geom.OBB
	if tri, ok := env.Leaf(s); ok {
		if !geom.TriOBBMayMeet(t.Mesh.Triangle(int(tri)), box) {
			return Prune, [2]int32{}
		}
		if a < 0 {
			d.Emit = append(d.Emit, [2]int32{^a, s})
			return Prune, [2]int32{}
		}
	} else {
		treeBox = t.BoxIn(s, &d.boxes)
		if geom.BoxesDisjoint(box, treeBox) {
			return Prune, [2]int32{}
		}
		if a < 0 && d.stops(box, treeBox) {
			d.Emit = append(d.Emit, [2]int32{^a, s})
			return Prune, [2]int32{}
		}
	}
	if a < 0 {
		box = nil // a link is a leaf: never split
	}
	if geom.SplitFirst(box, treeBox) {
		return SplitA, h.Nodes[a].Child
	}
	return SplitB, t.Nodes[s].Child
}

// stops reports whether the descent stops for a link (box link) at a tree
// node (box node) that meets it.
func (d *intoTree) stops(link, node *geom.OBB) bool {
	if d.OwnScale {
		return node.Size() <= link.Size()
	}
	// Every triangle under the node is in the link's box: each would pass
	// TriOBB, so none is tested.
	return contains(link, node)
}
