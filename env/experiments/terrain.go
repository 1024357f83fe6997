package experiments

import (
	"math"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
)

// The exported terrain is 1 m square over x, z in [-0.5, 0.5], cut into
// terrainTiles² tiles of its own as a tool exports them: each tile is
// written with vertices of its own (seams), at a resolution of its own
// (T-junctions where it differs from a neighbour's), some as strips or
// fans of long slivers, one twice, and one more laid across four others.
const (
	terrainTiles = 4
	tileSize     = 1.0 / terrainTiles
	terrainBase  = 0.705 // the ground's height before its teeth and dimples
	spikeTop     = 1.0   // the corner spikes' tops, above the hand
)

// terrainHeight is the exported terrain's ground: teeth and dimples in a
// 5 cm checkerboard, 2 cm high under the hand growing to 5 cm at the
// field's edge, around terrainBase. Under the demo grasp its top is about
// 0.727 m, 8 cm below the lowest point the simulated motions reach.
func terrainHeight(x, z float64) float64 {
	const period = 0.05
	amp := 0.02 + 0.03*math.Min(1, (x*x+z*z)/0.25)
	cx, cz := math.Floor(x/period), math.Floor(z/period)
	tx, tz := x/period-cx, z/period-cz // position in the cell, [0, 1)
	peak := (1 - math.Abs(2*tx-1)) * (1 - math.Abs(2*tz-1))
	if int(cx+cz)%2 != 0 {
		peak = -peak // a dimple
	}
	return terrainBase + amp*peak
}

// ExportedTerrain returns the exported terrain of about tris triangles as
// one open object. The tiles' row at the near edge (z < -0.25) is one
// band of strips spanning the whole field, each between a row of many
// samples and a row of two (slivers up to 1 m long); of the others, a
// checkerboard alternates resolutions n and 2n, the far corner tile is a
// fan from its centre, the tile at (-0.25..0, 0..0.25) is written twice,
// and a tile at resolution 3n lies over the four under the hand. Four
// spikes at the corners rise to spikeTop, so that the hand is inside the
// terrain's bounding box, 35 cm or more from them.
func ExportedTerrain(tris int) *env.Mesh {
	n := max(2, int(math.Round(math.Sqrt(float64(tris)/80)))) // 80n² + 9n + 16 triangles
	m := &env.Mesh{Objects: []string{"terrain"}}
	stripBand(m, n)
	for i := range terrainTiles {
		for j := 1; j < terrainTiles; j++ {
			x, z := -0.5+float64(i)*tileSize, -0.5+float64(j)*tileSize
			switch {
			case i == terrainTiles-1 && j == terrainTiles-1:
				fanTile(m, x, z, 2*n)
			case (i+j)%2 == 0:
				gridTile(m, x, z, tileSize, 2*n)
			default:
				gridTile(m, x, z, tileSize, n)
			}
		}
	}
	gridTile(m, -tileSize, 0, tileSize, n) // the duplicate: (i+j) odd, resolution n
	gridTile(m, -tileSize/2, -tileSize/2, tileSize, 3*n)
	for _, c := range [4][2]float64{{-0.45, -0.45}, {0.45, -0.45}, {-0.45, 0.45}, {0.45, 0.45}} {
		spike(m, c[0], c[1])
	}
	return m
}

// groundVert appends a vertex on the ground at x, z and returns its index.
func groundVert(m *env.Mesh, x, z float64) int32 {
	m.Verts = append(m.Verts, geom.Vec3{X: x, Y: terrainHeight(x, z), Z: z})
	return int32(len(m.Verts) - 1)
}

// addTri appends triangle a, b, c. The ground's triangles are wound up (their
// normal is +y): from a, b lies toward +z and c toward +x.
func addTri(m *env.Mesh, a, b, c int32) {
	m.Tris = append(m.Tris, [3]int32{a, b, c})
	m.Object = append(m.Object, 0)
}

