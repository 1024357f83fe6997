package geom

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

func finiteBox(b OBB) bool {
	for _, x := range b.Axes {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return b.Center.Finite() && b.Half.Finite()
}

func orthonormal(m mgl64.Mat3) bool {
	d := m.Transpose().Mul3(m).Sub(mgl64.Ident3())
	for _, x := range d {
		if math.Abs(x) > 1e-12 {
			return false
		}
	}
	return math.Abs(m.Det()-1) < 1e-12
}

func TestFitContainsEveryPoint(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for _, mode := range []FitMode{FitHull, FitSurface, FitAxisAligned} {
		f := Fitter{Mode: mode}
		for i := range 500 {
			n := 1 + r.IntN(60)
			pts := make([]Vec3, n)
			for k := range pts {
				pts[k] = randVec(r, 3).Add(Vec3{1e3, -2e3, 5})
			}
			var tris [][3]int32
			for k := 0; k+2 < n; k += 3 {
				tris = append(tris, [3]int32{int32(k), int32(k + 1), int32(k + 2)})
			}
			b := f.Fit(pts, tris)
			if !finiteBox(b) || !orthonormal(b.Axes) {
				t.Fatalf("mode %d case %d: bad box %+v", mode, i, b)
			}
			for _, p := range pts {
				if !b.Contains(p, 1e-9) {
					t.Fatalf("mode %d case %d: point %v outside box %+v", mode, i, p, b)
				}
			}
		}
	}
}

// TestFitHullIgnoresInteriorDensity is the point of section 4: a dense
// cluster of points inside (or on) the hull must not tilt the box, which it
// does when orienting by the covariance of the vertices.
func TestFitHullIgnoresInteriorDensity(t *testing.T) {
	rot := mgl64.HomogRotate3D(0.9, mgl64.Vec3{1, -2, 0.5}.Normalize()).Mat3()
	box := OBB{Center: Vec3{3, 1, -2}, Axes: rot, Half: Vec3{4, 2, 1}}
	var corners [8]Vec3
	box.Corners(&corners)
	pts := append([]Vec3(nil), corners[:]...)
	// 2000 points packed along a diagonal-ish segment from one corner.
	for i := range 2000 {
		s := float64(i) / 2000
		pts = append(pts, corners[0].Mul(1-s*0.5).Add(corners[6].Mul(s*0.5)))
	}
	f := Fitter{Mode: FitHull}
	b := f.Fit(pts, nil)
	if math.Abs(b.Volume()-box.Volume()) > 1e-9*box.Volume() {
		t.Errorf("hull fit volume %v, want the box's %v", b.Volume(), box.Volume())
	}
	_, pc := PointCovariance(pts)
	_, axes := pc.Eigen()
	if v := Extents(pts, axes).Volume(); v < 1.2*box.Volume() {
		t.Errorf("vertex covariance should be fooled by the cluster (volume %v vs %v); the test lost its point", v, box.Volume())
	}
	if f.Stats.Hull != 1 {
		t.Errorf("stats %+v: want one hull fit", f.Stats)
	}
}

func TestFitRankDeficient(t *testing.T) {
	tests := []struct {
		name      string
		pts       []Vec3
		tris      [][3]int32
		zeroHalfs int
	}{
		{"single point", []Vec3{{1, 2, 3}}, nil, 3},
		{"coincident points", []Vec3{{1, 2, 3}, {1, 2, 3}, {1, 2, 3}}, [][3]int32{{0, 1, 2}}, 3},
		{"collinear points", []Vec3{{0, 0, 0}, {1, 1, 1}, {3, 3, 3}, {2, 2, 2}}, [][3]int32{{0, 1, 2}}, 2},
		{"single triangle", []Vec3{{0, 0, 1}, {4, 0, 1}, {0, 1, 2}}, [][3]int32{{0, 1, 2}}, 1},
		{"flat fan", []Vec3{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0.5, 0.5, 0}},
			[][3]int32{{4, 0, 1}, {4, 1, 2}, {4, 2, 3}, {4, 3, 0}}, 1},
	}
	for _, tc := range tests {
		for _, mode := range []FitMode{FitHull, FitSurface} {
			f := Fitter{Mode: mode}
			b := f.Fit(tc.pts, tc.tris)
			if !finiteBox(b) || !orthonormal(b.Axes) {
				t.Fatalf("%s: bad box %+v", tc.name, b)
			}
			zeros := 0
			for _, h := range b.Half.Mgl() {
				if h < 1e-12 {
					zeros++
				}
			}
			if zeros != tc.zeroHalfs {
				t.Errorf("%s mode %d: half-extents %v, want %d zero", tc.name, mode, b.Half, tc.zeroHalfs)
			}
			for _, p := range tc.pts {
				if !b.Contains(p, 1e-12) {
					t.Errorf("%s: point %v outside %+v", tc.name, p, b)
				}
			}
		}
	}
}

func BenchmarkFitHull1k(b *testing.B) {
	r := rand.New(rand.NewPCG(10, 10))
	pts := make([]Vec3, 1000)
	for i := range pts {
		pts[i] = Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize()
	}
	f := Fitter{Mode: FitHull}
	b.ReportAllocs()
	for b.Loop() {
		f.Fit(pts, nil)
	}
}

// TestAFittedBoxHoldsEveryPointFarFromTheOrigin: points of small groups
// 6e5 to 1e7 m from the origin (a terrain in a map's coordinates) are
// each within the fitted box with no tolerance at all, measured as a box
// test measures (|(p-c)·a| against the half-extent on each axis), for
// every fit: a centre rounded there is off by some 1e-10 m, and
// half-extents taken as (hi-lo)/2 about the exact middle left points
// outside by as much.
func TestAFittedBoxHoldsEveryPointFarFromTheOrigin(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 10))
	for _, mode := range []FitMode{FitHull, FitSurface, FitAxisAligned} {
		f := Fitter{Mode: mode}
		outside := 0
		for i := range 300 {
			far := Vec3{6e5 + 1e6*r.Float64(), -3e5 * r.Float64(), 1e7 * r.Float64()}
			pts := make([]Vec3, 3+r.IntN(9))
			for k := range pts {
				pts[k] = randVec(r, 0.01).Add(far)
			}
			b := f.Fit(pts, [][3]int32{{0, 1, 2}})
			for _, p := range pts {
				d := p.Sub(b.Center)
				for a := range 3 {
					if math.Abs(d.Dot(b.Axis(a))) > b.Half.At(a) {
						outside++
						if outside <= 3 {
							t.Errorf("mode %d case %d: a point is %v out along axis %d, beyond %v", mode, i, math.Abs(d.Dot(b.Axis(a))), a, b.Half.At(a))
						}
					}
				}
			}
		}
		if outside > 0 {
			t.Errorf("mode %d: %d points outside their boxes", mode, outside)
		}
	}
}
