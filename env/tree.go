package env

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"
	"unsafe"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
)

// Leaf reports whether child reference c names a triangle, and which.
func Leaf(c int32) (tri int32, ok bool) { return ^c, c < 0 }

// Tree is an OBBTree over a mesh's triangles: n triangles give n-1 internal
// nodes in one flat array, the root at index 0 (or, for a single triangle,
// Root = ^0 and no nodes).
type Tree struct {
	Mesh  *Mesh
	Nodes []Node
	Root  int32
	// Origin is where packed boxes' float32 centres are measured from: the
	// middle of the triangles' axis-aligned bounds.
	Origin geom.Vec3
	// boxes holds the nodes' boxes, or packed does (Layout).
	boxes  []geom.OBB
	packed []packedBox
	// A packed tree keeps no box for a node whose children are both
	// triangles (two nodes in five): bottom has its bit set, and its box
	// is made from the two triangles when asked (pairBox). packed holds
	// the others' in node order; rank counts them before each 64 nodes.
	bottom []uint64
	rank   []int32
	Depth  int // longest root-to-leaf path, counted in child links
	Stats  geom.FitStats
	// single is the box of a single-triangle tree, fitted once by Build:
	// a scene of thousands of one-triangle objects asks every object's
	// Bounds each frame.
	single geom.OBB
}

// BuildOptions configures Build.
type BuildOptions struct {
	Fit     geom.FitMode // geom.FitHull (the paper's), FitSurface, or FitAxisAligned (an AABB tree)
	Layout  Layout       // how the boxes are kept: LayoutAuto packs them from PackFrom triangles
	Workers int          // goroutines; 0 means GOMAXPROCS
}

// parallelMin is the smallest group handed to another goroutine.
const parallelMin = 2048

// Build builds the tree top-down (section 4): fit a box to the group's
// triangles, split the box's longest axis at the mean of the triangle
// centers, falling back to the second and then the shortest axis when all
// centers fall on one side, and recurse to single-triangle leaves. A group
// whose centers coincide on every axis is split in half by file order, the
// one departure from the paper (which keeps such a group as a multi-triangle
// leaf). Subtrees are built in parallel; the layout is deterministic: a node
// over k triangles owns the next k-1 slots, its left subtree first.
func Build(m *Mesh, opt BuildOptions) (*Tree, error) {
	return BuildContext(context.Background(), m, opt)
}

