package mesh

import (
	"math"

	"github.com/gloved/gloved/contact"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/narrow"
	"github.com/gloved/gloved/traversal"
)

// maxCut is the most references a link's cut keeps: past it, the next
// search starts again from the root. Its two buffers are made this size
// at the link's first search, so that the later ones allocate nothing
// (and a link that never comes near an object costs it nothing).
const maxCut = 256

// cut is what a link's nearest-triangle search leaves for the next one: a
// frontier of the object's tree, every triangle under one of its
// references at least, each with a lower bound on its distance to the
// link at pose x. A link that has since moved no point farther than δ is
// at least LB-δ from each, so the next search starts from the cut instead
// of the root and measures again only what could now be nearer than its
// best: the last frame's proof, kept up to date, in place of a new one.
// (PQP seeds its distance query with the last closest pair; this keeps
// the whole of the last query's pruning as well.)
type cut struct {
	x     geom.Transform
	refs  []traversal.Pending
	spare []traversal.Pending // the next cut's buffer
	valid bool
}

// nearSearch is one nearest-triangle search of a link: its bounds, its
// best so far, and the cut it leaves.
type nearSearch struct {
	o      *Object
	link   narrow.Shape // a copy: a pointer would make the caller's escape
	lk     *contact.Link
	l      int
	box    geom.OBB
	ca, cb geom.Vec3
	inv    geom.Transform
	best   contact.Near
	tri    int32 // the best's triangle, or -1
	next   []traversal.Pending
	over   bool    // the frontier outgrew maxCut: no cut is left
	floor  float64 // the least bound filed: no triangle is nearer, but the best
}

// nearestTri finds the triangle of the object nearest to link l within
// limit, starting from last frame's nearest triangle and from the link's
// cut where it has one, else from the root: depth first, nearer box
// first, pruning every box whose distance to the link is beyond the best
// so far. It reports whether the link's nearest point is inside a closed
// object (behind an open one), by the side of the triangle's feature at
// the nearest point. It also returns floor, a lower bound on the link's
// distance to every triangle: the least of the bounds the search left off
// at (beyond limit when it finds none and ran to the end).
//
// With a budget (> 0), it takes at most that many references (entries of
// the cut, nodes off the stack) and leaves the rest at the bounds they
// have: it then reports no triangle, only the floor, raised as far as the
// budget went (and not necessarily beyond limit).
func (o *Object) nearestTri(link *narrow.Shape, l, obj int, limit float64, budget int) (near contact.Near, inside, found bool, floor float64) {
	t := o.surf.Tree
	lk := &o.links[l]
	if c := &o.cuts[l]; c.spare == nil { // the link's first search: its buffers, once
		c.refs, c.spare = make([]traversal.Pending, 0, maxCut), make([]traversal.Pending, 0, maxCut)
	}
	s := nearSearch{o: o, link: *link, lk: lk, l: l, box: lk.Box.Transformed(link.X),
		ca: link.X.Apply(lk.A), cb: link.X.Apply(lk.B), inv: link.X.Inverse(),
		best: contact.Near{Link: l, Object: obj, Distance: limit}, tri: -1, next: o.cuts[l].spare[:0], floor: math.Inf(1)}
	hint := o.nearHint[l]
	if hint >= 0 && int(hint) < len(t.Mesh.Tris) {
		s.keep(^hint, s.try(hint))
	} else {
		hint = -1
	}
	st := o.pending[:0]
	c := &o.cuts[l]
	steps := 0
	spent := func() bool { steps++; return budget > 0 && steps > budget }
	if c.valid {
		delta := lk.Moved(c.x, link.X)
		for _, e := range c.refs {
			if i, ok := env.Leaf(e.Ref); ok && i == hint {
				continue // measured above
			}
			if lb := e.LB - delta; lb > s.bar() || spent() {
				s.keep(e.Ref, lb)
				continue
			}
			st = s.visit(st, e.Ref, hint)
		}
	} else {
		st = s.visit(st, t.Root, hint)
	}
	for len(st) > 0 {
		r := st[len(st)-1]
		st = st[:len(st)-1]
		if r.LB > s.bar() || spent() {
			s.keep(r.Ref, r.LB)
			continue
		}
		st = s.expand(st, r.Ref, hint)
	}
	o.pending = st
	c.keep(s.next, link.X, s.over || o.opt.NoAccel)
	if s.tri < 0 || budget > 0 && steps > budget {
		return s.best, false, false, s.floor
	}
	o.nearHint[l] = s.tri
	s.measureCold()
	_, f := geom.ClosestOnTriangle(t.Mesh.Triangle(int(s.tri)), s.best.LinkPoint)
	return s.best, o.surf.Behind(s.tri, f, s.best.LinkPoint, s.best.Point), true, s.floor
}

