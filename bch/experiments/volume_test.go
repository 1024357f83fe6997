package experiments

import (
	"math"
	"testing"

	"github.com/gloved/gloved/bch"
	"github.com/gloved/gloved/geom"
)

// box is the closed, outward-wound box [lo, hi].
func box(lo, hi geom.Vec3) []geom.Triangle {
	c := func(i int) geom.Vec3 {
		return geom.Vec3{X: [2]float64{lo.X, hi.X}[i&1], Y: [2]float64{lo.Y, hi.Y}[i>>1&1], Z: [2]float64{lo.Z, hi.Z}[i>>2]}
	}
	faces := [6][4]int{{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}}
	var out []geom.Triangle
	for _, f := range faces {
		out = append(out, geom.Triangle{c(f[0]), c(f[1]), c(f[2])}, geom.Triangle{c(f[0]), c(f[2]), c(f[3])})
	}
	return out
}

// prism is the closed n-gon prism of circumradius r from z = 0 to h.
func prism(n int, r, h float64) []geom.Triangle {
	var out []geom.Triangle
	p := func(k int, z float64) geom.Vec3 {
		s, c := math.Sincos(2 * math.Pi * float64(k) / float64(n))
		return geom.Vec3{X: r * c, Y: r * s, Z: z}
	}
	bottom, top := geom.Vec3{}, geom.Vec3{Z: h}
	for k := range n {
		out = append(out,
			geom.Triangle{bottom, p(k+1, 0), p(k, 0)}, geom.Triangle{top, p(k, h), p(k+1, h)},
			geom.Triangle{p(k, 0), p(k+1, 0), p(k+1, h)}, geom.Triangle{p(k, 0), p(k+1, h), p(k, h)})
	}
	return out
}

// TestVolumesOfKnownSolids: on solids whose volumes are known, the
// raster's mesh volume agrees with the truth to its resolution, the
// divergence theorem exactly, and the single cylinder's normalised
// volume is the known ratio: π/2 for a cube, π/(n/2·sin(2π/n)) for an
// n-gon prism. Two overlapping boxes measure as their union; the BCH,
// whose leaf disks cover the shadow, never measures less than the solid.
func TestVolumesOfKnownSolids(t *testing.T) {
	const n = 24
	twoBoxes := append(box(geom.Vec3{}, geom.Vec3{X: 0.2, Y: 0.1, Z: 0.3}), box(geom.Vec3{X: 0.1, Y: 0.05, Z: 0.1}, geom.Vec3{X: 0.3, Y: 0.2, Z: 0.3})...)
	for _, tc := range []struct {
		name            string
		tris            []geom.Triangle
		volume, sum     float64
		cylinder        float64 // normalised; 0: not known
		cylinderTol     float64
		bchAtLeastSolid bool
	}{
		{"unit cube", box(geom.Vec3{}, geom.Vec3{X: 1, Y: 1, Z: 1}), 1, 1, math.Pi / 2, 0.01, true},
		{"24-gon prism", prism(n, 0.1, 0.5), n / 2.0 * 0.01 * math.Sin(2*math.Pi/n) * 0.5, n / 2.0 * 0.01 * math.Sin(2*math.Pi/n) * 0.5,
			math.Pi / (n / 2.0 * math.Sin(2*math.Pi/n)), 0.01, true},
		{"two overlapping boxes", twoBoxes, 0.2*0.1*0.3 + 0.2*0.15*0.2 - 0.1*0.05*0.2, 0.2*0.1*0.3 + 0.2*0.15*0.2, 0, 0, false},
	} {
		var tri, single bch.Tree
		axis := geom.Vec3{Z: 1}
		if err := tri.Build(tc.tris, axis, bch.Options{Variant: bch.Triangles, Threshold: 0.001}); err != nil {
			t.Fatal(err)
		}
		if err := single.Build(tc.tris, axis, bch.Options{Variant: bch.Single}); err != nil {
			t.Fatal(err)
		}
		var r Raster
		pv := MeasurePose(FrameOf(&tri), tc.tris, &tri, &single, 400, &r)
		if math.Abs(pv.Mesh-tc.volume) > 0.01*tc.volume || pv.Odd != 0 {
			t.Errorf("%s: raster volume %.6g (%d odd columns), want %.6g", tc.name, pv.Mesh, pv.Odd, tc.volume)
		}
		if math.Abs(pv.Divergence-tc.sum) > 1e-9*tc.sum {
			t.Errorf("%s: divergence theorem %.9g, want %.9g", tc.name, pv.Divergence, tc.sum)
		}
		if tc.cylinder > 0 && math.Abs(pv.Cylinder/pv.Mesh-tc.cylinder) > tc.cylinderTol*tc.cylinder {
			t.Errorf("%s: single cylinder %.4g mesh volumes, want %.4g", tc.name, pv.Cylinder/pv.Mesh, tc.cylinder)
		}
		if tc.bchAtLeastSolid && pv.BCH < 0.99*pv.Mesh {
			t.Errorf("%s: the BCH measures %.6g, less than the solid's %.6g", tc.name, pv.BCH, pv.Mesh)
		}
	}
}

// TestMarkKeysKeepOrder: mark keys sort as their points do, openings
// before closings at one point, and decode to what was encoded.
func TestMarkKeysKeepOrder(t *testing.T) {
	ws := []float64{-3, -1e-300, 0, 1e-300, 0.25, 0.5, 7}
	for i, w := range ws {
		for _, step := range []int{1, -1} {
			k := markKey(w, step)
			gw, gs := unmark(k)
			if math.Abs(gw-w) > math.Abs(w)*1e-15 || gs != step {
				t.Errorf("unmark(markKey(%v, %d)) = %v, %d", w, step, gw, gs)
			}
			if i > 0 && markKey(ws[i-1], -1) >= k {
				t.Errorf("key of %v does not follow %v's", w, ws[i-1])
			}
		}
		if markKey(w, 1) >= markKey(w, -1) {
			t.Errorf("at %v the closing sorts before the opening", w)
		}
	}
}
