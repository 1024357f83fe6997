package env

import (
	"cmp"
	"slices"

	"github.com/gloved/gloved/geom"
)

// Counters are the work a query did, the N_v and N_p of the paper's cost
// equation (1).
type Counters struct {
	BoxTests int // box-box and box-triangle overlap tests
	TriTests int // triangle-triangle tests
}

// Collider runs tree-vs-tree queries. It owns the traversal stack and the
// pair list, so a Collider reused across frames allocates nothing once they
// have grown to the workload. Not safe for concurrent use.
type Collider struct {
	// FirstContact stops the query at the first intersecting triangle pair.
	FirstContact bool
	// Pairs are the intersecting (triangle of A, triangle of B) pairs of the
	// last query, indices in file order, sorted.
	Pairs [][2]int32
	Counters
	stack [][2]int32
}

// Collide finds the triangle pairs of a and b that intersect when b is
// placed in a's frame by pose. It descends both trees together with an
// explicit stack, always splitting the larger box, and returns the number of
// pairs found (also in c.Pairs).
func (c *Collider) Collide(a, b *Tree, pose geom.Transform) int {
	c.Pairs, c.Counters = c.Pairs[:0], Counters{}
	need := a.Depth + b.Depth + 2
	if cap(c.stack) < need {
		c.stack = make([][2]int32, 0, need)
	}
	st := append(c.stack[:0], [2]int32{a.Root, b.Root})
	for len(st) > 0 {
		p := st[len(st)-1]
		st = st[:len(st)-1]
		ra, rb := p[0], p[1]
		ta, aLeaf := Leaf(ra)
		tb, bLeaf := Leaf(rb)
		switch {
		case aLeaf && bLeaf:
			c.TriTests++
			if geom.TriTri(a.Mesh.Triangle(int(ta)), b.Mesh.Triangle(int(tb)).Transformed(pose)) {
				c.Pairs = append(c.Pairs, [2]int32{ta, tb})
				if c.FirstContact {
					st = st[:0]
				}
			}
			continue
		case aLeaf:
			c.BoxTests++
			if !geom.TriOBB(a.Mesh.Triangle(int(ta)), b.Nodes[rb].Box.Transformed(pose)) {
				continue
			}
		case bLeaf:
			c.BoxTests++
			if !geom.TriOBB(b.Mesh.Triangle(int(tb)).Transformed(pose), a.Nodes[ra].Box) {
				continue
			}
		default:
			c.BoxTests++
			ba, bb := &a.Nodes[ra].Box, &b.Nodes[rb].Box
			if boxesDisjoint(ba, bb, pose) {
				continue
			}
		}
		// Descend the larger box; a triangle is never split.
		if bLeaf || (!aLeaf && a.Nodes[ra].Box.Size() >= b.Nodes[rb].Box.Size()) {
			ch := a.Nodes[ra].Child
			st = append(st, [2]int32{ch[1], rb}, [2]int32{ch[0], rb})
		} else {
			ch := b.Nodes[rb].Child
			st = append(st, [2]int32{ra, ch[1]}, [2]int32{ra, ch[0]})
		}
	}
	c.stack = st
	slices.SortFunc(c.Pairs, func(x, y [2]int32) int {
		if d := cmp.Compare(x[0], y[0]); d != 0 {
			return d
		}
		return cmp.Compare(x[1], y[1])
	})
	return len(c.Pairs)
}

// boxesDisjoint runs Gottschalk's test for box bb of B, placed by pose,
// against box ba of A: R = Aᵀ·pose.R·B and T = Aᵀ·(pose(c_B) - c_A).
func boxesDisjoint(ba, bb *geom.OBB, pose geom.Transform) bool {
	at := ba.Axes.Transpose()
	r := at.Mul3(pose.R.Mul3(bb.Axes))
	t := at.Mul3x1(pose.Apply(bb.Center).Sub(ba.Center))
	return geom.Disjoint(r, t, ba.Half, bb.Half)
}

// BruteForce tests every triangle of a against every triangle of b placed
// by pose: the slow, obviously complete reference for Collide.
func BruteForce(a, b *Mesh, pose geom.Transform) [][2]int32 {
	var pairs [][2]int32
	moved := make([]geom.Triangle, len(b.Tris))
	for j := range b.Tris {
		moved[j] = b.Triangle(j).Transformed(pose)
	}
	for i := range a.Tris {
		ta := a.Triangle(i)
		for j := range moved {
			if geom.TriTri(ta, moved[j]) {
				pairs = append(pairs, [2]int32{int32(i), int32(j)})
			}
		}
	}
	return pairs
}
