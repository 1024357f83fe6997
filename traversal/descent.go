package traversal

// Step is what a pair descent does with a pair of references it reached.
type Step uint8

const (
	// Prune: the pair cannot meet; go no deeper.
	Prune Step = iota
	// SplitA: descend into the first reference's children.
	SplitA
	// SplitB: descend into the second reference's children.
	SplitB
	// Stop: end the whole descent.
	Stop
)

// DescendPairs descends two binary trees together, depth first from the
// pair (a, b), with the caller's explicit stack, which it grows as needed
// and hands back for reuse: a warm descent allocates nothing. visit decides
// each pair reached; with SplitA or SplitB it also returns the children of
// the reference to split, the first of which is visited first. Only visit
// reads the references, so any trees with int32 references will do: an
// OBBTree's nodes and triangles (Leaf), package cab's nodes and links.
// geom.SplitFirst is the rule for which side to split.
func DescendPairs(stack *[][2]int32, a, b int32, visit func(a, b int32) (Step, [2]int32)) {
	st := append((*stack)[:0], [2]int32{a, b})
	for len(st) > 0 {
		p := st[len(st)-1]
		st = st[:len(st)-1]
		switch step, ch := visit(p[0], p[1]); step {
		case SplitA:
			st = append(st, [2]int32{ch[1], p[1]}, [2]int32{ch[0], p[1]})
		case SplitB:
			st = append(st, [2]int32{p[0], ch[1]}, [2]int32{p[0], ch[0]})
		case Stop:
			st = st[:0]
		}
	}
	*stack = st
}
