package experiments

import (
	"math"

	"github.com/gloved/gloved/bch"
	"github.com/gloved/gloved/geom"
)

// TriangleDistance returns the least distance between triangles a and b:
// 0 when they meet (the exact test), else the least of the distances
// from each one's corners to the other and between their edges, where
// two disjoint triangles' closest points always lie.
func TriangleDistance(a, b geom.Triangle) float64 {
	if geom.TriTri(a, b) {
		return 0
	}
	best := math.Inf(1)
	for k := range 3 {
		p, _ := geom.ClosestOnTriangle(b, a[k])
		q, _ := geom.ClosestOnTriangle(a, b[k])
		best = math.Min(best, math.Min(p.Sub(a[k]).LenSqr(), q.Sub(b[k]).LenSqr()))
		for j := range 3 {
			best = math.Min(best, geom.SegmentSegmentDistSq(a[k], a[(k+1)%3], b[j], b[(j+1)%3]))
		}
	}
	return math.Sqrt(best)
}

// CylinderDistance returns the distance between two nodes' cylinders: a
// cylinder is a disk times an interval along the axis, so the distance
// is the root of the squared gaps in the plane and along the axis.
func CylinderDistance(a, b *bch.Node) float64 {
	dx, dy := a.Circle.X-b.Circle.X, a.Circle.Y-b.Circle.Y
	g := math.Max(0, math.Hypot(dx, dy)-a.Circle.Radius-b.Circle.Radius)
	h := math.Max(0, math.Max(a.Lo-b.Hi, b.Lo-a.Hi))
	return math.Hypot(g, h)
}

// Distancer finds the least distance between two meshes by walking their
// bounding cylinder trees (triangles variant) together, nearest pair
// first, dropping every pair of nodes no nearer than the best so far.
// It owns its stack.
type Distancer struct {
	stack []pending
}

type pending struct {
	a, b int32
	lb   float64
}

// Distance returns the least distance between the triangles a, moved by
// offA, and b, given ta, a triangles tree of a moved by offA, and tb, one
// of b: 0 when they meet.
func (d *Distancer) Distance(ta, tb *bch.Tree, a, b []geom.Triangle, offA geom.Vec3) float64 {
	best := math.Inf(1)
	d.stack = append(d.stack[:0], pending{0, 0, CylinderDistance(&ta.Nodes[0], &tb.Nodes[0])})
	for len(d.stack) > 0 {
		p := d.stack[len(d.stack)-1]
		d.stack = d.stack[:len(d.stack)-1]
		if p.lb >= best {
			continue
		}
		na, nb := &ta.Nodes[p.a], &tb.Nodes[p.b]
		if na.Leaf() && nb.Leaf() {
			for _, i := range ta.Items[na.First : na.First+na.Count] {
				t := a[i]
				t = geom.Triangle{t[0].Add(offA), t[1].Add(offA), t[2].Add(offA)}
				for _, j := range tb.Items[nb.First : nb.First+nb.Count] {
					best = math.Min(best, TriangleDistance(t, b[j]))
				}
			}
			if best == 0 {
				return 0
			}
			continue
		}
		var x, y pending
		if !na.Leaf() && (nb.Leaf() || na.Circle.Radius >= nb.Circle.Radius) {
			x, y = pending{a: na.Child[0], b: p.b}, pending{a: na.Child[1], b: p.b}
		} else {
			x, y = pending{a: p.a, b: nb.Child[0]}, pending{a: p.a, b: nb.Child[1]}
		}
		x.lb = CylinderDistance(&ta.Nodes[x.a], &tb.Nodes[x.b])
		y.lb = CylinderDistance(&ta.Nodes[y.a], &tb.Nodes[y.b])
		if x.lb < y.lb { // the nearer pair is taken first
			x, y = y, x
		}
		d.stack = append(d.stack, x, y)
	}
	return best
}
