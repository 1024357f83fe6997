package env

import (
	"errors"
	"math"
	"math/bits"
	"slices"
	"unsafe"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
)

// Node is an internal node of an OBBTree: its two children (its box is
// Tree.Box). A child c >= 0 is another node's index; c < 0 is the
// single-triangle leaf ^c, whose triangle stands in for its own box (it is
// tighter than any box around it).
type Node struct {
	Child [2]int32
}

// A packedBox is a node's box in 40 bytes rather than a geom.OBB's 120: its
// axes as a quaternion, its centre less the tree's Origin and its
// half-extents, in float32. Build fits the box in float64, rounds the
// quaternion, and then measures the extents again about the centre and
// axes the box decodes to, rounding them up: the decoded box holds every
// vertex below it as a box fitted in float64 does, and is looser by a few
// parts in 10^8 of its size.
type packedBox struct {
	rot    [4]float32 // w, x, y, z, of unit length to float32 rounding
	center [3]float32 // the box's centre less the tree's Origin
	half   [3]float32 // about the decoded centre and axes, rounded up
}

// Layout says how a tree keeps its boxes.
type Layout uint8

const (
	// LayoutAuto packs the boxes of a tree of PackFrom (524,288)
	// triangles or more.
	LayoutAuto Layout = iota
	// LayoutFull keeps each box as a geom.OBB: 128 bytes a node with its
	// children.
	LayoutFull
	// LayoutPacked keeps each box in 40 bytes (packedBox): 48 bytes a node
	// with its children, 8 for a node over two triangles, which keeps no
	// box (pairBox). Decoding a box costs a few dozen flops; a tree
	// too big for the caches gains that back in memory traffic.
	LayoutPacked
)

// PackFrom is the size from which LayoutAuto packs a tree's boxes. Below
// it memory matters less and decoding is a cost (the 4k duck's frames
// took 5-15% longer packed, with BoxCache); at 270k-1M triangles the
// grasp's p50 was within the noise of whole boxes (bunny, torus, duck, two
// idle runs) but the 278k bunny's p99 was higher in both (1.8-2.8 ms
// against 1.3-1.4), so the trees of a few hundred thousand triangles keep
// whole boxes and a million-triangle one saves 96 bytes a triangle (186
// to 90 for the scene; 106 before the nodes over two triangles kept no
// box). The load takes 10-30% longer packed (the
// self-crossing check meets more triangle pairs). It is a variable for
// the tests, which pack small trees to check that every answer stays the
// same.
var PackFrom = 1 << 19

// MaxBuildCoordinate bounds the coordinates Build accepts, far inside
// float32's range (the nodes' boxes are float32); loaded scenes are bounded
// much tighter (MaxCoordinate).
const MaxBuildCoordinate = 1e30

// errFarVertex is Build's refusal of a vertex its nodes cannot hold.
var errFarVertex = errors.New("a vertex is not finite or beyond ±1e30 m (env.MaxBuildCoordinate)")

// Packed reports whether the tree packs its boxes (Layout).
func (t *Tree) Packed() bool { return t.packed != nil }

// Box returns node i's box.
func (t *Tree) Box(i int32) geom.OBB {
	if t.boxes != nil {
		return t.boxes[i]
	}
	return t.unpack(i)
}

// BoxIn returns node i's box without copying it: the tree's own where it
// keeps it whole, or else the packed box decoded into c (which keeps it
// until another node takes its slot). The caller must not change it.
func (t *Tree) BoxIn(i int32, c *BoxCache) *geom.OBB {
	if t.boxes != nil {
		return &t.boxes[i]
	}
	if c.tree != t {
		c.tree = t
		if c.tag == nil {
			c.tag, c.box = make([]int32, boxCacheSlots), make([]geom.OBB, boxCacheSlots)
		}
		clear(c.tag)
	}
	s := i & (boxCacheSlots - 1)
	if c.tag[s] != i+1 {
		c.box[s], c.tag[s] = t.unpack(i), i+1
	}
	return &c.box[s]
}

