package experiments

import (
	"math"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
)

// Heights of the closed block: its bottom, and its rippled top under the
// demo grasp, where the curled fingers (down to 0.81 m) sink in up to 2 cm
// and the open hand (0.89 m and up) is clear of it.
const (
	blockBottom = 0.70
	blockTop    = 0.83
)

// blockHeight is the block's top: ripples of 1 cm around blockTop.
func blockHeight(x, z float64) float64 {
	return blockTop + 0.01*math.Sin(x*40)*math.Cos(z*33)
}

// Block returns a closed height-field block of about tris triangles: a 1 m
// square terrain of n² cells (env.Terrain) as its top, four walls down to
// blockBottom and a bottom fanned from its centre, sharing the top's
// boundary vertices so that it is watertight, every face wound outward:
// 2n² + 12n triangles, one object.
func Block(tris int) *env.Mesh {
	n := max(2, int(math.Round((math.Sqrt(144+8*float64(tris))-12)/4))) // 2n² + 12n = tris
	m := env.Terrain("block", n, blockHeight)
	// The top's boundary counter-clockwise seen from above as the top's
	// triangles wind (from +z toward +x): vertex (i, j) is i*(n+1)+j, x from
	// i and z from j. Along x = -0.5 in +z, z = 0.5 in +x, x = 0.5 in -z,
	// z = -0.5 in -x.
	at := func(i, j int) int32 { return int32(i*(n+1) + j) }
	var ring []int32
	for k := range n {
		ring = append(ring, at(0, k))
	}
	for k := range n {
		ring = append(ring, at(k, n))
	}
	for k := range n {
		ring = append(ring, at(n, n-k))
	}
	for k := range n {
		ring = append(ring, at(n-k, 0))
	}
	below := make([]int32, len(ring))
	for k, v := range ring {
		p := m.Verts[v]
		below[k] = int32(len(m.Verts))
		m.Verts = append(m.Verts, geom.Vec3{X: p.X, Y: blockBottom, Z: p.Z})
	}
	centre := int32(len(m.Verts))
	m.Verts = append(m.Verts, geom.Vec3{Y: blockBottom})
	for k := range ring {
		a, b := ring[k], ring[(k+1)%len(ring)]
		lo, lb := below[k], below[(k+1)%len(ring)]
		// The wall runs from a to b; outward is to its left seen from
		// above, so from a the quad turns down to lo, across to lb and up
		// to b.
		m.Tris = append(m.Tris, [3]int32{a, lo, lb}, [3]int32{a, lb, b}, [3]int32{centre, lb, lo})
		m.Object = append(m.Object, 0, 0, 0)
	}
	return m
}
