package narrow

import (
	"fmt"
	"math"
	"slices"

	"github.com/gloved/gloved/geom"
)

// Polytope is a convex shape given by its vertices in its own frame. Large
// polytopes carry vertex adjacency (from their hull's edges) so that the
// support mapping can hill-climb from the previous answer instead of
// scanning every vertex.
//
// Everything a query needs is computed by NewPolytope, and queries only
// read a polytope, so one may be shared by goroutines. Its vertices must
// not change after NewPolytope. A Polytope written as a literal works too,
// but measures its radius on every query.
type Polytope struct {
	Verts  []geom.Vec3
	adj    [][]int32 // nil: scan all vertices
	radius float64   // largest |v|, for scale-relative tolerances
}

// climbMin is the vertex count from which Support hill-climbs.
const climbMin = 48

// NewPolytope returns the polytope with the given vertices; tris, the
// faces of their convex hull, give the adjacency used for hill climbing
// (they may be nil for small vertex sets).
func NewPolytope(verts []geom.Vec3, tris [][3]int32) (*Polytope, error) {
	if len(verts) == 0 {
		return nil, fmt.Errorf("narrow: polytope with no vertices")
	}
	p := &Polytope{Verts: verts}
	p.Measure()
	if len(verts) >= climbMin && len(tris) > 0 {
		p.adj = make([][]int32, len(verts))
		add := func(a, b int32) {
			if !slices.Contains(p.adj[a], b) {
				p.adj[a] = append(p.adj[a], b)
			}
		}
		for _, t := range tris {
			for k := range 3 {
				a, b := t[k], t[(k+1)%3]
				if a < 0 || b < 0 || int(a) >= len(verts) || int(b) >= len(verts) {
					return nil, fmt.Errorf("narrow: face %v indexes past %d vertices", t, len(verts))
				}
				add(a, b)
				add(b, a)
			}
		}
	}
	return p, nil
}

// Support returns the index of a vertex furthest along d, starting the
// climb at hint (any valid index; it is where the last query ended).
func (p *Polytope) Support(d geom.Vec3, hint int32) int32 {
	v := p.Verts
	if p.adj == nil {
		best, bi := v[0].Dot(d), int32(0)
		for i := 1; i < len(v); i++ {
			if s := v[i].Dot(d); s > best {
				best, bi = s, int32(i)
			}
		}
		return bi
	}
	if hint < 0 || int(hint) >= len(v) {
		hint = 0
	}
	cur, best := hint, v[hint].Dot(d)
	// On a convex polytope a vertex with no better neighbour is a maximum;
	// the step bound only guards a malformed adjacency.
	for range len(v) {
		moved := false
		for _, n := range p.adj[cur] {
			if s := v[n].Dot(d); s > best {
				best, cur, moved = s, n, true
			}
		}
		if !moved {
			break
		}
	}
	return cur
}

// Measure records the polytope's radius about its frame's origin, the
// scale of its queries' tolerances. NewPolytope measures the polytope it
// makes; the owner of a scratch polytope whose Verts it rewrites (a
// triangle, a box's corners) calls Measure after each rewrite, and no
// other goroutine may be querying it then.
func (p *Polytope) Measure() { p.radius = radiusOf(p.Verts) }

// Size returns the polytope's radius about its frame's origin, the scale
// of a query's tolerances, without writing to p.
func (p *Polytope) Size() float64 {
	if p.radius == 0 {
		return radiusOf(p.Verts) // a literal Polytope, or one point at the origin
	}
	return p.radius
}

// radiusOf returns the largest |v|.
func radiusOf(verts []geom.Vec3) float64 {
	m := 0.0
	for _, v := range verts {
		m = max(m, v.LenSqr())
	}
	return math.Sqrt(m)
}
