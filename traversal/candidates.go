package traversal

import (
	"cmp"
	"slices"

	"github.com/gloved/gloved/cab"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
)

// Object is what the frame's traversal needs of a scene object: its own
// OBBTree, whether its contact method works from the front of that tree
// (the part each link's box meets) or from the pair alone, and the frame
// coherence that lets a pair be passed over.
type Object interface {
	// Tree is the object's OBBTree.
	Tree() *env.Tree
	// Front reports whether the object's contact method wants each
	// candidate's front.
	Front() bool
	// Clear reports whether link l, now at pose x, is proven to be still
	// farther than the band from the object: its method measured the
	// pair apart in an earlier frame and the link has not moved enough
	// since to have come within the band.
	Clear(l int, x geom.Transform) bool
}

// Candidate is a (link, object) pair of a frame: the link's box, grown by
// the band, meets the object's root box.
type Candidate struct {
	Link, Object int32
	// Clear: the object proved the link still beyond the band (see
	// Object.Clear); the pair has no front, and its method nothing to do.
	Clear bool
	// Front lists the references of the object's tree (nodes, or ^tri
	// for triangle leaves) that the link's box meets, in the tree's
	// left-to-right order: every triangle that meets the link's box is
	// under one of them. The descent stops at the link's own scale: a
	// node no larger than the link's box (by its longest half-extent) is
	// listed and not descended; it stands for the triangles under it,
	// which the method settles, and a triangle is listed when it was
	// reached above that scale and may meet the box (geom.TriOBBMayMeet, which
	// errs toward meeting). Set only when the
	// object's method wants a front.
	Front []int32

	first, n int32 // Front's place in Candidates.refs
}

// Candidates finds each frame's candidate pairs: the traversal stage of
// the frame. For each object it descends the body's refitted hierarchy
// against the object's root box, grown by the band, and for the objects
// whose method wants it, the hierarchy against the object's tree, both
// together, the simultaneous top-down traversal of the CAB paper's section
// 3.2 (after the OBBTree paper's section 5): the larger box is split
// first, and a link meets the tree's nodes down to those of its own size
// that its box meets. Reused across frames it allocates nothing once its
// buffers have grown.
type Candidates struct {
	// Band is the proximity band (m): pairs within it of the object's root
	// box are candidates.
	Band float64
	// List is the frame's candidates, ordered by link, then object.
	List []Candidate
	// BoxTests counts the frame's box and box-triangle tests.
	BoxTests int

	near  SceneQuery // the descent to each object's root box
	links []int32
	stack [][2]int32
	// Per link: whether the front descent is for it, and its candidate's
	// place in List; per hierarchy node: whether any of its links is.
	active []bool
	at     []int32
	nodeOn []bool
	into   intoTree // the descent to the fronts, in its own-scale form
	count  []int32  // per link: refs emitted, then where they start
	refs   []int32
}

// Run finds the frame's candidates for body hierarchy h, refitted for the
// link poses, against objects.
func (c *Candidates) Run(h *cab.Hierarchy, objects []Object, poses []geom.Transform) {
	c.RunOn(h, objects, nil, poses)
}

// RunOn is Run against the objects whose indices in objects are only, in
// increasing order (nil: all): a scene that knows the others are beyond
// the band of every link passes them over.
func (c *Candidates) RunOn(h *cab.Hierarchy, objects []Object, only []int32, poses []geom.Transform) {
	c.List, c.refs, c.BoxTests = c.List[:0], c.refs[:0], 0
	c.grow(h)
	c.near.Margin = c.Band
	n := len(objects)
	if only != nil {
		n = len(only)
	}
	for k := range n {
		o := k
		if only != nil {
			o = int(only[k])
		}
		obj := objects[o]
		tree := obj.Tree()
		root := tree.Bounds()
		c.near.BoxTests = 0
		c.links = c.near.LinksNear(h, &root, c.links[:0])
		c.BoxTests += c.near.BoxTests
		front := false
		for _, l := range c.links {
			cand := Candidate{Link: l, Object: int32(o)}
			switch {
			case obj.Clear(int(l), poses[l]):
				cand.Clear = true
			case obj.Front():
				c.active[l], c.at[l], front = true, int32(len(c.List)), true
			}
			c.List = append(c.List, cand)
		}
		if front {
			c.fronts(h, tree)
		}
	}
	slices.SortFunc(c.List, func(a, b Candidate) int {
		if d := cmp.Compare(a.Link, b.Link); d != 0 {
			return d
		}
		return cmp.Compare(a.Object, b.Object)
	})
	for i := range c.List {
		cand := &c.List[i]
		cand.Front = c.refs[cand.first : cand.first+cand.n : cand.first+cand.n]
	}
}

// grow sizes the per-link and per-node buffers for h.
func (c *Candidates) grow(h *cab.Hierarchy) {
	if n := len(h.Body.Links); len(c.active) != n {
		c.active, c.at, c.count = make([]bool, n), make([]int32, n), make([]int32, n)
	}
	if len(c.nodeOn) != len(h.Nodes) {
		c.nodeOn = make([]bool, len(h.Nodes))
	}
}

// fronts descends h's active links against tree and files each link's
// references, in the order found, as its candidate's front; the active
// links are then cleared.
func (c *Candidates) fronts(h *cab.Hierarchy, tree *env.Tree) {
	on := func(r int32) bool {
		if r < 0 {
			return c.active[^r]
		}
		return c.nodeOn[r]
	}
	for i, n := range h.Nodes { // children come first
		c.nodeOn[i] = on(n.Child[0]) || on(n.Child[1])
	}
	c.into = intoTree{OwnScale: true, Emit: c.into.Emit[:0], boxes: c.into.boxes}
	if on(h.Root) {
		DescendPairs(&c.stack, h.Root, tree.Root, func(a, s int32) (Step, [2]int32) {
			if !on(a) {
				return Prune, [2]int32{}
			}
			return c.into.step(h, tree, a, s)
		})
	}
	c.BoxTests += c.into.BoxTests
	// File the references by link, keeping their order (a counting sort).
	for _, e := range c.into.Emit {
		c.count[e[0]]++
	}
	base := int32(len(c.refs))
	for l, on := range c.active {
		if on {
			c.List[c.at[l]].first, c.List[c.at[l]].n = base, c.count[l]
			base, c.count[l] = base+c.count[l], c.List[c.at[l]].first
		}
	}
	c.refs = slices.Grow(c.refs, len(c.into.Emit))[:int(base)]
	for _, e := range c.into.Emit {
		c.refs[c.count[e[0]]] = e[1]
		c.count[e[0]]++
	}
	clear(c.count)
	clear(c.active)
}
