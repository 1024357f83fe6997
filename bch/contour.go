package bch

import (
	"math"
	"slices"
)

// segment is a piece of the outline in the tree's plane, with the extent
// along the axis of the triangle it came from.
type segment struct {
	au, av, bu, bv float64
	lo, hi         float64
}

// outline is the contour of the union of projected triangles (the
// paper's contour, which it computed with the Clipper library): every
// piece of a triangle edge with the union on one side only. Triangles
// that project to no area are left out; they add no area to the union.
// A uniform grid over the plane finds each edge's neighbours.
type outline struct {
	segs []segment
	// The grid: cells[cellStart[c]:cellStart[c+1]] are the triangles
	// whose boxes meet cell c.
	u0, v0, cell  float64
	nu, nv        int
	cellStart     []int32
	cells         []int32
	stamp         []uint32
	round         uint32
	ts            []float64
	scale, offset float64
}

// areaTol is the projected area, relative to a triangle's squared edge
// lengths, below which it covers nothing.
const areaTol = 1e-12

// build computes the outline of the projected triangles of t (project
// must have run), splitting every piece longer than maxLen.
func (o *outline) build(t *Tree, maxLen float64) {
	n := len(t.cu)
	o.segs = o.segs[:0]
	o.grid(t, n)
	for i := range n {
		if !o.solid(t, int32(i)) {
			continue
		}
		for k := range 3 {
			o.edge(t, int32(i), k, maxLen)
		}
	}
}

// solid reports whether triangle i projects to an area.
func (o *outline) solid(t *Tree, i int32) bool {
	au, av := t.pu[3*i], t.pv[3*i]
	ux, uy := t.pu[3*i+1]-au, t.pv[3*i+1]-av
	vx, vy := t.pu[3*i+2]-au, t.pv[3*i+2]-av
	cr := ux*vy - uy*vx
	return math.Abs(cr) > areaTol*(ux*ux+uy*uy+vx*vx+vy*vy)
}

// grid buckets the triangles by the cells their boxes meet.
func (o *outline) grid(t *Tree, n int) {
	lu, hu, lv, hv := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for j := range t.pu {
		lu, hu = math.Min(lu, t.pu[j]), math.Max(hu, t.pu[j])
		lv, hv = math.Min(lv, t.pv[j]), math.Max(hv, t.pv[j])
	}
	w, h := hu-lu, hv-lv
	o.scale = math.Max(math.Max(w, h), 1e-300)
	// About two triangles a cell.
	side := max(1, int(math.Sqrt(float64(n)/2)))
	o.cell = o.scale / float64(side)
	o.u0, o.v0 = lu, lv
	o.nu, o.nv = int(w/o.cell)+1, int(h/o.cell)+1
	o.offset = 1e-9 * o.scale
	nc := o.nu * o.nv
	o.cellStart = grow(o.cellStart, nc+1)
	clear(o.cellStart)
	for pass := range 2 {
		for i := range n {
			a, b, c, d := o.box(t, int32(i))
			for cu := a; cu <= c; cu++ {
				for cv := b; cv <= d; cv++ {
					k := cu*o.nv + cv
					if pass == 0 {
						o.cellStart[k+1]++
					} else {
						o.cells[o.cellStart[k]] = int32(i)
						o.cellStart[k]++
					}
				}
			}
		}
		if pass == 0 {
			for k := range nc {
				o.cellStart[k+1] += o.cellStart[k]
			}
			o.cells = grow(o.cells, int(o.cellStart[nc]))
		} else {
			// Each start moved to the next cell's: shift back.
			copy(o.cellStart[1:], o.cellStart[:nc])
			o.cellStart[0] = 0
		}
	}
	o.stamp = grow(o.stamp, n)
	clear(o.stamp)
	o.round = 0
}

// box returns the cells triangle i's box meets: columns a..c, rows b..d.
func (o *outline) box(t *Tree, i int32) (a, b, c, d int) {
	lu, hu := min(t.pu[3*i], t.pu[3*i+1], t.pu[3*i+2]), max(t.pu[3*i], t.pu[3*i+1], t.pu[3*i+2])
	lv, hv := min(t.pv[3*i], t.pv[3*i+1], t.pv[3*i+2]), max(t.pv[3*i], t.pv[3*i+1], t.pv[3*i+2])
	return o.cellOf(lu, lv, hu, hv)
}

// cellOf returns the cells a box meets, clamped to the grid.
func (o *outline) cellOf(lu, lv, hu, hv float64) (a, b, c, d int) {
	clamp := func(x float64, n int) int { return min(max(int(x), 0), n-1) }
	return clamp((lu-o.u0)/o.cell, o.nu), clamp((lv-o.v0)/o.cell, o.nv),
		clamp((hu-o.u0)/o.cell, o.nu), clamp((hv-o.v0)/o.cell, o.nv)
}

