package narrow

import (
	"math"
	"math/bits"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
)

// Counting the triangles a link touches. A triangle counts when it meets
// the link's solid polytope, including one wholly inside it. Brute force
// runs GJK per triangle in the link's box; here the link's distinct face
// planes, moved to the world once per contact, settle almost everything:
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

// countTris counts the triangles of object o that meet link l, placed by
// link, stopping once it has limit of them (0: no limit), and returns one
// of them (its index in the object's tree; -1 if none).
func (s *Solver) countTris(link *Shape, l, o, limit int) (int, int32) {
	s.worldPlanes(l, link.X)
	tree := s.ObjectTree(o)
	inv := link.X.Inverse()
	n, first := 0, int32(-1)
	st := append(s.countStack[:0], countEntry{tree.Root, ^uint64(0)})
	for len(st) > 0 && (limit == 0 || n < limit) {
		e := st[len(st)-1]
		st = st[:len(st)-1]
		if k, ok := env.Leaf(e.ref); ok {
			if s.meetsTriangle(link, inv, tree.Mesh.Triangle(int(k)), e.mask) {
				n++
				if first < 0 {
					first = k
				}
			}
			continue
		}
		node := &tree.Nodes[e.ref]
		mask, out := s.boxSide(&node.Box, e.mask)
		switch {
		case out:
			continue
		case mask == 0 && len(s.planes) <= maskPlanes:
			n += tree.Count(e.ref)
			if first < 0 {
				first = leftmostLeaf(tree, e.ref)
			}
			continue
		}
		st = append(st, countEntry{node.Child[1], mask}, countEntry{node.Child[0], mask})
	}
	s.countStack = st[:0]
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

// worldPlanes moves link l's distinct face planes into the world by x,
// into s.planes: N·y <= D holds for the world points y of the link.
func (s *Solver) worldPlanes(l int, x geom.Transform) {
	if s.linkPlanes == nil {
		s.linkPlanes = make([][]plane, len(s.links))
	}
	if s.linkPlanes[l] == nil {
		s.linkPlanes[l] = distinctPlanes(s.geoms[l].planes)
	}
	s.planes = s.planes[:0]
	s.planeBits = ^uint64(0) >> max(0, maskPlanes-len(s.linkPlanes[l]))
	for _, p := range s.linkPlanes[l] {
		n := x.R.Mul3x1(p.N)
		s.planes = append(s.planes, plane{N: n, D: p.D + n.Dot(x.T)})
	}
}

// distinctPlanes drops the repeats of a hull's face planes: a facet cut
// into several triangles gives one plane each, equal but for rounding.
func distinctPlanes(all []plane) []plane {
	var out []plane
	for _, p := range all {
		dup := false
		for _, q := range out {
			if p.N.Sub(q.N).Len() < coplanarTol && math.Abs(p.D-q.D) < coplanarTol {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, p)
		}
	}
	return out
}

// boxSide tests a box against the link's world planes that mask leaves
// open: it returns those the box is not wholly inside, or out when it is
// wholly outside one.
func (s *Solver) boxSide(b *geom.OBB, mask uint64) (left uint64, out bool) {
	a0, a1, a2 := b.Axis(0), b.Axis(1), b.Axis(2)
	for m := mask & s.planeBits; m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m)
		switch planeSide(&s.planes[i], b, &a0, &a1, &a2) {
		case boxOutside:
			return 0, true
		case boxAcross:
			left |= 1 << i
		}
	}
	for i := maskPlanes; i < len(s.planes); i++ {
		if planeSide(&s.planes[i], b, &a0, &a1, &a2) == boxOutside {
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

// planeSide tells which side of plane p box b (axes a0, a1, a2) is on.
func planeSide(p *plane, b *geom.OBB, a0, a1, a2 *mgl64.Vec3) int {
	n := p.N
	c := n[0]*b.Center[0] + n[1]*b.Center[1] + n[2]*b.Center[2] - p.D
	r := math.Abs(n[0]*a0[0]+n[1]*a0[1]+n[2]*a0[2])*b.Half[0] +
		math.Abs(n[0]*a1[0]+n[1]*a1[1]+n[2]*a1[2])*b.Half[1] +
		math.Abs(n[0]*a2[0]+n[1]*a2[1]+n[2]*a2[2])*b.Half[2]
	switch {
	case c-r > 0:
		return boxOutside
	case c+r > 0:
		return boxAcross
	}
	return boxInside
}

// meetsTriangle reports whether world triangle t meets the link (placed
// by link, inv its inverse), given that its corners are inside the planes
// mask leaves out: by the planes when a corner is inside or on the link
// or one plane has every corner outside, else by GJK in the link's frame.
func (s *Solver) meetsTriangle(link *Shape, inv geom.Transform, t geom.Triangle, mask uint64) bool {
	out := [3]float64{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
	side := func(p *plane) bool {
		d0, d1, d2 := p.N.Dot(t[0])-p.D, p.N.Dot(t[1])-p.D, p.N.Dot(t[2])-p.D
		out[0], out[1], out[2] = max(out[0], d0), max(out[1], d1), max(out[2], d2)
		return d0 > 0 && d1 > 0 && d2 > 0
	}
	for m := mask & s.planeBits; m != 0; m &= m - 1 {
		if side(&s.planes[bits.TrailingZeros64(m)]) {
			return false
		}
	}
	for i := maskPlanes; i < len(s.planes); i++ {
		if side(&s.planes[i]) {
			return false
		}
	}
	if out[0] <= 0 || out[1] <= 0 || out[2] <= 0 {
		return true
	}
	local := Shape{P: link.P, X: geom.Identity()}
	return s.touchesTriangle(&local, t.Transformed(inv))
}

// counting holds countTris's buffers.
type counting struct {
	linkPlanes [][]plane // per link: its distinct face planes, made at first use
	planes     []plane   // the counted link's planes in the world
	planeBits  uint64    // a mask of all of them
	countStack []countEntry
}
