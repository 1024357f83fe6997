package contact

import (
	"math"
	"math/bits"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/narrow"
)

// Counting the triangles a link touches. A triangle counts when it meets
// the link's solid polytope, including one wholly inside it. Brute force
// runs GJK per triangle in the link's box; here the link's distinct face
// planes, moved to the world once per count, settle almost everything
// below the references of the traversal's front:
//   - a tree node whose box is wholly outside one face plane holds no
//     touched triangle, and one wholly inside every plane holds only
//     touched triangles, counted without visiting them (env.Tree.Count);
//   - a box wholly inside some planes leaves its children only the others
//     to test (the plane masking of view-frustum culling);
//   - a triangle with a corner inside or on every plane meets the link,
//     one with all corners outside one plane does not;
//
// only the rest, which pass beside an edge of the link without a corner
// inside it, take GJK. The planes are those of the link's hull, the
// polytope GJK sees, and decide only strict cases, so the count is the
// brute force's but at touching within rounding.

// maskPlanes is how many planes a mask tracks; any further planes of a
// link are tested at every node.
const maskPlanes = 64

// countEntry is a tree reference to visit and the planes (bit i: plane i)
// its parent's box did not lie wholly inside.
type countEntry struct {
	ref  int32
	mask uint64
}

// Counter counts the triangles of a tree that meet a link. It owns its
// buffers: reused, it allocates nothing once they have grown. Not safe
// for concurrent use.
type Counter struct {
	planes  []Plane // the link's planes in the world
	bits    uint64  // a mask of all of them
	stack   []countEntry
	tri     narrow.Polytope
	triVert [3]geom.Vec3
	boxes   env.BoxCache // packed tree boxes decoded
}

// Bytes returns the bytes c holds.
func (c *Counter) Bytes() int {
	return SliceBytes(c.planes) + SliceBytes(c.stack) + c.boxes.Bytes()
}

// Count counts the triangles under the references front of tree (a
// candidate's front: every triangle that meets the link is under one of
// them) that meet link placed by x, stopping once it has limit of them (0:
// no limit). It returns the count and the first triangle counted in the
// tree's left-to-right order (its index in the tree's mesh; -1 if none).
func (c *Counter) Count(tree *env.Tree, front []int32, link *Link, x geom.Transform, limit int) (int, int32) {
	c.place(link, x)
	inv := x.Inverse()
	n, first := 0, int32(-1)
	for _, ref := range front {
		st := append(c.stack[:0], countEntry{ref, ^uint64(0)})
		for len(st) > 0 && (limit == 0 || n < limit) {
			e := st[len(st)-1]
			st = st[:len(st)-1]
			if k, ok := env.Leaf(e.ref); ok {
				if c.meetsTriangle(link, inv, tree.Mesh.Triangle(int(k)), e.mask) {
					n++
					if first < 0 {
						first = k
					}
				}
				continue
			}
			node := &tree.Nodes[e.ref]
			mask, out := c.boxSide(tree.BoxIn(e.ref, &c.boxes), e.mask)
			switch {
			case out:
				continue
			case mask == 0 && len(c.planes) <= maskPlanes:
				n += tree.Count(e.ref)
				if first < 0 {
					first = leftmostLeaf(tree, e.ref)
				}
				continue
			}
			st = append(st, countEntry{node.Child[1], mask}, countEntry{node.Child[0], mask})
		}
		c.stack = st[:0]
	}
	return n, first
}

// leftmostLeaf returns the first triangle under node r.
func leftmostLeaf(t *env.Tree, r int32) int32 {
	for {
		k, ok := env.Leaf(r)
		if ok {
			return k
		}
		r = t.Nodes[r].Child[0]
	}
}

// place moves the link's distinct face planes into the world by x: N·y <=
// D holds for the world points y of the link.
func (c *Counter) place(link *Link, x geom.Transform) {
	c.planes = c.planes[:0]
	c.bits = ^uint64(0) >> max(0, maskPlanes-len(link.Planes))
	for _, p := range link.Planes {
		n := x.Rotate(p.N)
		c.planes = append(c.planes, Plane{N: n, D: p.D + n.Dot(x.T)})
	}
}

// boxSide tests a box against the planes that mask leaves open: it
// returns those the box is not wholly inside, or out when it is wholly
// outside one.
func (c *Counter) boxSide(b *geom.OBB, mask uint64) (left uint64, out bool) {
	for m := mask & c.bits; m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m)
		switch planeSide(&c.planes[i], b) {
		case boxOutside:
			return 0, true
		case boxAcross:
			left |= 1 << i
		}
	}
	for i := maskPlanes; i < len(c.planes); i++ {
		if planeSide(&c.planes[i], b) == boxOutside {
			return 0, true
		}
	}
	return left, false
}

// A box's side of a plane.
const (
	boxInside = iota
	boxAcross
	boxOutside
)

// planeSide tells which side of plane p box b is on.
func planeSide(p *Plane, b *geom.OBB) int {
	d, r := p.N.Dot(b.Center)-p.D, b.ProjectedRadius(p.N)
	switch {
	case d-r > 0:
		return boxOutside
	case d+r > 0:
		return boxAcross
	}
	return boxInside
}

// meetsTriangle reports whether world triangle t meets the link (placed
// by x, inv its inverse), given that its corners are inside the planes
// mask leaves out: by the planes when a corner is inside or on the link
// or one plane has every corner outside, else by GJK in the link's frame.
func (c *Counter) meetsTriangle(link *Link, inv geom.Transform, t geom.Triangle, mask uint64) bool {
	out := [3]float64{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
	side := func(p *Plane) bool {
		d0, d1, d2 := p.N.Dot(t[0])-p.D, p.N.Dot(t[1])-p.D, p.N.Dot(t[2])-p.D
		out[0], out[1], out[2] = max(out[0], d0), max(out[1], d1), max(out[2], d2)
		return d0 > 0 && d1 > 0 && d2 > 0
	}
	for m := mask & c.bits; m != 0; m &= m - 1 {
		if side(&c.planes[bits.TrailingZeros64(m)]) {
			return false
		}
	}
	for i := maskPlanes; i < len(c.planes); i++ {
		if side(&c.planes[i]) {
			return false
		}
	}
	if out[0] <= 0 || out[1] <= 0 || out[2] <= 0 {
		return true
	}
	return TouchesTriangle(link.Poly, t.Transformed(inv), &c.tri, &c.triVert)
}

// TouchesTriangle reports whether polytope p, at its own frame's origin,
// meets triangle t (in p's frame), by GJK; tri and corners are the
// caller's scratch.
func TouchesTriangle(p *narrow.Polytope, t geom.Triangle, tri *narrow.Polytope, corners *[3]geom.Vec3) bool {
	*corners = t
	tri.Verts = corners[:]
	tri.Measure()
	a := narrow.Shape{P: p, X: geom.Identity()}
	b := narrow.Shape{P: tri, X: geom.Identity()}
	return narrow.Intersects(&a, &b)
}
