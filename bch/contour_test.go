package bch

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
)

// bruteCovered is covered without the grid: any projected triangle of
// area holds (u, v).
func bruteCovered(t *Tree, u, v float64) bool {
	for j := range len(t.cu) {
		if t.outline.solid(t, int32(j)) && inside(t, int32(j), u, v) {
			return true
		}
	}
	return false
}

// onBoundary reports whether the union covers just one side of (u, v)
// across direction (du, dv) (unit), by brute force.
func onBoundary(t *Tree, u, v, du, dv float64) bool {
	d := t.outline.offset
	return bruteCovered(t, u-dv*d, v+du*d) != bruteCovered(t, u+dv*d, v-du*d)
}

// outlineOf builds a contour tree of tris about axis and returns it with
// the triangles' projection (the outline replaces the tree's items).
func outlineOf(t *testing.T, tris []geom.Triangle, axis geom.Vec3) (*Tree, *Tree) {
	var tr, proj Tree
	if err := tr.Build(tris, axis, Options{Variant: Contour, Threshold: 0.004}); err != nil {
		t.Fatal(err)
	}
	proj.Axis = tr.Axis
	proj.U, proj.V = tr.U, tr.V
	proj.project(tris)
	proj.outline.grid(&proj, len(tris))
	proj.outline.offset = tr.outline.offset
	return &tr, &proj
}

// TestOutlineIsTheUnionsBoundary: on random triangle sets projected about
// random axes, every piece of the outline has the union on one side only
// (brute force over all triangles), and every point of a triangle edge
// where the union covers one side only lies on a piece.
func TestOutlineIsTheUnionsBoundary(t *testing.T) {
	r := rand.New(rand.NewPCG(18, 6))
	boundary, n := 0, trials(60)
	for trial := range n {
		tris := blob(r, 5+r.IntN(80), geom.Vec3{}, 0.03, 0.03)
		tr, proj := outlineOf(t, tris, randomAxis(r))
		segs := tr.outline.segs
		for i, s := range segs {
			du, dv := s.bu-s.au, s.bv-s.av
			l := math.Hypot(du, dv)
			if !onBoundary(proj, 0.5*(s.au+s.bu), 0.5*(s.av+s.bv), du/l, dv/l) {
				t.Fatalf("trial %d: piece %d (%+v) has the union on both sides or neither", trial, i, s)
			}
		}
		for j, tri := range tris {
			if !proj.outline.solid(proj, int32(j)) {
				continue
			}
			for k := range 3 {
				a, b := tri[k], tri[(k+1)%3]
				au, av, bu, bv := a.Dot(proj.U), a.Dot(proj.V), b.Dot(proj.U), b.Dot(proj.V)
				l := math.Hypot(bu-au, bv-av)
				for range 10 {
					s := 0.05 + 0.9*r.Float64()
					u, v := au+(bu-au)*s, av+(bv-av)*s
					if !onBoundary(proj, u, v, (bu-au)/l, (bv-av)/l) {
						continue
					}
					boundary++
					if d := nearestPiece(segs, u, v); d > 1e-9 {
						t.Fatalf("trial %d: boundary point (%v, %v) of triangle %d is %g from the outline", trial, u, v, j, d)
					}
				}
			}
		}
	}
	if boundary < 1000*n/60 {
		t.Fatalf("only %d boundary points sampled in %d trials", boundary, n)
	}
}

// nearestPiece is the distance from (u, v) to the nearest piece.
func nearestPiece(segs []segment, u, v float64) float64 {
	best := math.Inf(1)
	for _, s := range segs {
		du, dv := s.bu-s.au, s.bv-s.av
		tt := ((u-s.au)*du + (v-s.av)*dv) / (du*du + dv*dv)
		tt = math.Max(0, math.Min(1, tt))
		best = math.Min(best, math.Hypot(s.au+du*tt-u, s.av+dv*tt-v))
	}
	return best
}

// TestOutlineOfABoxIsItsShadow: the outline of a closed box seen along
// any axis is its shadow's boundary, a convex polygon: the pieces' total
// length is the perimeter of the projected corners' convex hull.
func TestOutlineOfABoxIsItsShadow(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 7))
	for trial := range 100 {
		x := geom.Transform{R: mgl64.QuatRotate(r.Float64()*6, randomAxis(r).Normalize().Mgl()).Mat4().Mat3(), T: geom.Vec3{X: 0.1, Y: 0.2, Z: 0.3}}
		tris := boxTris(x, geom.Vec3{X: 0.02 + 0.05*r.Float64(), Y: 0.02 + 0.05*r.Float64(), Z: 0.02 + 0.05*r.Float64()})
		axis := randomAxis(r)
		if trial%5 == 0 {
			axis = x.Rotate(geom.Vec3{Z: 1}) // along an edge: faces project to nothing
		}
		var tr Tree
		if err := tr.Build(tris, axis, Options{Variant: Contour, Threshold: 0.003}); err != nil {
			t.Fatal(err)
		}
		total := 0.0
		for _, s := range tr.outline.segs {
			total += math.Hypot(s.bu-s.au, s.bv-s.av)
		}
		var pts [][2]float64
		for _, tri := range tris {
			for _, p := range tri {
				pts = append(pts, [2]float64{p.Dot(tr.U), p.Dot(tr.V)})
			}
		}
		if want := hullPerimeter(pts); math.Abs(total-want) > 1e-9 {
			t.Fatalf("trial %d: outline length %v, shadow's perimeter %v", trial, total, want)
		}
	}
}

// boxTris is a closed box of half-extents h placed by x: 12 triangles.
func boxTris(x geom.Transform, h geom.Vec3) []geom.Triangle {
	c := func(i int) geom.Vec3 {
		return x.Apply(geom.Vec3{X: h.X * float64(2*(i&1)-1), Y: h.Y * float64((i&2)-1), Z: h.Z * float64((i&4)/2-1)})
	}
	quads := [6][4]int{{0, 1, 3, 2}, {4, 6, 7, 5}, {0, 4, 5, 1}, {2, 3, 7, 6}, {0, 2, 6, 4}, {1, 5, 7, 3}}
	var out []geom.Triangle
	for _, q := range quads {
		out = append(out, geom.Triangle{c(q[0]), c(q[1]), c(q[2])}, geom.Triangle{c(q[0]), c(q[2]), c(q[3])})
	}
	return out
}

// hullPerimeter is the perimeter of the points' convex hull (Andrew's
// monotone chain).
func hullPerimeter(pts [][2]float64) float64 {
	slices.SortFunc(pts, func(a, b [2]float64) int {
		if a[0] != b[0] {
			return cmpF(a[0], b[0])
		}
		return cmpF(a[1], b[1])
	})
	cross := func(o, a, b [2]float64) float64 { return (a[0]-o[0])*(b[1]-o[1]) - (a[1]-o[1])*(b[0]-o[0]) }
	var h [][2]float64
	for pass := range 2 {
		start := len(h)
		for i := range pts {
			p := pts[i]
			if pass == 1 {
				p = pts[len(pts)-1-i]
			}
			for len(h) >= start+2 && cross(h[len(h)-2], h[len(h)-1], p) <= 1e-18 {
				h = h[:len(h)-1]
			}
			h = append(h, p)
		}
		h = h[:len(h)-1]
	}
	per := 0.0
	for i := range h {
		a, b := h[i], h[(i+1)%len(h)]
		per += math.Hypot(b[0]-a[0], b[1]-a[1])
	}
	return per
}

func cmpF(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
