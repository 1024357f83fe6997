package traversal

import (
	"math"
	"unsafe"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
)

// SurfaceQuery finds nearest points. It owns the search stack, so a query
// reused across frames allocates nothing once the stack has grown. Not
// safe for concurrent use.
type SurfaceQuery struct {
	stack []Pending
	boxes env.BoxCache // packed boxes decoded
}

// Bytes returns the bytes q holds.
func (q *SurfaceQuery) Bytes() int {
	return cap(q.stack)*int(unsafe.Sizeof(Pending{})) + q.boxes.Bytes()
}

// Pending is a tree reference waiting in a nearest-first search, with a
// lower bound on its distance (or squared distance, or any key that orders
// the search) to what is searched for.
type Pending struct {
	Ref int32
	LB  float64
}

// Nearest returns the point of s closest to p, if one is within maxDist
// (+Inf for no limit). hint, a tree triangle or -1, is where to start:
// last frame's answer for a point that moved little, whose distance
// bounds the search from the first step. The search is depth first,
// nearer box first, and prunes every box farther than the best so far.
func (q *SurfaceQuery) Nearest(s *env.Surface, p geom.Vec3, maxDist float64, hint int32) (env.Nearest, bool) {
	n, found, _ := q.search(s, p, maxDist, hint, -1)
	return n, found
}

// NearestBeyond is Nearest for a caller that wants the nearest point only
// if it is farther than floor: it stops as soon as it finds a point of s
// nearer to p than floor, and reports nearer (the answer is then not
// filled in). It answers as Nearest otherwise, a distance of exactly floor
// included.
func (q *SurfaceQuery) NearestBeyond(s *env.Surface, p geom.Vec3, maxDist float64, hint int32, floor float64) (n env.Nearest, found, nearer bool) {
	return q.search(s, p, maxDist, hint, floor)
}

// search is Nearest, stopping at the first point nearer than floor (none
// when floor < 0).
func (q *SurfaceQuery) search(s *env.Surface, p geom.Vec3, maxDist float64, hint int32, floor float64) (env.Nearest, bool, bool) {
	t := s.Tree
	bound := maxDist * maxDist
	best, bestF, found, nearer := env.Nearest{Tri: -1}, geom.Face, false, false
	try := func(i int32) {
		c, f := geom.ClosestOnTriangle(t.Mesh.Triangle(int(i)), p)
		if d := c.Sub(p).LenSqr(); d < bound || (!found && d <= bound) {
			best.Tri, best.Point, bestF, bound, found = i, c, f, d, true
			// Decided on the distance the answer would have, so that it
			// agrees with comparing that answer to floor.
			nearer = floor > 0 && math.Sqrt(d) < floor
		}
	}
	if hint >= 0 && int(hint) < len(t.Mesh.Tris) {
		try(hint)
	}
	st := append(q.stack[:0], Pending{t.Root, 0})
	for len(st) > 0 && !nearer {
		r := st[len(st)-1]
		st = st[:len(st)-1]
		if r.LB > bound {
			continue
		}
		if k, ok := env.Leaf(r.Ref); ok {
			if k != hint {
				try(k)
			}
			continue
		}
		st = PushNearer(t, st, r, bound, &q.boxes, func(b *geom.OBB) float64 { return b.DistSqTo(p) })
	}
	q.stack = st
	if nearer {
		return env.Nearest{Tri: best.Tri}, false, true
	}
	if !found {
		return best, false, false
	}
	best.Dist = math.Sqrt(bound)
	s.Classify(&best, bestF, p)
	return best, true, false
}

// PushNearer pushes the children of node r whose lower bounds, by lb of
// their boxes, are within bound, the nearer last so that a depth-first
// search pops it first. A triangle child inherits r's own bound (its box
// holds the triangle); its test comes when it is popped.
func PushNearer(t *env.Tree, st []Pending, r Pending, bound float64, boxes *env.BoxCache, lb func(*geom.OBB) float64) []Pending {
	var c [2]Pending
	for k, ch := range t.Nodes[r.Ref].Child {
		c[k] = Pending{ch, r.LB}
		if ch >= 0 {
			c[k].LB = lb(t.BoxIn(ch, boxes))
		}
	}
	if c[0].LB < c[1].LB {
		c[0], c[1] = c[1], c[0]
	}
	for _, x := range c {
		if x.LB <= bound {
			st = append(st, x)
		}
	}
	return st
}
