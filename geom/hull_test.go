package geom

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// TestConvexHullOfACube: the unit cube's corners with points inside give
// the 8 corners and 12 outward triangles enclosing volume 1.
func TestConvexHullOfACube(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	var pts []Vec3
	for i := range 8 {
		pts = append(pts, Vec3{float64(i & 1), float64(i >> 1 & 1), float64(i >> 2 & 1)})
	}
	for range 50 {
		pts = append(pts, Vec3{0.1 + 0.8*r.Float64(), 0.1 + 0.8*r.Float64(), 0.1 + 0.8*r.Float64()})
	}
	h, err := ConvexHull(pts)
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Verts) != 8 || len(h.Tris) != 12 {
		t.Fatalf("got %d vertices and %d triangles, want 8 and 12", len(h.Verts), len(h.Tris))
	}
	vol := 0.0
	center := Vec3{0.5, 0.5, 0.5}
	for _, tr := range h.Tris {
		a, b, c := h.Verts[tr[0]], h.Verts[tr[1]], h.Verts[tr[2]]
		if n := b.Sub(a).Cross(c.Sub(a)); n.Dot(a.Sub(center)) <= 0 {
			t.Errorf("triangle %v faces inward", tr)
		}
		vol += a.Dot(b.Cross(c)) / 6
	}
	if math.Abs(vol-1) > 1e-12 {
		t.Errorf("volume %v, want 1", vol)
	}
	if !h.Solid() {
		t.Error("the cube's hull is not solid")
	}
}

// TestConvexHullRefusesDegenerateInput: too few points, a non-finite point
// and coplanar points have no solid hull; the library's panics on such
// input come back as errors.
func TestConvexHullRefusesDegenerateInput(t *testing.T) {
	square := []Vec3{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0.5, 0.5, 0}}
	tests := []struct {
		name string
		pts  []Vec3
	}{
		{"three points", []Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}},
		{"a NaN point", []Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, math.NaN()}}},
		{"an infinite point", []Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, math.Inf(1)}}},
		{"coplanar", square},
		{"one point repeated", []Vec3{{1, 2, 3}, {1, 2, 3}, {1, 2, 3}, {1, 2, 3}}},
	}
	for _, tc := range tests {
		h, err := ConvexHull(tc.pts)
		switch {
		case err != nil && !errors.Is(err, ErrNoHull):
			t.Errorf("%s: error %v does not wrap ErrNoHull", tc.name, err)
		case err == nil && h.Solid():
			t.Errorf("%s: got a solid hull of %d triangles, want an error or a flat hull", tc.name, len(h.Tris))
		}
	}
}
