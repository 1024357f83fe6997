package mesh

import (
	"math"

	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/narrow"
)

// vertClear is what a solid knows of one link vertex between frames: at
// At it was outside the solid, no nearer to its surface than Dist (0:
// nothing known). The distance to a surface changes no faster than the
// point moves, so wherever the vertex is now, less than Dist from At, it
// is still outside: a solid's inside is reached only through its surface.
// That holds for a closed surface that does not cross itself; one that
// does can change sides away from its surface (env.Tree.SelfCrossing),
// and so can an open one (two sheets one over the other: halfway between
// them a point goes from in front of one to behind the other).
type vertClear struct {
	At   geom.Vec3
	Dist float64
}

// vertClearTol is the margin a vertex clearance keeps: the distance it
// came from is rounded, and a point within a nanometre of the surface is
// left to the exact query.
const vertClearTol = 1e-9

// holds reports whether the vertex, now at w, is proven outside.
func (c vertClear) holds(w geom.Vec3) bool {
	if c.Dist <= 0 {
		return false
	}
	room := c.Dist*(1-vertClearTol) - vertClearTol
	d := w.Sub(c.At)
	// The sum of magnitudes bounds the norm from above, without a square
	// root; only when that is not enough, the norm.
	if l1 := math.Abs(d.X) + math.Abs(d.Y) + math.Abs(d.Z); l1 < room {
		return true
	}
	return d.Len() < room
}

// keepsVertClears reports whether o keeps vertex clearances: a solid
// whose surface does not cross itself, with the accelerations on.
func (o *Object) keepsVertClears() bool { return o.solid && !o.crosses && !o.opt.NoAccel }

// vertClears returns link l's vertex clearances, nil where o keeps none.
func (o *Object) vertClears(l int) []vertClear {
	if o.vclear == nil {
		return nil
	}
	return o.vclear[l*o.maxVerts : (l+1)*o.maxVerts]
}

// clearVerts records that every vertex of link l, posed as link, is
// outside the solid and at least dist from its surface.
func (o *Object) clearVerts(link *narrow.Shape, l int, dist float64) {
	vc := o.vertClears(l)
	if vc == nil || !(dist > 0) {
		return
	}
	for i, v := range link.P.Verts {
		vc[i] = vertClear{At: link.X.Apply(v), Dist: dist}
	}
}