// A BoxCache keeps the packed boxes its owner decoded last, each in the
// slot of its node's low bits: a frame asks for the same boxes many times
// (the grasp's worst frame on the 277k bunny decoded 24,790 boxes of 4,367
// nodes; with 2048 slots, 5,600). A goroutine keeps one per tree it
// queries; it takes boxCacheSlots * 124 bytes (248 KiB), made when it
// first holds a packed box, and nothing for a tree that keeps its boxes
// whole.
type BoxCache struct {
	tree *Tree
	tag  []int32 // node+1 held in each slot, 0 for none
	box  []geom.OBB
}

// Bytes returns the bytes c holds.
func (c *BoxCache) Bytes() int {
	return len(c.tag)*int(unsafe.Sizeof(int32(0))) + len(c.box)*int(unsafe.Sizeof(geom.OBB{}))
}

// boxCacheSlots is a BoxCache's size, a power of two.
const boxCacheSlots = 2048

// unpack decodes packed box i, or makes it (pairBox) for a node over
// two triangles.
func (t *Tree) unpack(i int32) geom.OBB {
	w, bit := t.bottom[i>>6], uint64(1)<<(i&63)
	if w&bit != 0 {
		return t.pairBox(i)
	}
	n := &t.packed[t.rank[i>>6]+(i&63)-int32(bits.OnesCount64(w&(bit-1)))]
	return geom.OBB{
		Center: geom.Vec3{X: t.Origin.X + float64(n.center[0]), Y: t.Origin.Y + float64(n.center[1]), Z: t.Origin.Z + float64(n.center[2])},
		Axes:   rotation(&n.rot),
		Half:   geom.Vec3{X: float64(n.half[0]), Y: float64(n.half[1]), Z: float64(n.half[2])},
	}
}

// rotation is the rotation matrix of quaternion q (w, x, y, z), of unit
// length to float32 rounding: its columns are orthonormal to float64
// rounding. It scales by 2/|q|², which for |q|² = 1+d with |d| < 1e-6 is
// 2(1-d+d²) to float64 rounding, without a division.
func rotation(q *[4]float32) mgl64.Mat3 {
	w, x, y, z := float64(q[0]), float64(q[1]), float64(q[2]), float64(q[3])
	d := (w*w + x*x + y*y + z*z) - 1
	s := 2 * (1 - d + d*d)
	xx, yy, zz := s*x*x, s*y*y, s*z*z
	xy, xz, yz := s*x*y, s*x*z, s*y*z
	wx, wy, wz := s*w*x, s*w*y, s*w*z
	return mgl64.Mat3{ // column-major: each column an axis
		1 - yy - zz, xy + wz, xz - wy,
		xy - wz, 1 - xx - zz, yz + wx,
		xz + wy, yz - wx, 1 - xx - yy,
	}
}

// pack stores box, fitted over pts, in n: it rounds the axes to a float32
// quaternion and the centre to float32 about origin, and measures the
// half-extents again about what those decode to, rounded up (one pass over
// pts: the build takes 10-30% longer packed).
func (n *packedBox) pack(box geom.OBB, pts []geom.Vec3, origin geom.Vec3) {
	axes := box.Axes
	if axes.Det() < 0 { // a reflection has no quaternion; the box is symmetric
		for r := range 3 {
			axes[6+r] = -axes[6+r]
		}
	}
	q := mgl64.Mat4ToQuat(axes.Mat4())
	l := q.Len()
	n.rot = [4]float32{float32(q.W / l), float32(q.V[0] / l), float32(q.V[1] / l), float32(q.V[2] / l)}
	if !finite32(n.rot[:]) || math.Abs(norm32(&n.rot)-1) > 1e-6 { // not a rotation: keep the world's axes
		n.rot = [4]float32{1, 0, 0, 0}
	}
	r := rotation(&n.rot)
	mid := box.Center.Sub(origin) // the fitted box's: the rounded axes are within 1e-7 rad of its own
	n.center = [3]float32{float32(mid.X), float32(mid.Y), float32(mid.Z)}
	c := geom.Vec3{X: origin.X + float64(n.center[0]), Y: origin.Y + float64(n.center[1]), Z: origin.Z + float64(n.center[2])}
	var h [3]float64
	for _, p := range pts {
		d := p.Sub(c)
		for k := range 3 {
			h[k] = math.Max(h[k], math.Abs(d.Dot(geom.Col(&r, k))))
		}
	}
	for k := range 3 {
		n.half[k] = roundUp32(h[k])
	}
}

