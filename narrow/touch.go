package narrow

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
)

// touches reports whether scene triangle tri meets link l (placed by
// link, inv its inverse). Most triangles are settled in the link's frame
// by its faces' planes: one with a corner inside or on the link meets it,
// one wholly outside a face's plane does not; only the rest, which cross
// the link's boundary between corners, take GJK.
func (s *Solver) touches(link *Shape, l int, inv geom.Transform, tri int32) bool {
	g := &s.geoms[l]
	var x [3]mgl64.Vec3
	for k, v := range s.scene.Tris[tri] {
		x[k] = inv.Apply(s.scene.Verts[v])
		if d, _ := g.depthIn(x[k], -math.SmallestNonzeroFloat64); d >= 0 {
			return true
		}
	}
	for _, p := range g.planes {
		if p.N.Dot(x[0]) > p.D && p.N.Dot(x[1]) > p.D && p.N.Dot(x[2]) > p.D {
			return false
		}
	}
	s.setTriangle(tri)
	sh := Shape{P: &s.tri, X: geom.Identity()}
	return Intersects(link, &sh)
}
