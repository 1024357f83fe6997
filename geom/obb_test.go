package geom

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

func TestMajorAxis(t *testing.T) {
	rot := mgl64.HomogRotate3DZ(0.3).Mat3()
	tests := []struct {
		half Vec3
		want int // the column of rot
	}{
		{Vec3{3, 1, 2}, 0}, {Vec3{1, 3, 2}, 1}, {Vec3{1, 2, 3}, 2},
		{Vec3{2, 2, 1}, 0}, {Vec3{1, 2, 2}, 1}, {Vec3{}, 0},
	}
	for _, tc := range tests {
		b := OBB{Axes: rot, Half: tc.half}
		l := 2 * tc.half.At(tc.want)
		want := Col(&rot, tc.want).Mul(l)
		if a, got := b.MajorAxis(); a != want || got != l {
			t.Errorf("half %v: got %v, %v; want axis %d scaled, %v, %v", tc.half, a, got, tc.want, want, l)
		}
	}
}

// TestProjectedRadiusMatchesCorners: the projected radius is the largest
// |a·(corner - center)| over the eight corners, for seeded random boxes and
// directions of any length, degenerate boxes included.
func TestProjectedRadiusMatchesCorners(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for i := range 10_000 {
		b := randBox(r, randRotation(r))
		if i%5 == 0 {
			half := b.Half.Mgl()
			half[i%3] = 0
			b.Half = FromMgl(half)
		}
		a := randVec(r, 3)
		var c [8]Vec3
		b.Corners(&c)
		want := 0.0
		for _, p := range c {
			want = math.Max(want, math.Abs(a.Dot(p.Sub(b.Center))))
		}
		if got := b.ProjectedRadius(a); math.Abs(got-want) > 1e-12*(1+want) {
			t.Fatalf("box %d: got %v, want %v", i, got, want)
		}
	}
}
