package env

import (
	"fmt"
	"math"

	"github.com/gloved/gloved/geom"
)

// Grid is a coarse voxel map of a surface, built at load, that bounds the
// frame's exact queries without answering any: each cell knows how far,
// in cells of the chessboard metric, it is from the nearest cell the
// surface passes through, and, for a closed surface, whether it lies
// wholly inside. A point of a cell k cells from every surface cell is at
// least (k-1)·H from the surface, so a box over cells all k or more away
// is that far from it: the narrow-band idea of distance fields (Jones,
// Bærentzen and Sramek, "3D distance fields: a survey of techniques and
// applications", IEEE TVCG 12(4), 2006), kept to bounds so that it can
// only prune.
type Grid struct {
	Min geom.Vec3 // the low corner of cell (0, 0, 0)
	H   float64   // the cells' edge (m)
	N   [3]int    // cells along x, y and z
	// Per cell, x fastest: bits 0-6 the chessboard distance to the
	// nearest surface cell (at most gridFar), bit 7 set for a cell wholly
	// inside a closed surface.
	cells  []uint8
	closed bool
	inner  geom.AABB // the surface's own box
}

const (
	// gridMargin is how many empty cells the grid keeps around the
	// surface's box, so that its border cells are away from the surface.
	gridMargin = 2
	// gridFar is the largest distance a cell records: farther is as far.
	gridFar    = 127
	gridInside = 1 << 7
	// DefaultGridCells is the cells (bytes) a grid takes at most unless
	// told: 256 KiB, or 32 a triangle where that is less. Cells of 1.7 mm
	// over a 13 cm torus, 9 mm over a 1 m terrain.
	DefaultGridCells = 1 << 18
	gridCellsPerTri  = 32
)

// NewGrid maps the triangles of m in at most maxCells cells (0:
// DefaultGridCells, or 32 a triangle where that is less, 4096 at least). For a closed surface, inside is its exact
// inside-outside test: it classifies one point of each connected region
// of empty cells, and so every cell of it. An open surface passes nil.
func NewGrid(m *Mesh, maxCells int, inside func(p geom.Vec3) bool) (*Grid, error) {
	if len(m.Tris) == 0 {
		return nil, fmt.Errorf("env: grid: %w", ErrEmpty)
	}
	if maxCells <= 0 {
		maxCells = min(DefaultGridCells, max(4096, gridCellsPerTri*len(m.Tris)))
	}
	box := geom.EmptyAABB()
	for _, t := range m.Tris {
		for _, v := range t {
			box = box.Extend(m.Verts[v])
		}
	}
	g := &Grid{inner: box, closed: inside != nil}
	if !g.size(box, maxCells) {
		return nil, fmt.Errorf("env: grid: a surface of extent %v does not fit %d cells", box.Max.Sub(box.Min), maxCells)
	}
	g.cells = make([]uint8, g.N[0]*g.N[1]*g.N[2])
	for i := range g.cells {
		g.cells[i] = gridFar
	}
	for i := range m.Tris {
		g.markTriangle(m.Triangle(i))
	}
	g.spread()
	if inside != nil {
		g.classify(inside)
	}
	return g, nil
}

// size chooses the cell edge: the smallest (in steps of 5%) for which the
// surface's box and the margin fit in maxCells cells.
func (g *Grid) size(box geom.AABB, maxCells int) bool {
	e := box.Max.Sub(box.Min)
	if !e.Finite() || !(e.MaxAbs() < 1e15) {
		return false // an extent past float64's reach, or too wide to map
	}
	vol := math.Max(e.X, 1e-9) * math.Max(e.Y, 1e-9) * math.Max(e.Z, 1e-9)
	h := math.Max(math.Cbrt(vol/float64(maxCells)), e.MaxAbs()/float64(maxCells))
	h = math.Max(h, 1e-9)
	for range 1000 {
		n := [3]int{}
		total := 1.0
		for k := range 3 {
			cells := math.Floor(e.At(k)/h) + 1 + 2*gridMargin
			if !(cells <= float64(maxCells)) {
				total = math.Inf(1)
				break
			}
			n[k] = int(cells)
			total *= cells
		}
		if total <= float64(maxCells) {
			g.H, g.N = h, n
			g.Min = box.Min.Sub(geom.Vec3{X: h, Y: h, Z: h}.Mul(gridMargin))
			return true
		}
		h *= 1.05
	}
	return false
}

