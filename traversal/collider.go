package traversal

import (
	"cmp"
	"slices"

	"github.com/gloved/gloved/env"
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
	// MaxPairs, when above 0, stops the query once it finds a pair more
	// than that, keeping MaxPairs of them (and sets AtMaxPairs): two
	// meshes that overlap everywhere meet in a number of pairs that grows
	// with the product of their sizes.
	MaxPairs int
	// AtMaxPairs says the last query found more than MaxPairs pairs and
	// stopped: Pairs holds MaxPairs of them.
	AtMaxPairs bool
	// Stop, if set, is asked every stopEvery steps whether to give the
	// query up (a signal to the command running it): two meshes that
	// overlap everywhere take minutes. Stopped says the last query was.
	Stop    func() bool
	Stopped bool
	steps   int
	// Pairs are the intersecting (triangle of A, triangle of B) pairs of the
	// last query, indices in file order, sorted.
	Pairs [][2]int32
	Counters
	stack [][2]int32

	// B's boxes and triangles placed by the pose, each computed at most once
	// per query: cached[i] == gen marks entry i as current.
	boxB   []geom.OBB
	triB   []geom.Triangle
	boxGen []uint32
	triGen []uint32
	gen    uint32
	pose   geom.Transform
	meshB  *env.Mesh
	treeB  *env.Tree
	boxesA env.BoxCache // A's packed boxes decoded
}

// Collide finds the triangle pairs of a and b that intersect when b is
// placed in a's frame by pose. It descends both trees together with an
// explicit stack, always splitting the larger box, and returns the number of
// pairs found (also in c.Pairs).
func (c *Collider) Collide(a, b *env.Tree, pose geom.Transform) int {
	c.Pairs, c.Counters, c.AtMaxPairs, c.Stopped, c.steps = c.Pairs[:0], Counters{}, false, false, 0
	need := a.Depth + b.Depth + 2
	if cap(c.stack) < need {
		c.stack = make([][2]int32, 0, need)
	}
	c.place(b, pose)
	DescendPairs(&c.stack, a.Root, b.Root, func(ra, rb int32) (Step, [2]int32) { return c.step(a, b, ra, rb) })
	slices.SortFunc(c.Pairs, func(x, y [2]int32) int {
		if d := cmp.Compare(x[0], y[0]); d != 0 {
			return d
		}
		return cmp.Compare(x[1], y[1])
	})
	return len(c.Pairs)
}

// step tests one pair of references of a and b: two triangles, a triangle
// and a box, or two boxes. Triangles are their own leaves and never split.
func (c *Collider) step(a, b *env.Tree, ra, rb int32) (Step, [2]int32) {
	if c.steps++; c.Stop != nil && c.steps%stopEvery == 0 && c.Stop() {
		c.Stopped = true
		return Stop, [2]int32{}
	}
	ta, aLeaf := env.Leaf(ra)
	tb, bLeaf := env.Leaf(rb)
	var boxA, boxB *geom.OBB
	switch {
	case aLeaf && bLeaf:
		c.TriTests++
		if geom.TriTri(a.Mesh.Triangle(int(ta)), c.placedTri(tb)) {
			c.Pairs = append(c.Pairs, [2]int32{ta, tb})
			if c.FirstContact {
				return Stop, [2]int32{}
			}
			if c.MaxPairs > 0 && len(c.Pairs) > c.MaxPairs {
				c.Pairs, c.AtMaxPairs = c.Pairs[:c.MaxPairs], true
				return Stop, [2]int32{}
			}
		}
		return Prune, [2]int32{}
	case aLeaf:
		c.BoxTests++
		boxB = c.placedBox(rb)
		if !geom.TriOBBMayMeet(a.Mesh.Triangle(int(ta)), boxB) {
			return Prune, [2]int32{}
		}
	case bLeaf:
		c.BoxTests++
		boxA = a.BoxIn(ra, &c.boxesA)
		if !geom.TriOBBMayMeet(c.placedTri(tb), boxA) {
			return Prune, [2]int32{}
		}
	default:
		c.BoxTests++
		boxA, boxB = a.BoxIn(ra, &c.boxesA), c.placedBox(rb)
		if geom.BoxesDisjoint(boxA, boxB) {
			return Prune, [2]int32{}
		}
	}
	if geom.SplitFirst(boxA, boxB) {
		return SplitA, a.Nodes[ra].Child
	}
	return SplitB, b.Nodes[rb].Child
}

// stopEvery is how many steps a query takes between asking Stop.
const stopEvery = 4096

// place readies the per-query cache of B's placed boxes and triangles.
func (c *Collider) place(b *env.Tree, pose geom.Transform) {
	c.pose, c.meshB, c.treeB = pose, b.Mesh, b
	if len(c.boxGen) < len(b.Nodes) {
		c.boxB, c.boxGen = make([]geom.OBB, len(b.Nodes)), make([]uint32, len(b.Nodes))
	}
	if len(c.triGen) < len(b.Mesh.Tris) {
		c.triB, c.triGen = make([]geom.Triangle, len(b.Mesh.Tris)), make([]uint32, len(b.Mesh.Tris))
	}
	c.gen++
	if c.gen == 0 {
		clear(c.boxGen)
		clear(c.triGen)
		c.gen = 1
	}
}

func (c *Collider) placedBox(i int32) *geom.OBB {
	if c.boxGen[i] != c.gen {
		c.boxGen[i] = c.gen
		c.boxB[i] = c.treeB.Box(i).Transformed(c.pose)
	}
	return &c.boxB[i]
}

func (c *Collider) placedTri(i int32) geom.Triangle {
	if c.triGen[i] != c.gen {
		c.triGen[i] = c.gen
		c.triB[i] = c.meshB.Triangle(int(i)).Transformed(c.pose)
	}
	return c.triB[i]
}

// BruteForce tests every triangle of a against every triangle of b placed
// by pose: the slow, obviously complete reference for Collide.
func BruteForce(a, b *env.Mesh, pose geom.Transform) [][2]int32 {
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