// compact drops the packed boxes of the nodes whose children are both
// triangles, which leaves 24 bytes a triangle of the 40 (two nodes in
// five are such), and indexes the rest by rank: node i's box is the one
// after the boxes of the nodes before it that keep one.
func (t *Tree) compact() {
	t.bottom = make([]uint64, (len(t.Nodes)+63)/64)
	t.rank = make([]int32, len(t.bottom))
	k := int32(0)
	for i, n := range t.Nodes {
		if i%64 == 0 {
			t.rank[i/64] = k
		}
		if n.Child[0] < 0 && n.Child[1] < 0 {
			t.bottom[i/64] |= 1 << (i % 64)
			continue
		}
		t.packed[k] = t.packed[i]
		k++
	}
	t.packed = slices.Clone(t.packed[:k]) // the spare capacity freed
}

// pairBox is the box of node i, whose children are both triangles: its
// axes along the first triangle's first edge and normal (or the second's
// where the first has no area, or the world's where neither has), its
// centre the middle of the corners' extents along them, and its
// half-extents measured about that centre and rounded up to float32 as a
// packed box's are. It holds the two triangles as surely as a fitted
// box, and is as tight for the two halves of a flat quad.
func (t *Tree) pairBox(i int32) geom.OBB {
	c := t.Nodes[i].Child
	a, b := t.Mesh.Triangle(int(^c[0])), t.Mesh.Triangle(int(^c[1]))
	axes := mgl64.Ident3()
	for _, tri := range [2]geom.Triangle{a, b} {
		e, f := tri[1].Sub(tri[0]), tri[2].Sub(tri[0])
		n := e.Cross(f)
		if el, nl := e.Len(), n.Len(); el > 0 && nl > 1e-12*el*max(el, f.Len()) && !math.IsInf(el, 0) && !math.IsInf(nl, 0) {
			// The cross product's rounding leaves the normal off square
			// with the edge by up to 1e-16 of |e||f|, a sliver's normal
			// by much more than its length's 1e-16: Gram-Schmidt squares
			// it, since the box tests take the axes as orthonormal.
			u := e.Mul(1 / el)
			w := n.Sub(u.Mul(n.Dot(u)))
			if wl := w.Len(); wl > 0 {
				w = w.Mul(1 / wl)
			} else {
				continue
			}
			v := w.Cross(u)
			axes = mgl64.Mat3{u.X, u.Y, u.Z, v.X, v.Y, v.Z, w.X, w.Y, w.Z}
			break
		}
	}
	pts := [6]geom.Vec3{a[0], a[1], a[2], b[0], b[1], b[2]}
	var center geom.Vec3
	for k := range 3 {
		ax := geom.Col(&axes, k)
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, p := range pts {
			d := p.Dot(ax)
			lo, hi = math.Min(lo, d), math.Max(hi, d)
		}
		center = center.Add(ax.Mul(lo/2 + hi/2))
	}
	var h [3]float64
	for k := range 3 {
		ax := geom.Col(&axes, k)
		for _, p := range pts {
			h[k] = math.Max(h[k], math.Abs(p.Sub(center).Dot(ax)))
		}
		h[k] = float64(roundUp32(h[k]))
	}
	return geom.OBB{Center: center, Axes: axes, Half: geom.Vec3{X: h[0], Y: h[1], Z: h[2]}}
}

// roundUp32 is the least float32 at least x (x finite, within float32).
func roundUp32(x float64) float32 {
	f := float32(x)
	if float64(f) < x {
		f = math.Nextafter32(f, float32(math.Inf(1)))
	}
	return f
}

// norm32 is |q|² in float64.
func norm32(q *[4]float32) float64 {
	w, x, y, z := float64(q[0]), float64(q[1]), float64(q[2]), float64(q[3])
	return w*w + x*x + y*y + z*z
}

func finite32(v []float32) bool {
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return false
		}
	}
	return true
}