// index returns the cell of coordinate x along axis k, unclamped.
func (g *Grid) index(x float64, k int) int {
	return int(math.Floor((x - g.Min.At(k)) / g.H))
}

// cellRange returns the cells along axis k that a coordinate range
// [lo, hi] may touch, widened by a part in a billion of a cell so that a
// point on a cell's face is in both its cells, and clamped to the grid;
// clamped reports whether the range reaches past it.
func (g *Grid) cellRange(lo, hi float64, k int) (a, b int, clamped bool) {
	const tol = 1e-9
	a = int(math.Floor((lo-g.Min.At(k))/g.H - tol))
	b = int(math.Floor((hi-g.Min.At(k))/g.H + tol))
	if a < 0 {
		a, clamped = 0, true
	}
	if b > g.N[k]-1 {
		b, clamped = g.N[k]-1, true
	}
	return a, b, clamped
}

// markTriangle marks the cells triangle t passes through as surface
// cells: it cuts t into its slabs of cells along z, each of those into
// rows along y, and marks the cells of each piece's extent along x, so a
// long sliver marks the cells along it, not the whole of its box.
// (Clipping is Sutherland and Hodgman's, "Reentrant polygon clipping",
// CACM 17(1), 1974.) The slabs overlap by a part in a billion of a cell,
// which covers the clipping's rounding.
func (g *Grid) markTriangle(t geom.Triangle) {
	x0, x1, _ := g.cellRange(min(t[0].X, t[1].X, t[2].X), max(t[0].X, t[1].X, t[2].X), 0)
	y0, y1, _ := g.cellRange(min(t[0].Y, t[1].Y, t[2].Y), max(t[0].Y, t[1].Y, t[2].Y), 1)
	z0, z1, _ := g.cellRange(min(t[0].Z, t[1].Z, t[2].Z), max(t[0].Z, t[1].Z, t[2].Z), 2)
	if x1-x0 <= 1 && y1-y0 <= 1 && z1-z0 <= 1 { // a small triangle: its box
		for z := z0; z <= z1; z++ {
			for y := y0; y <= y1; y++ {
				base := (z*g.N[1] + y) * g.N[0]
				for x := x0; x <= x1; x++ {
					g.cells[base+x] = 0
				}
			}
		}
		return
	}
	var slab, row, tmp [9]geom.Vec3
	for z := z0; z <= z1; z++ {
		pz := g.clip(t[:], 2, z, &tmp, &slab)
		if len(pz) == 0 {
			continue
		}
		ylo, yhi := extent(pz, 1)
		y0, y1, _ := g.cellRange(ylo, yhi, 1)
		for y := y0; y <= y1; y++ {
			py := g.clip(pz, 1, y, &tmp, &row)
			if len(py) == 0 {
				continue
			}
			xlo, xhi := extent(py, 0)
			x0, x1, _ := g.cellRange(xlo, xhi, 0)
			base := (z*g.N[1] + y) * g.N[0]
			for x := x0; x <= x1; x++ {
				g.cells[base+x] = 0
			}
		}
	}
}

// clip returns the part of convex polygon p within cell slab i along axis
// k, widened by the cells' tolerance, in out (tmp is scratch).
func (g *Grid) clip(p []geom.Vec3, k, i int, tmp, out *[9]geom.Vec3) []geom.Vec3 {
	const tol = 1e-9
	lo := g.Min.At(k) + (float64(i)-tol)*g.H
	hi := g.Min.At(k) + (float64(i)+1+tol)*g.H
	a := clipHalf(p, k, lo, 1, tmp[:0])
	return clipHalf(a, k, hi, -1, out[:0])
}

