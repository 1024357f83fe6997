package bch

import (
	"fmt"
	"math"

	"github.com/gloved/gloved/geom"
)

// Variant is what a tree's nodes hold.
type Variant int

const (
	// Triangles is the paper's "all projected triangles" tree: split
	// until a node holds one triangle or is narrower than the threshold.
	Triangles Variant = iota
	// Single is one cylinder: the tree stops at its root.
	Single
	// Contour is the paper's contour tree: it holds the outline of the
	// projected triangles' union (pieces no longer than twice the
	// threshold), split until a node is narrower than the threshold.
	Contour
)

func (v Variant) String() string {
	switch v {
	case Triangles:
		return "triangles"
	case Single:
		return "single"
	case Contour:
		return "contour"
	}
	return fmt.Sprintf("Variant(%d)", int(v))
}

// Options choose a tree's variant and where splitting stops.
type Options struct {
	Variant Variant
	// Threshold is the radius (m) at or below which a node is not split.
	Threshold float64
}

// DefaultOptions are the paper's: all projected triangles, 1 cm.
var DefaultOptions = Options{Variant: Triangles, Threshold: 0.01}

// Node is a cylinder of the tree: the disk Circle in the tree's plane
// (coordinates along U and V) swept from Lo to Hi along the axis.
type Node struct {
	Circle geom.Circle
	Lo, Hi float64
	// Child are the two halves; -1 for a leaf.
	Child [2]int32
	// Items[First : First+Count] are the node's triangles.
	First, Count int32
	Depth        int32 // the root's is 0
}

// Leaf reports whether the node has no children.
func (n *Node) Leaf() bool { return n.Child[0] < 0 }

// Tree is a bounding cylinder hierarchy over a triangle set, Nodes[0] its
// root. Build rebuilds it in place: once its buffers have grown to a
// triangle set's size, a rebuild allocates nothing.
type Tree struct {
	// Axis is the cylinders' axis (unit); U and V span the plane the
	// triangles are projected onto.
	Axis, U, V geom.Vec3
	Nodes      []Node
	// Items index the triangles (or, for a contour tree, the outline's
	// pieces: Piece), each node's a contiguous run.
	Items []int32

	// Per triangle: projected vertices (3 each), centroid, extent along
	// the axis. Scratch: a node's points, the nodes left to split, the
	// shuffle's state.
	pu, pv, cu, cv, lo, hi []float64
	xs, ys                 []float64
	todo                   []int32
	seed                   uint64
	outline                outline
}

// Piece returns piece i of a contour tree's outline, its ends in the
// tree's plane (coordinates along U and V).
func (t *Tree) Piece(i int32) (a, b [2]float64) {
	s := &t.outline.segs[i]
	return [2]float64{s.au, s.av}, [2]float64{s.bu, s.bv}
}

// Build makes t the tree of tris about axis (any non-zero direction),
// reusing t's storage.
func (t *Tree) Build(tris []geom.Triangle, axis geom.Vec3, o Options) error {
	// A tree that fails to build is empty: it collides with nothing
	// rather than with its last pose.
	t.Nodes, t.Items = t.Nodes[:0], t.Items[:0]
	if len(tris) == 0 {
		return fmt.Errorf("bch: no triangles")
	}
	if !(o.Threshold >= 0) || math.IsInf(o.Threshold, 0) {
		return fmt.Errorf("bch: threshold %v: want a radius >= 0", o.Threshold)
	}
	l := axis.Len()
	if !(l > 0) || math.IsInf(l, 0) {
		return fmt.Errorf("bch: axis %v: want a finite non-zero direction", axis)
	}
	t.Axis = axis.Mul(1 / l)
	t.U, t.V = plane(t.Axis)
	t.project(tris)
	items := len(tris)
	if o.Variant == Contour {
		t.outline.build(t, 2*o.Threshold)
		if items = t.pieces(); items == 0 {
			return fmt.Errorf("bch: the triangles project to no area about axis %v", t.Axis)
		}
	}
	t.Nodes = t.Nodes[:0]
	t.Items = grow(t.Items, items)
	for i := range t.Items {
		t.Items[i] = int32(i)
	}
	// In a random order (Fisher-Yates on a fixed xorshift stream, so a
	// tree is the same for the same triangles): Welzl's expected linear
	// time needs one, a mesh lists its triangles in space order, and the
	// splits keep every node's run in an order as random.
	t.seed = 0x9e3779b97f4a7c15
	for j := len(t.Items) - 1; j > 0; j-- {
		k := int(t.next() % uint64(j+1))
		t.Items[j], t.Items[k] = t.Items[k], t.Items[j]
	}
	t.Nodes = append(t.Nodes, Node{Count: int32(items), Child: [2]int32{-1, -1}})
	t.todo = append(t.todo[:0], 0)
	for len(t.todo) > 0 {
		i := t.todo[len(t.todo)-1]
		t.todo = t.todo[:len(t.todo)-1]
		t.bound(i)
		n := &t.Nodes[i]
		if o.Variant == Single || n.Count == 1 || n.Circle.Radius <= o.Threshold {
			continue
		}
		mid := t.split(n.First, n.Count)
		first, count, depth := n.First, n.Count, n.Depth+1
		a, b := int32(len(t.Nodes)), int32(len(t.Nodes)+1)
		t.Nodes[i].Child = [2]int32{a, b}
		t.Nodes = append(t.Nodes,
			Node{First: first, Count: mid, Depth: depth, Child: [2]int32{-1, -1}},
			Node{First: first + mid, Count: count - mid, Depth: depth, Child: [2]int32{-1, -1}})
		t.todo = append(t.todo, b, a)
	}
	return nil
}