// BuildContext is Build, given up, with ctx's error, soon after ctx ends:
// every node looks whether it has (a million triangles take seconds).
func BuildContext(ctx context.Context, m *Mesh, opt BuildOptions) (*Tree, error) {
	n := len(m.Tris)
	if n == 0 {
		return nil, fmt.Errorf("env: build: %w", ErrEmpty)
	}
	if int64(n) > int64(^uint32(0)>>1) {
		return nil, errors.New("env: build: more than 2^31-1 triangles")
	}
	t := &Tree{Mesh: m, Root: ^0}
	if n == 1 {
		t.single = singleBounds(m)
		return t, nil
	}
	lo, hi := geom.Vec3{X: math.Inf(1), Y: math.Inf(1), Z: math.Inf(1)}, geom.Vec3{X: math.Inf(-1), Y: math.Inf(-1), Z: math.Inf(-1)}
	for _, tri := range m.Tris {
		for _, v := range tri {
			p := m.Verts[v]
			if !(p.MaxAbs() <= MaxBuildCoordinate) {
				return nil, fmt.Errorf("env: build: %w", errFarVertex)
			}
			lo = geom.Vec3{X: math.Min(lo.X, p.X), Y: math.Min(lo.Y, p.Y), Z: math.Min(lo.Z, p.Z)}
			hi = geom.Vec3{X: math.Max(hi.X, p.X), Y: math.Max(hi.Y, p.Y), Z: math.Max(hi.Z, p.Z)}
		}
	}
	t.Origin = lo.Add(hi).Mul(0.5)
	t.Nodes = make([]Node, n-1)
	if opt.Layout == LayoutPacked || opt.Layout == LayoutAuto && n >= PackFrom {
		t.packed = make([]packedBox, n-1)
	} else {
		t.boxes = make([]geom.OBB, n-1)
	}
	t.Root = 0
	b := builder{tree: t, centers: make([]geom.Vec3, n), order: make([]int32, n), logSize: make([]float32, n), fit: opt.Fit, stop: watch(ctx), vlo: math.MaxInt32, vhi: -1}
	defer b.stop.close()
	for i := range n {
		for _, v := range m.Tris[i] {
			b.vlo, b.vhi = min(b.vlo, v), max(b.vhi, v)
		}
		tri := m.Triangle(i)
		b.centers[i] = tri.Centroid()
		b.order[i] = int32(i)
		e := max(tri[1].Sub(tri[0]).LenSqr(), tri[2].Sub(tri[1]).LenSqr(), tri[0].Sub(tri[2]).LenSqr())
		b.logSize[i] = float32(0.5 * math.Log(max(e, 1e-300)))
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	b.spare = make(chan *worker, workers-1)
	for range workers - 1 {
		b.spare <- nil // made on first use
	}
	w := b.newWorker()
	b.build(w, 0, n, 0, 0)
	b.wg.Wait()
	b.merge(w)
	for range workers - 1 {
		if w := <-b.spare; w != nil {
			b.merge(w)
		}
	}
	if b.stop.set.Load() {
		return nil, fmt.Errorf("env: build: %w", ctx.Err())
	}
	if t.packed != nil {
		t.compact()
	}
	return t, nil
}

type builder struct {
	tree    *Tree
	centers []geom.Vec3
	order   []int32
	logSize []float32 // per triangle: the log of its longest edge
	// vlo, vhi are the least and greatest vertex the triangles use: a
	// worker's stamps span them alone, so that an object of a scene of
	// thousands costs its own vertices, not the scene's.
	vlo, vhi int32
	fit      geom.FitMode
	spare    chan *worker // idle workers for extra goroutines (nil: not made yet)
	stop     *stopFlag    // set: the build is given up, the nodes left unbuilt
	wg       sync.WaitGroup
	mu       sync.Mutex // guards tree.Stats and tree.Depth
}

// worker holds one goroutine's scratch.
type worker struct {
	fit   geom.Fitter
	stamp []int32 // stamp[v] == gen: vertex v already gathered, as local[v]
	local []int32
	gen   int32
	pts   []geom.Vec3
	tris  [][3]int32
	depth int // deepest leaf reached
}

func (b *builder) newWorker() *worker {
	nv := b.vhi - b.vlo + 1
	return &worker{fit: geom.Fitter{Mode: b.fit}, stamp: make([]int32, nv), local: make([]int32, nv)}
}

// build fills node idx, at the given depth, over order[lo:hi] (at least two
// triangles).
func (b *builder) build(w *worker, lo, hi int, idx int32, depth int) {
	if b.stop.set.Load() {
		return
	}
	box := b.fitGroup(w, lo, hi)
	mid := b.split(box, lo, hi)
	left, right := idx+1, idx+int32(mid-lo)
	node := &b.tree.Nodes[idx]
	if b.tree.boxes != nil {
		b.tree.boxes[idx] = box
	} else if hi-lo > 2 { // a node over two triangles keeps no packed box (compact)
		b.tree.packed[idx].pack(box, w.pts, b.tree.Origin)
	}
	node.Child = [2]int32{left, right}
	if mid-lo == 1 {
		node.Child[0] = ^b.order[lo]
	}
	if hi-mid == 1 {
		node.Child[1] = ^b.order[mid]
	}
	w.depth = max(w.depth, depth+1)
	goLeft := mid-lo > 1
	if goLeft && hi-mid > 1 && mid-lo >= parallelMin {
		select {
		case w2 := <-b.spare:
			goLeft = false
			b.wg.Add(1)
			go func() {
				defer b.wg.Done()
				if w2 == nil {
					w2 = b.newWorker()
				}
				b.build(w2, lo, mid, left, depth+1)
				b.spare <- w2
			}()
		default:
		}
	}
	if goLeft {
		b.build(w, lo, mid, left, depth+1)
	}
	if hi-mid > 1 {
		b.build(w, mid, hi, right, depth+1)
	}
}

// merge adds a finished worker's statistics to the tree's.
func (b *builder) merge(w *worker) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.tree.Stats = addStats(b.tree.Stats, w.fit.Stats)
	b.tree.Depth = max(b.tree.Depth, w.depth)
}

// fitGroup gathers the group's distinct vertices and fits its box.
func (b *builder) fitGroup(w *worker, lo, hi int) geom.OBB {
	m := b.tree.Mesh
	w.gen++
	if w.gen == 0 { // wrapped: clear stamps
		clear(w.stamp)
		w.gen = 1
	}
	if cap(w.tris) < hi-lo { // sized once, by the worker's first and largest group
		w.tris = make([][3]int32, 0, hi-lo)
		w.pts = make([]geom.Vec3, 0, min(len(m.Verts), 3*(hi-lo)))
	}
	w.pts, w.tris = w.pts[:0], w.tris[:0]
	for _, ti := range b.order[lo:hi] {
		var lt [3]int32
		for k, v := range m.Tris[ti] {
			if i := v - b.vlo; w.stamp[i] != w.gen {
				w.stamp[i] = w.gen
				w.local[i] = int32(len(w.pts))
				w.pts = append(w.pts, m.Verts[v])
			}
			lt[k] = w.local[v-b.vlo]
		}
		w.tris = append(w.tris, lt)
	}
	return w.fit.Fit(w.pts, w.tris)
}

