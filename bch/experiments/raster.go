package experiments

import (
	"math"
	"slices"

	"github.com/gloved/gloved/bch"
	"github.com/gloved/gloved/geom"
)

// Raster is a grid of columns along a body's axis over a rectangle of its
// ground plane (tree coordinates), each column sampled at its centre.
// Sources add marks along a column: a solid's surface its crossings, a
// cylinder its extent. The columns' centres sit off the grid's round
// numbers by an irrational fraction of a cell, so that no centre falls on
// a mesh's edge by construction.
type Raster struct {
	U0, V0, Cell float64
	NU, NV       int
	marks        []mark
	start        []int32 // the marks of column c: sorted[start[c]:start[c+1]]
	sorted       []uint64
}

// mark is a point along column col where coverage changes: key holds
// the point and the change, ordered as the points are (see markKey).
type mark struct {
	col int32
	key uint64
}

// markKey encodes a change of coverage by step (+1 or -1) at w as an
// integer whose order is w's, openings first where points coincide: w's
// bits made order-preserving, their last bit given to the step.
func markKey(w float64, step int) uint64 {
	b := math.Float64bits(w)
	if b>>63 == 1 {
		b = ^b
	} else {
		b |= 1 << 63
	}
	b &^= 1
	if step < 0 {
		b |= 1
	}
	return b
}

// unmark decodes a key: its point (to 2^-52 of it) and step.
func unmark(k uint64) (w float64, step int) {
	step = 1
	if k&1 == 1 {
		step = -1
	}
	b := k &^ 1
	if b>>63 == 1 {
		b &^= 1 << 63
	} else {
		b = ^b
	}
	return math.Float64frombits(b), step
}

// jitter is the fraction of a cell the grid is shifted by.
const jitter = 0.6180339887498949

// Reset sizes r to cover [lu, hu] × [lv, hv] with square cells of side
// cell, and clears its marks.
func (r *Raster) Reset(lu, hu, lv, hv, cell float64) {
	r.Cell = cell
	r.U0, r.V0 = lu-jitter*cell, lv-jitter*cell
	r.NU, r.NV = int((hu-r.U0)/cell)+2, int((hv-r.V0)/cell)+2
	r.marks = r.marks[:0]
}

// centre returns column (i, j)'s sample point.
func (r *Raster) centre(i, j int) (u, v float64) {
	return r.U0 + (float64(i)+0.5)*r.Cell, r.V0 + (float64(j)+0.5)*r.Cell
}

// span returns the columns whose centres may lie in [lo, hi] along one
// grid direction from origin o, clamped to n columns.
func (r *Raster) span(lo, hi, o float64, n int) (int, int) {
	return max(0, int(math.Floor((lo-o)/r.Cell-0.5))), min(n-1, int(math.Ceil((hi-o)/r.Cell-0.5)))
}

// AddSurface marks where each column crosses triangle t (given in tree
// coordinates u, v and w along the axis): entering a solid (+1) where its
// outward normal points down the axis, leaving it (-1) where it points up.
// A closed, outward-wound surface thus marks its inside; overlapping
// solids add up.
func (r *Raster) AddSurface(t [3][3]float64) {
	ax, ay := t[1][0]-t[0][0], t[1][1]-t[0][1]
	bx, by := t[2][0]-t[0][0], t[2][1]-t[0][1]
	area := ax*by - ay*bx // twice the signed projected area
	if area == 0 {
		return // seen edge-on: no column crosses it
	}
	step := 1
	if area > 0 { // normal up the axis: the column leaves the solid
		step = -1
	}
	lu, hu := math.Min(t[0][0], math.Min(t[1][0], t[2][0])), math.Max(t[0][0], math.Max(t[1][0], t[2][0]))
	lv, hv := math.Min(t[0][1], math.Min(t[1][1], t[2][1])), math.Max(t[0][1], math.Max(t[1][1], t[2][1]))
	i0, i1 := r.span(lu, hu, r.U0, r.NU)
	j0, j1 := r.span(lv, hv, r.V0, r.NV)
	for j := j0; j <= j1; j++ {
		for i := i0; i <= i1; i++ {
			u, v := r.centre(i, j)
			pu, pv := u-t[0][0], v-t[0][1]
			// Barycentric coordinates of the centre.
			b1 := (pu*by - pv*bx) / area
			b2 := (ax*pv - ay*pu) / area
			if b1 < 0 || b2 < 0 || b1+b2 > 1 {
				continue
			}
			w := t[0][2] + b1*(t[1][2]-t[0][2]) + b2*(t[2][2]-t[0][2])
			r.marks = append(r.marks, mark{int32(j*r.NU + i), markKey(w, step)})
		}
	}
}

// AddCylinder marks node n's cylinder: its extent along every column
// whose centre lies in its disk.
func (r *Raster) AddCylinder(n *bch.Node) {
	c := n.Circle
	i0, i1 := r.span(c.X-c.Radius, c.X+c.Radius, r.U0, r.NU)
	j0, j1 := r.span(c.Y-c.Radius, c.Y+c.Radius, r.V0, r.NV)
	for j := j0; j <= j1; j++ {
		for i := i0; i <= i1; i++ {
			u, v := r.centre(i, j)
			if du, dv := u-c.X, v-c.Y; du*du+dv*dv <= c.Radius*c.Radius {
				col := int32(j*r.NU + i)
				r.marks = append(r.marks, mark{col, markKey(n.Lo, 1)}, mark{col, markKey(n.Hi, -1)})
			}
		}
	}
}

// Measure returns the volume where the coverage is positive (each
// column's covered length times a cell's area), the area of the columns
// with any mark, and the number of columns whose marks do not sum to
// zero (an open surface; 0 for closed ones).
func (r *Raster) Measure() (volume, area float64, odd int) {
	n := r.NU * r.NV
	r.start = grow(r.start, n+1)
	clear(r.start)
	for _, m := range r.marks {
		r.start[m.col+1]++
	}
	for c := range n {
		r.start[c+1] += r.start[c]
	}
	r.sorted = grow(r.sorted, len(r.marks))
	fill := append([]int32(nil), r.start[:n]...)
	for _, m := range r.marks {
		r.sorted[fill[m.col]] = m.key
		fill[m.col]++
	}
	length, columns := 0.0, 0
	for c := range n {
		ms := r.sorted[r.start[c]:r.start[c+1]]
		if len(ms) == 0 {
			continue
		}
		columns++
		slices.Sort(ms)
		cover, last := 0, 0.0
		for _, k := range ms {
			w, step := unmark(k)
			if cover > 0 {
				length += w - last
			}
			cover, last = cover+step, w
		}
		if cover != 0 {
			odd++
		}
	}
	a := r.Cell * r.Cell
	return length * a, float64(columns) * a, odd
}

// grow returns s with length n, reusing its storage when it can.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// project returns t in tree coordinates of frame f.
func (f Frame) project(t geom.Triangle) [3][3]float64 {
	var out [3][3]float64
	for k, p := range t {
		out[k] = [3]float64{p.Dot(f.U), p.Dot(f.V), p.Dot(f.Axis)}
	}
	return out
}