// keep files a search's frontier, next (built in c.spare), with the
// link at pose x, as the cut for the next search; or, when drop is set
// (the frontier outgrew maxCut, or the accelerations are off), leaves
// none.
func (c *cut) keep(next []traversal.Pending, x geom.Transform, drop bool) {
	if drop {
		c.valid, c.spare = false, next[:0]
		return
	}
	c.spare, c.refs, c.x, c.valid = c.refs[:0], next, x, true
}

// keep files reference r, at least lb from the link, in the cut.
func (s *nearSearch) keep(r int32, lb float64) {
	s.floor = math.Min(s.floor, lb)
	if len(s.next) == maxCut {
		s.over = true
		return
	}
	s.next = append(s.next, traversal.Pending{Ref: r, LB: lb})
}

// visit measures reference r afresh: a triangle is tested and filed; a
// node is filed when its box is beyond the best, else pushed to be
// expanded.
func (s *nearSearch) visit(st []traversal.Pending, r int32, hint int32) []traversal.Pending {
	if i, ok := env.Leaf(r); ok {
		if i != hint {
			s.keep(r, s.leaf(i))
		}
		return st
	}
	g := s.gap(s.o.surf.Tree.BoxIn(r, &s.o.boxes))
	if g > s.bar() {
		s.keep(r, g)
		return st
	}
	return append(st, traversal.Pending{Ref: r, LB: g})
}

// expand visits node r's children, the nearer pushed last so that it is
// expanded first.
func (s *nearSearch) expand(st []traversal.Pending, r int32, hint int32) []traversal.Pending {
	n := len(st)
	for _, ch := range s.o.surf.Tree.Nodes[r].Child {
		st = s.visit(st, ch, hint)
	}
	if len(st) == n+2 && st[n].LB < st[n+1].LB {
		st[n], st[n+1] = st[n+1], st[n]
	}
	return st
}

// gap bounds the distance from the link to box b from below: the boxes'
// gap along their axes where that is already beyond the best, else the
// exact distance to the box.
func (s *nearSearch) gap(b *geom.OBB) float64 {
	if g := geom.OBBGap(&s.box, b); g > s.bar() {
		return g
	}
	return s.o.boxBound(&s.link, b, s.bar())
}

// leaf bounds the distance from the link to triangle i from below,
// measuring it exactly (and taking it as the best if it is) unless a
// cheaper bound already puts it beyond the best.
func (s *nearSearch) leaf(i int32) float64 {
	tri := s.o.surf.Tree.Mesh.Triangle(int(i))
	lb := triGap(tri, &s.box)
	if lb > s.bar() {
		return lb
	}
	lb = max(lb, geom.SegmentTriangleDist(s.ca, s.cb, tri)-s.lk.R)
	if lb > s.bar() {
		return lb
	}
	lb = max(lb, s.lk.FaceGap(tri.Transformed(s.inv), s.bar()))
	if lb > s.bar() {
		return lb
	}
	return s.try(i)
}

// try measures the link's distance to triangle i by GJK, takes it as the
// best if it is nearer (or the first within the limit), and returns a
// lower bound on it: GJK's distance can exceed the true one by its
// tolerance.
func (s *nearSearch) try(i int32) float64 {
	o := s.o
	o.setTriangle(i)
	sh := narrow.Shape{P: &o.tri, X: geom.Identity()}
	d := narrow.Distance(&s.link, &sh, &o.caches[s.l])
	switch best := s.best.Distance; {
	case d.Distance < best*(1-tieTol), s.tri < 0 && d.Distance <= best,
		i < s.tri && d.Distance <= best*(1+tieTol): // a tie: the lower triangle
		s.best.Distance, s.best.Point, s.best.LinkPoint, s.tri = d.Distance, d.PointB, d.PointA, i
	}
	return d.Distance * (1 - boxDistanceTol)
}

// tieTol is how near two triangles' distances are to be a tie, which the
// lower numbered wins, so that the answer does not hang on the order
// the search met them in.
const tieTol = 1e-9

// bar is what a box or triangle must be beyond to be passed over: the
// best so far and a tie's slack (twice, for its rounding), so that no
// triangle that would tie with the best, and might win the tie, is
// passed over before it is measured.
func (s *nearSearch) bar() float64 { return s.best.Distance * (1 + 2*tieTol) }

// measureCold measures the link's distance to the best triangle again
// without a warm start: GJK's answer moves within its tolerance with
// where it starts, so the answer is the same whatever the search did
// before (and whether the accelerations are on).
func (s *nearSearch) measureCold() {
	o := s.o
	o.setTriangle(s.tri)
	d := narrow.Distance(&s.link, &narrow.Shape{P: &o.tri, X: geom.Identity()}, nil)
	s.best.Distance, s.best.Point, s.best.LinkPoint = d.Distance, d.PointB, d.PointA
}
