package experiments

import (
	"context"
	"math"
	"testing"
)

// TestProximityReproducesThePaper: on small spheres, box tests grow as the
// gap shrinks, an AABB tree's faster than an OBBTree's, and the fitted
// slopes are negative with the AABB's the steeper (the paper: about -1 and
// -2).
func TestProximityReproducesThePaper(t *testing.T) {
	o := ProximityOpts{Level: 4, EpsMax: 0.5, EpsMin: 1e-3, PerDecade: 2, FitMax: 0.5, Plateau: 0.5}
	seen := 0
	res, err := Proximity(context.Background(), o, func(ProximityRow) { seen++ })
	if err != nil {
		t.Fatal(err)
	}
	if seen != len(res.Rows) || len(res.Rows) != 6 || res.Triangles != 2048 {
		t.Fatalf("%d rows (%d seen) of %d triangles, want 6 rows of 2048", len(res.Rows), seen, res.Triangles)
	}
	first, last := res.Rows[0], res.Rows[len(res.Rows)-1]
	if !(last.OBBTests > first.OBBTests && last.AABBTests > first.AABBTests) {
		t.Errorf("box tests did not grow as the gap shrank: %+v .. %+v", first, last)
	}
	if !(res.OBB.Slope < 0 && res.AABB.Slope < res.OBB.Slope) {
		t.Errorf("slopes OBB %v, AABB %v: want both negative, AABB steeper", res.OBB.Slope, res.AABB.Slope)
	}
	if _, err := Proximity(context.Background(), ProximityOpts{Level: 0}, nil); err == nil {
		t.Error("level 0 ran")
	}
}

func TestSlopeOfALine(t *testing.T) {
	tests := []struct {
		x, y []float64
		want float64
	}{
		{[]float64{0, 1, 2}, []float64{1, -1, -3}, -2},
		{[]float64{1}, []float64{5}, 0},
		{[]float64{2, 2}, []float64{1, 3}, 0},
	}
	for _, tc := range tests {
		if got := slope(tc.x, tc.y); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("slope(%v, %v) = %v, want %v", tc.x, tc.y, got, tc.want)
		}
	}
}