// edge adds the pieces of triangle i's edge k that bound the union: the
// edge is cut where other triangles' edges cross it, and a piece is kept
// when the union covers just one side of it.
func (o *outline) edge(t *Tree, i int32, k int, maxLen float64) {
	au, av := t.pu[3*i+int32(k)], t.pv[3*i+int32(k)]
	bu, bv := t.pu[3*i+int32((k+1)%3)], t.pv[3*i+int32((k+1)%3)]
	o.ts = append(o.ts[:0], 0, 1)
	o.round++
	a, b, c, d := o.cellOf(min(au, bu), min(av, bv), max(au, bu), max(av, bv))
	for cu := a; cu <= c; cu++ {
		for cv := b; cv <= d; cv++ {
			cell := cu*o.nv + cv
			for _, j := range o.cells[o.cellStart[cell]:o.cellStart[cell+1]] {
				if j == i || o.stamp[j] == o.round || !o.solid(t, j) {
					continue
				}
				o.stamp[j] = o.round
				for m := range 3 {
					cu0, cv0 := t.pu[3*j+int32(m)], t.pv[3*j+int32(m)]
					cu1, cv1 := t.pu[3*j+int32((m+1)%3)], t.pv[3*j+int32((m+1)%3)]
					if s, ok := crossing(au, av, bu, bv, cu0, cv0, cu1, cv1); ok {
						o.ts = append(o.ts, s)
					}
				}
			}
		}
	}
	slices.Sort(o.ts)
	lu, lv := bu-au, bv-av
	l := math.Hypot(lu, lv)
	if !(l > 0) {
		return
	}
	nu, nv := -lv/l*o.offset, lu/l*o.offset
	for m := 1; m < len(o.ts); m++ {
		t0, t1 := o.ts[m-1], o.ts[m]
		if (t1-t0)*l <= o.offset {
			continue
		}
		mu, mv := au+lu*0.5*(t0+t1), av+lv*0.5*(t0+t1)
		if o.covered(t, mu+nu, mv+nv) == o.covered(t, mu-nu, mv-nv) || o.sharedBelow(t, i, mu, mv) {
			continue
		}
		// Pieces no longer than maxLen (the paper halves a single
		// segment longer than twice the threshold).
		pieces := 1
		if maxLen > 0 {
			pieces = max(1, int(math.Ceil((t1-t0)*l/maxLen)))
		}
		for p := range pieces {
			s0 := t0 + (t1-t0)*float64(p)/float64(pieces)
			s1 := t0 + (t1-t0)*float64(p+1)/float64(pieces)
			o.segs = append(o.segs, segment{au + lu*s0, av + lv*s0, au + lu*s1, av + lv*s1, t.lo[i], t.hi[i]})
		}
	}
}

// covered reports whether a triangle of the union holds (u, v).
func (o *outline) covered(t *Tree, u, v float64) bool {
	a, b, _, _ := o.cellOf(u, v, u, v)
	cell := a*o.nv + b
	for _, j := range o.cells[o.cellStart[cell]:o.cellStart[cell+1]] {
		if o.solid(t, j) && inside(t, j, u, v) {
			return true
		}
	}
	return false
}

// sharedBelow reports whether (u, v) lies on an edge of a triangle
// numbered below i: the edges of two triangles can lie on one line (a
// closed mesh's silhouette edge, shared by a face toward the viewer and
// one away), and that piece of the outline is the lower one's to add.
func (o *outline) sharedBelow(t *Tree, i int32, u, v float64) bool {
	a, b, _, _ := o.cellOf(u, v, u, v)
	cell := a*o.nv + b
	for _, j := range o.cells[o.cellStart[cell]:o.cellStart[cell+1]] {
		if j >= i || !o.solid(t, j) {
			continue
		}
		for k := range 3 {
			au, av := t.pu[3*j+int32(k)], t.pv[3*j+int32(k)]
			bu, bv := t.pu[3*j+int32((k+1)%3)], t.pv[3*j+int32((k+1)%3)]
			du, dv := bu-au, bv-av
			ll := du*du + dv*dv
			if !(ll > 0) {
				continue
			}
			s := ((u-au)*du + (v-av)*dv) / ll
			if s < 0 || s > 1 {
				continue
			}
			if eu, ev := au+du*s-u, av+dv*s-v; eu*eu+ev*ev <= o.offset*o.offset {
				return true
			}
		}
	}
	return false
}

// inside reports whether (u, v) is in projected triangle j, boundary
// included.
func inside(t *Tree, j int32, u, v float64) bool {
	var s [3]float64
	for k := range 3 {
		au, av := t.pu[3*j+int32(k)], t.pv[3*j+int32(k)]
		bu, bv := t.pu[3*j+int32((k+1)%3)], t.pv[3*j+int32((k+1)%3)]
		s[k] = (bu-au)*(v-av) - (bv-av)*(u-au)
	}
	return (s[0] >= 0 && s[1] >= 0 && s[2] >= 0) || (s[0] <= 0 && s[1] <= 0 && s[2] <= 0)
}

// crossing returns where segment c0-c1 meets segment a-b, as a fraction
// of a-b strictly between its ends; ok is false when they do not meet
// there or are parallel (an overlap along a line leaves no cut inside:
// coverage then decides the pieces).
func crossing(au, av, bu, bv, cu0, cv0, cu1, cv1 float64) (float64, bool) {
	ru, rv := bu-au, bv-av
	su, sv := cu1-cu0, cv1-cv0
	den := ru*sv - rv*su
	if den == 0 {
		return 0, false
	}
	qu, qv := cu0-au, cv0-av
	tt := (qu*sv - qv*su) / den
	uu := (qu*rv - qv*ru) / den
	if tt <= 0 || tt >= 1 || uu < 0 || uu > 1 {
		return 0, false
	}
	return tt, true
}
