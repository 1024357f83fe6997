package experiments

import (
	"fmt"
	"math"

	"github.com/gloved/gloved/cab"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/traversal"
)

// Exact answers the exact boolean query for candidate pairs: do the link's
// solid and the triangle (or the other link's solid) share a point? It
// stands in for the paper's SWIFT++ queries: surfaces are tested with each
// link's own OBBTree, and containment without a surface crossing by a
// point-inside test (face planes for convex links, the winding number for
// others).
type Exact struct {
	Body   *cab.Body
	trees  []*env.Tree
	stack  []int32
	col    traversal.Collider
	planes [][]plane // per convex link: outward face planes
}

type plane struct {
	n geom.Vec3
	d float64
}

// NewExact prepares the per-link trees of a body.
func NewExact(b *cab.Body) (*Exact, error) {
	e := &Exact{Body: b, col: traversal.Collider{FirstContact: true}}
	for i, l := range b.Links {
		m := &env.Mesh{Verts: l.Verts, Tris: l.Tris, Object: make([]int32, len(l.Tris)), Objects: []string{l.Name}}
		t, err := env.Build(m, env.BuildOptions{Workers: 1})
		if err != nil {
			return nil, fmt.Errorf("experiments: link %d: %w", i, err)
		}
		e.trees = append(e.trees, t)
		var ps []plane
		if l.Convex {
			for _, tr := range l.Tris {
				a, bb, c := l.Verts[tr[0]], l.Verts[tr[1]], l.Verts[tr[2]]
				n := bb.Sub(a).Cross(c.Sub(a))
				if n.Len() > 0 {
					n = n.Normalize()
					ps = append(ps, plane{n, n.Dot(a)})
				}
			}
		}
		e.planes = append(e.planes, ps)
	}
	return e, nil
}

// inside reports whether p (link frame) is inside link l's solid.
func (e *Exact) inside(l int, p geom.Vec3) bool {
	link := &e.Body.Links[l]
	if link.Convex {
		for _, pl := range e.planes[l] {
			if pl.n.Dot(p) > pl.d {
				return false
			}
		}
		return true
	}
	return windingNumber(link.Verts, link.Tris, p) > 0.5
}

// windingNumber is the generalized winding number of a closed, outward
// oriented mesh about p: 1 inside, 0 outside (Van Oosterom-Strackee solid
// angles summed over the triangles).
func windingNumber(verts []geom.Vec3, tris [][3]int32, p geom.Vec3) float64 {
	w := 0.0
	for _, t := range tris {
		a, b, c := verts[t[0]].Sub(p), verts[t[1]].Sub(p), verts[t[2]].Sub(p)
		la, lb, lc := a.Len(), b.Len(), c.Len()
		num := a.Dot(b.Cross(c))
		den := la*lb*lc + a.Dot(b)*lc + b.Dot(c)*la + c.Dot(a)*lb
		w += 2 * math.Atan2(num, den)
	}
	return w / (4 * math.Pi)
}

// LinkTriangle reports whether link l, placed by pose, meets the scene
// triangle tri.
func (e *Exact) LinkTriangle(l int, pose geom.Transform, tri geom.Triangle) bool {
	inv := pose.Inverse()
	local := tri.Transformed(inv)
	if traversal.TouchesTriangle(e.trees[l], local, &e.stack) {
		return true
	}
	// No surface crossing: the triangle meets the solid only if it lies
	// inside it, so any corner is inside.
	return e.inside(l, local[0])
}

// LinkLink reports whether link la of e's body placed by pa meets link lb
// of f's body placed by pb.
func (e *Exact) LinkLink(la int, pa geom.Transform, f *Exact, lb int, pb geom.Transform) bool {
	rel := pa.Inverse().Mul(pb) // b's frame into a's
	if e.col.Collide(e.trees[la], f.trees[lb], rel) > 0 {
		return true
	}
	// Surfaces apart: one solid meets the other only if it is inside it.
	vb := f.Body.Links[lb].Verts[0]
	if e.inside(la, rel.Apply(vb)) {
		return true
	}
	va := e.Body.Links[la].Verts[0]
	return f.inside(lb, rel.Inverse().Apply(va))
}

// LinkSurface reports whether link l placed by pose meets the surface of
// a scene object (its own tree): the surfaces cross, or an object triangle
// lies inside the link. A link wholly inside a closed object does not
// count: the scene is triangles here; solid objects are the narrow phase's.
func (e *Exact) LinkSurface(l int, pose geom.Transform, obj *env.Tree, col *traversal.Collider) bool {
	if col.Collide(obj, e.trees[l], pose) > 0 {
		return true
	}
	box := e.Body.Links[l].Box.Transformed(pose)
	inv := pose.Inverse()
	inside := false
	traversal.VisitOBB(obj, &box, &e.stack, func(tri int32) bool {
		inside = e.inside(l, inv.Apply(obj.Mesh.Triangle(int(tri))[0]))
		return !inside
	})
	return inside
}