// clipHalf appends to out the part of convex polygon p where sign·(x_k -
// at) >= 0.
func clipHalf(p []geom.Vec3, k int, at, sign float64, out []geom.Vec3) []geom.Vec3 {
	for i, a := range p {
		b := p[(i+1)%len(p)]
		da, db := sign*(a.At(k)-at), sign*(b.At(k)-at)
		if da >= 0 {
			out = append(out, a)
		}
		if (da >= 0) != (db >= 0) {
			out = append(out, a.Add(b.Sub(a).Mul(da/(da-db))))
		}
	}
	return out
}

// extent returns the least and greatest coordinate k of points p.
func extent(p []geom.Vec3, k int) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range p {
		lo, hi = math.Min(lo, v.At(k)), math.Max(hi, v.At(k))
	}
	return lo, hi
}

// spread sets every cell's chessboard distance to the nearest surface
// cell: the 3×3×3 chamfer with unit weights, one pass forward and one
// back, which is exact for that metric (Borgefors, "Distance
// transformations in digital images", CVGIP 34(3), 1986), capped at
// gridFar.
func (g *Grid) spread() {
	nx, ny, nz := g.N[0], g.N[1], g.N[2]
	pass := func(x, y, z, step int) {
		i := (z*ny+y)*nx + x
		d := g.cells[i]
		for dz := -1; dz <= 0; dz++ {
			w := z + dz*step
			if w < 0 || w >= nz {
				continue
			}
			for dy := -1; dy <= 1; dy++ {
				if dz == 0 && dy > 0 {
					break
				}
				v := y + dy*step
				if v < 0 || v >= ny {
					continue
				}
				row := (w*ny + v) * nx
				for dx := -1; dx <= 1; dx++ {
					if dz == 0 && dy == 0 && dx >= 0 {
						break
					}
					if u := x + dx*step; u >= 0 && u < nx {
						d = min(d, g.cells[row+u]+1)
					}
				}
			}
		}
		g.cells[i] = min(d, gridFar)
	}
	for z := range nz {
		for y := range ny {
			for x := range nx {
				pass(x, y, z, 1)
			}
		}
	}
	for z := nz - 1; z >= 0; z-- {
		for y := ny - 1; y >= 0; y-- {
			for x := nx - 1; x >= 0; x-- {
				pass(x, y, z, -1)
			}
		}
	}
}

// classify flags the cells wholly inside a closed surface: each connected
// region of empty cells (face to face) lies on one side of the surface,
// which inside tells at the centre of its first cell.
func (g *Grid) classify(inside func(p geom.Vec3) bool) {
	seen := make([]bool, len(g.cells))
	var region []int32
	nx, nxy := g.N[0], g.N[0]*g.N[1]
	for start := range g.cells {
		if seen[start] || g.cells[start] == 0 {
			continue
		}
		region = append(region[:0], int32(start))
		seen[start] = true
		for head := 0; head < len(region); head++ {
			i := int(region[head])
			x, y, z := i%nx, (i/nx)%g.N[1], i/nxy
			for _, n := range [6][4]int{{x - 1, y, z, i - 1}, {x + 1, y, z, i + 1}, {x, y - 1, z, i - nx}, {x, y + 1, z, i + nx}, {x, y, z - 1, i - nxy}, {x, y, z + 1, i + nxy}} {
				if n[0] < 0 || n[1] < 0 || n[2] < 0 || n[0] >= nx || n[1] >= g.N[1] || n[2] >= g.N[2] {
					continue
				}
				if j := n[3]; !seen[j] && g.cells[j] != 0 {
					seen[j] = true
					region = append(region, int32(j))
				}
			}
		}
		x, y, z := start%nx, (start/nx)%g.N[1], start/nxy
		centre := g.Min.Add(geom.Vec3{X: float64(x) + 0.5, Y: float64(y) + 0.5, Z: float64(z) + 0.5}.Mul(g.H))
		if inside(centre) {
			for _, i := range region {
				g.cells[i] |= gridInside
			}
		}
	}
}