// plane returns two unit directions spanning the plane normal to a (unit).
func plane(a geom.Vec3) (u, v geom.Vec3) {
	k := 0
	for i := 1; i < 3; i++ {
		if math.Abs(a.At(i)) < math.Abs(a.At(k)) {
			k = i
		}
	}
	e := [3]geom.Vec3{{X: 1}, {Y: 1}, {Z: 1}}[k]
	u = a.Cross(e).Normalize()
	return u, a.Cross(u)
}

// project writes each triangle's projection: its vertices and centroid
// in the plane, its extent along the axis.
func (t *Tree) project(tris []geom.Triangle) {
	n := len(tris)
	t.pu, t.pv = grow(t.pu, 3*n), grow(t.pv, 3*n)
	t.cu, t.cv = grow(t.cu, n), grow(t.cv, n)
	t.lo, t.hi = grow(t.lo, n), grow(t.hi, n)
	for i, tr := range tris {
		lo, hi := math.Inf(1), math.Inf(-1)
		cu, cv := 0.0, 0.0
		for k, p := range tr {
			u, v, w := p.Dot(t.U), p.Dot(t.V), p.Dot(t.Axis)
			t.pu[3*i+k], t.pv[3*i+k] = u, v
			cu, cv = cu+u, cv+v
			lo, hi = math.Min(lo, w), math.Max(hi, w)
		}
		t.cu[i], t.cv[i], t.lo[i], t.hi[i] = cu/3, cv/3, lo, hi
	}
}

// pieces makes the outline's pieces the items, in place of the
// triangles: each as a degenerate triangle (its ends, the second twice),
// centred on its midpoint, with its triangle's extent along the axis.
func (t *Tree) pieces() int {
	segs := t.outline.segs
	n := len(segs)
	t.pu, t.pv = grow(t.pu, 3*n), grow(t.pv, 3*n)
	t.cu, t.cv = grow(t.cu, n), grow(t.cv, n)
	t.lo, t.hi = grow(t.lo, n), grow(t.hi, n)
	for i, s := range segs {
		t.pu[3*i], t.pv[3*i] = s.au, s.av
		t.pu[3*i+1], t.pv[3*i+1] = s.bu, s.bv
		t.pu[3*i+2], t.pv[3*i+2] = s.bu, s.bv
		t.cu[i], t.cv[i] = 0.5*(s.au+s.bu), 0.5*(s.av+s.bv)
		t.lo[i], t.hi[i] = s.lo, s.hi
	}
	return n
}

// bound sets node i's cylinder: the smallest disk holding its triangles'
// projected vertices (taken in the node's triangle order, which Build
// made random) and their extent along the axis.
func (t *Tree) bound(i int32) {
	n := &t.Nodes[i]
	items := t.Items[n.First : n.First+n.Count]
	m := 3 * len(items)
	t.xs, t.ys = grow(t.xs, m), grow(t.ys, m)
	n.Lo, n.Hi = math.Inf(1), math.Inf(-1)
	for j, it := range items {
		for k := range 3 {
			t.xs[3*j+k], t.ys[3*j+k] = t.pu[3*it+int32(k)], t.pv[3*it+int32(k)]
		}
		n.Lo, n.Hi = math.Min(n.Lo, t.lo[it]), math.Max(n.Hi, t.hi[it])
	}
	n.Circle = geom.MinCircle(t.xs, t.ys, nil)
}

// next is a xorshift64 step.
func (t *Tree) next() uint64 {
	t.seed ^= t.seed << 13
	t.seed ^= t.seed >> 7
	t.seed ^= t.seed << 17
	return t.seed
}

// split orders Items[first:first+count] into the triangles whose
// centroids lie below the splitting plane and those above it, and returns
// how many are below: the plane is normal to the wider of the plane's two
// axes over the centroids, through their mean. When every centroid falls
// on one side (equal centroids), the run is halved.
func (t *Tree) split(first, count int32) int32 {
	items := t.Items[first : first+count]
	lu, hu, lv, hv := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	mu, mv := 0.0, 0.0
	for _, it := range items {
		u, v := t.cu[it], t.cv[it]
		lu, hu, lv, hv = math.Min(lu, u), math.Max(hu, u), math.Min(lv, v), math.Max(hv, v)
		mu, mv = mu+u, mv+v
	}
	c, mean := t.cu, mu/float64(count)
	if hv-lv > hu-lu {
		c, mean = t.cv, mv/float64(count)
	}
	below := 0
	for j, it := range items {
		if c[it] < mean {
			items[j], items[below] = items[below], it
			below++
		}
	}
	if below == 0 || below == len(items) {
		return count / 2
	}
	return int32(below)
}

// grow returns s with length n, reusing its storage when it can.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}
