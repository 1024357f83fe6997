package bch

// Overlaps reports whether two nodes' cylinders share a point: their
// disks meet and their extents along the axis meet. The trees must share
// an axis and plane (built about the same axis).
func Overlaps(a, b *Node) bool {
	return a.Lo <= b.Hi && b.Lo <= a.Hi && a.Circle.Overlaps(b.Circle)
}

// Result is how a query of two trees ended.
type Result struct {
	// Hit: two overlapping leaves, or two overlapping nodes at the depth
	// limit, were found.
	Hit bool
	// Level is the deeper of the two nodes' depths that gave the hit (or
	// the deepest pair tested, when there was none).
	Level int
	// Limited: the depth limit stopped the descent before a pair of
	// leaves.
	Limited bool
	// Tests counts the cylinder pairs tested.
	Tests int
}

// Query walks trees a and b (built about the same axis) together and
// stops at the first collision: two overlapping leaves, or two
// overlapping nodes one of which is at depth maxDepth (below 0: no
// limit), the level of detail of the paper's section 5.1. Of two
// overlapping nodes it splits the wider unless that one is a leaf. A
// limited query visits the pairs an unlimited one does, in the same
// order, until it stops, so it denies no collision a deeper one finds.
// stack is the caller's (nil works; a reused one makes the query
// allocation-free).
func Query(a, b *Tree, maxDepth int, stack *[][2]int32) Result {
	var res Result
	if len(a.Nodes) == 0 || len(b.Nodes) == 0 {
		return res
	}
	var local [][2]int32
	if stack == nil {
		stack = &local
	}
	st := append((*stack)[:0], [2]int32{0, 0})
	defer func() { *stack = st[:0] }()
	atLimit := func(n *Node) bool { return maxDepth >= 0 && int(n.Depth) >= maxDepth }
	for len(st) > 0 {
		p := st[len(st)-1]
		st = st[:len(st)-1]
		na, nb := &a.Nodes[p[0]], &b.Nodes[p[1]]
		res.Tests++
		res.Level = max(res.Level, int(na.Depth), int(nb.Depth))
		if !Overlaps(na, nb) {
			continue
		}
		la, lb := na.Leaf(), nb.Leaf()
		if (la && lb) || atLimit(na) || atLimit(nb) {
			res.Hit = true
			res.Level = max(int(na.Depth), int(nb.Depth))
			res.Limited = !la || !lb
			return res
		}
		if !la && (lb || na.Circle.Radius >= nb.Circle.Radius) {
			st = append(st, [2]int32{na.Child[1], p[1]}, [2]int32{na.Child[0], p[1]})
		} else {
			st = append(st, [2]int32{p[0], nb.Child[1]}, [2]int32{p[0], nb.Child[0]})
		}
	}
	return res
}