// gridTile appends a size-square tile from (x0, z0) of r² cells, two
// triangles each, with vertices of its own.
func gridTile(m *env.Mesh, x0, z0, size float64, r int) {
	base := int32(len(m.Verts))
	for i := 0; i <= r; i++ {
		for j := 0; j <= r; j++ {
			groundVert(m, x0+size*float64(i)/float64(r), z0+size*float64(j)/float64(r))
		}
	}
	at := func(i, j int) int32 { return base + int32(i*(r+1)+j) }
	for i := range r {
		for j := range r {
			addTri(m, at(i, j), at(i, j+1), at(i+1, j+1))
			addTri(m, at(i, j), at(i+1, j+1), at(i+1, j))
		}
	}
}

// fanTile appends the tile from (x0, z0) as a fan from its centre to r
// samples along each side: 4r slivers.
func fanTile(m *env.Mesh, x0, z0 float64, r int) {
	c := groundVert(m, x0+tileSize/2, z0+tileSize/2)
	// The boundary counter-clockwise seen from above (+y): from (x0, z0)
	// along +z, then +x, then -z, then -x.
	var ring []int32
	for k := range 4 * r {
		side, t := k/r, tileSize*float64(k%r)/float64(r)
		switch side {
		case 0:
			ring = append(ring, groundVert(m, x0, z0+t))
		case 1:
			ring = append(ring, groundVert(m, x0+t, z0+tileSize))
		case 2:
			ring = append(ring, groundVert(m, x0+tileSize, z0+tileSize-t))
		default:
			ring = append(ring, groundVert(m, x0+tileSize-t, z0))
		}
	}
	for k := range ring {
		addTri(m, c, ring[k], ring[(k+1)%len(ring)])
	}
}

// stripBand appends the near row of tiles, z in [-0.5, -0.25], as n
// strips spanning the whole field: rows alternate between 8n+1 samples
// and the two ends, and each strip zips its two rows into triangles as a
// TIN does, all but one of them slivers up to 1 m long.
func stripBand(m *env.Mesh, n int) {
	row := func(z float64, samples int) []int32 {
		var r []int32
		for k := range samples {
			r = append(r, groundVert(m, -0.5+float64(k)/float64(samples-1), z))
		}
		return r
	}
	for s := range n {
		z0, z1 := -0.5+tileSize*float64(s)/float64(n), -0.5+tileSize*float64(s+1)/float64(n)
		if s%2 == 0 {
			zip(m, row(z0, 8*n+1), row(z1, 2))
		} else {
			zip(m, row(z0, 2), row(z1, 8*n+1))
		}
	}
}

// zip triangulates the strip between row a (at the smaller z) and row b,
// both running in +x, advancing along whichever row's next sample is
// nearer in x: a TIN's strip between two rows of different sampling.
func zip(m *env.Mesh, a, b []int32) {
	i, j := 0, 0
	for i < len(a)-1 || j < len(b)-1 {
		adv := j == len(b)-1 || (i < len(a)-1 && m.Verts[a[i+1]].X <= m.Verts[b[j+1]].X)
		if adv {
			addTri(m, a[i], b[j], a[i+1])
			i++
		} else {
			addTri(m, a[i], b[j], b[j+1])
			j++
		}
	}
}

// spike appends a four-sided pyramid from the ground around (x, z) up to
// spikeTop: a 5 cm square base, faces wound outward.
func spike(m *env.Mesh, x, z float64) {
	const h = 0.025
	a, b, c, d := groundVert(m, x-h, z-h), groundVert(m, x-h, z+h), groundVert(m, x+h, z+h), groundVert(m, x+h, z-h)
	m.Verts = append(m.Verts, geom.Vec3{X: x, Y: spikeTop, Z: z})
	top := int32(len(m.Verts) - 1)
	addTri(m, a, b, top)
	addTri(m, b, c, top)
	addTri(m, c, d, top)
	addTri(m, d, a, top)
}