// sizeSpread and sizeCut set the split by size: a group whose longest
// triangle is sizeSpread times its triangles' geometric mean size (by
// their longest edges) puts those over sizeCut times it in a subtree of
// their own.
const (
	sizeSpread = 16
	sizeCut    = 4
)

// split partitions order[lo:hi] and returns the first index of the right
// part. A group of mixed sizes is split by size first: a few long
// triangles (the slivers a terrain tool exports, a block's fanned bottom)
// would otherwise make every box on their way as big as they are, and a
// query near the small ones descend through them; kept apart, the long
// ones fit boxes of their own and the small ones tight ones. Otherwise
// the paper's rule: at the mean of the triangle centres along the box's
// longest axis that splits the group.
func (b *builder) split(box geom.OBB, lo, hi int) int {
	if i := b.splitBySize(lo, hi); i > lo && i < hi {
		return i
	}
	axes := [3]int{0, 1, 2}
	h := [3]float64{box.Half.X, box.Half.Y, box.Half.Z}
	if h[axes[1]] > h[axes[0]] {
		axes[0], axes[1] = axes[1], axes[0]
	}
	if h[axes[2]] > h[axes[1]] {
		axes[1], axes[2] = axes[2], axes[1]
		if h[axes[1]] > h[axes[0]] {
			axes[0], axes[1] = axes[1], axes[0]
		}
	}
	g := b.order[lo:hi]
	for _, k := range axes {
		a := box.Axis(k)
		mean := 0.0
		for _, ti := range g {
			mean += b.centers[ti].Dot(a)
		}
		mean /= float64(len(g))
		i, j := 0, len(g)-1
		for i <= j {
			if b.centers[g[i]].Dot(a) < mean {
				i++
			} else {
				g[i], g[j] = g[j], g[i]
				j--
			}
		}
		if i > 0 && i < len(g) {
			return lo + i
		}
	}
	return lo + len(g)/2
}

// splitBySize partitions order[lo:hi] into the triangles no longer than
// sizeCut times the group's geometric mean size and those longer, when
// the longest is sizeSpread times that mean, and returns where the long
// ones start (lo when the group is not mixed).
func (b *builder) splitBySize(lo, hi int) int {
	g := b.order[lo:hi]
	mean, top := 0.0, math.Inf(-1)
	for _, ti := range g {
		s := float64(b.logSize[ti])
		mean += s
		top = math.Max(top, s)
	}
	mean /= float64(len(g))
	if top < mean+math.Log(sizeSpread) {
		return lo
	}
	cut := float32(mean + math.Log(sizeCut))
	i, j := 0, len(g)-1
	for i <= j {
		if b.logSize[g[i]] <= cut {
			i++
		} else {
			g[i], g[j] = g[j], g[i]
			j--
		}
	}
	return lo + i
}

func addStats(a, b geom.FitStats) geom.FitStats {
	a.Hull += b.Hull
	a.Surface += b.Surface
	a.Points += b.Points
	a.Axis += b.Axis
	a.HullFailures += b.HullFailures
	a.LibraryHulls += b.LibraryHulls
	return a
}

// Bytes returns the memory the tree and its mesh hold, for the bytes per
// triangle figure (the paper's RAPID needed 412).
func (t *Tree) Bytes() (tree, mesh int) {
	m := t.Mesh
	tree = len(t.Nodes)*int(unsafe.Sizeof(Node{})) + len(t.boxes)*int(unsafe.Sizeof(geom.OBB{})) + len(t.packed)*int(unsafe.Sizeof(packedBox{})) +
		len(t.bottom)*8 + len(t.rank)*4
	mesh = len(m.Verts)*int(unsafe.Sizeof(geom.Vec3{})) + len(m.Tris)*12 + len(m.Object)*4
	return tree, mesh
}

// Bounds returns a box holding the whole tree: the root's, or for a
// single triangle the axis-aligned box of its corners (fitted by Build).
func (t *Tree) Bounds() geom.OBB {
	if len(t.Nodes) > 0 {
		return t.Box(0)
	}
	if t.single.Half == (geom.Vec3{}) && t.single.Center == (geom.Vec3{}) { // not Build's
		return singleBounds(t.Mesh)
	}
	return t.single
}

// singleBounds is the axis-aligned box of m's first triangle's corners.
func singleBounds(m *Mesh) geom.OBB {
	tri := m.Triangle(0)
	return geom.Extents(tri[:], mgl64.Ident3())
}

// Count returns the number of triangles under reference ref. Build lays a
// node over k triangles out on k-1 consecutive slots, its left subtree
// first, so a right child's index minus its parent's is the size of the
// left subtree: the count follows one path down, never the subtree.
func (t *Tree) Count(ref int32) int {
	n := 0
	for ref >= 0 {
		c := t.Nodes[ref].Child
		if c[1] >= 0 {
			n += int(c[1] - ref)
			ref = c[1]
			continue
		}
		n++
		ref = c[0]
	}
	return n + 1
}