// Bytes is the memory the grid's cells take.
func (g *Grid) Bytes() int { return len(g.cells) }

// Gap bounds from below the distance from every point of box b to the
// surface: (k-1)·H for the cells of b at least k cells from the surface,
// or the gap between b and the surface's own box where that is more. It
// is 0 when the grid cannot tell.
func (g *Grid) Gap(b geom.AABB) float64 {
	var lo, hi [3]int
	clamped := false
	for k := range 3 {
		var c bool
		lo[k], hi[k], c = g.cellRange(b.Min.At(k), b.Max.At(k), k)
		clamped = clamped || c
		if lo[k] > hi[k] { // wholly past the grid on this axis
			return boxGap(b, g.inner)
		}
	}
	near := gridFar
	for z := lo[2]; z <= hi[2] && near > 1; z++ {
		for y := lo[1]; y <= hi[1] && near > 1; y++ {
			row := g.cells[(z*g.N[1]+y)*g.N[0]:]
			for x := lo[0]; x <= hi[0]; x++ {
				near = min(near, int(row[x]&^gridInside))
			}
		}
	}
	gap := float64(near-1) * g.H
	if clamped { // a part of b is past the grid, at least its margin away
		gap = math.Min(gap, float64(gridMargin-1)*g.H)
	}
	return math.Max(0, math.Max(gap, boxGap(b, g.inner)))
}

// GapAtLeast is Gap where any bound above need will do. It first takes
// the distance of b's middle cell less how many cells the rest of b's
// reach from it: a cell's chessboard distance to the surface's cells
// differs from its neighbour's by at most one, so no cell of b is nearer.
// That reads one cell where Gap reads every cell of b; only when it is
// not above need, or b reaches past the grid, is Gap asked.
func (g *Grid) GapAtLeast(b geom.AABB, need float64) float64 {
	var mid [3]int
	reach := 0
	for k := range 3 {
		lo, hi, clamped := g.cellRange(b.Min.At(k), b.Max.At(k), k)
		if clamped || lo > hi {
			return g.Gap(b)
		}
		mid[k] = (lo + hi) / 2
		reach = max(reach, mid[k]-lo, hi-mid[k])
	}
	v := int(g.cells[(mid[2]*g.N[1]+mid[1])*g.N[0]+mid[0]] &^ gridInside)
	if gap := float64(v-reach-1) * g.H; gap > need {
		return gap
	}
	return g.Gap(b)
}

// Side tells whether point p is inside the closed surface, when its cell
// is clear of the surface (sure); an open surface's grid is never sure.
func (g *Grid) Side(p geom.Vec3) (inside, sure bool) {
	if !g.closed {
		return false, false
	}
	x, y, z := g.index(p.X, 0), g.index(p.Y, 1), g.index(p.Z, 2)
	if x < 0 || y < 0 || z < 0 || x >= g.N[0] || y >= g.N[1] || z >= g.N[2] {
		return false, true // past the grid: outside the surface's box
	}
	c := g.cells[(z*g.N[1]+y)*g.N[0]+x]
	if c&^gridInside == 0 {
		return false, false // a surface cell
	}
	return c&gridInside != 0, true
}

// boxGap is the distance between two axis-aligned boxes (0 if they meet).
func boxGap(a, b geom.AABB) float64 {
	var d geom.Vec3
	d.X = math.Max(0, math.Max(a.Min.X-b.Max.X, b.Min.X-a.Max.X))
	d.Y = math.Max(0, math.Max(a.Min.Y-b.Max.Y, b.Min.Y-a.Max.Y))
	d.Z = math.Max(0, math.Max(a.Min.Z-b.Max.Z, b.Min.Z-a.Max.Z))
	return d.Len()
}
