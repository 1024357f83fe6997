package mesh

import (
	"math"
	"testing"

	"github.com/gloved/gloved/geom"
)

// TestAContactNormalIsAUnitVectorEvenOnATriangleOfNoArea: a contact of no
// depth on a triangle of no area (three points on a line, or one point)
// has no face normal: its normal is then a unit vector perpendicular to
// the line, toward the link where that is defined (the campaign's
// collinear triangle gave [0, 0, 0]).
func TestAContactNormalIsAUnitVectorEvenOnATriangleOfNoArea(t *testing.T) {
	line := geom.Triangle{{X: 0}, {X: 1, Y: 1}, {X: 2, Y: 2}}
	point := geom.Triangle{{X: 1, Y: 2, Z: 3}, {X: 1, Y: 2, Z: 3}, {X: 1, Y: 2, Z: 3}}
	flat := geom.Triangle{{}, {X: 1}, {Z: 1}}
	for _, tc := range []struct {
		name   string
		t      geom.Triangle
		toward geom.Vec3
		want   geom.Vec3 // zero: any unit vector perpendicular to the line
	}{
		{"a face keeps its normal", flat, geom.Vec3{Y: -5}, geom.Vec3{Y: -1}},
		{"a line, toward the link", line, geom.Vec3{X: -1, Y: 1, Z: 0}, geom.Vec3{X: -math.Sqrt2 / 2, Y: math.Sqrt2 / 2}},
		{"a line, the link along it", line, geom.Vec3{X: 3, Y: 3}, geom.Vec3{}},
		{"a line, the link at the point", line, geom.Vec3{}, geom.Vec3{}},
		{"a point, toward the link", point, geom.Vec3{Z: 2}, geom.Vec3{Z: 1}},
		{"a point, the link at it", point, geom.Vec3{}, geom.Vec3{Y: 1}},
	} {
		n := unitNormal(tc.t.Normal(), tc.toward, tc.t)
		if math.Abs(n.Len()-1) > 1e-12 {
			t.Errorf("%s: normal %v of length %v", tc.name, n, n.Len())
		}
		if tc.want != (geom.Vec3{}) && n.Sub(tc.want).Len() > 1e-12 {
			t.Errorf("%s: normal %v, want %v", tc.name, n, tc.want)
		}
		if tc.want == (geom.Vec3{}) && math.Abs(n.Dot(tc.t[2].Sub(tc.t[0]).Normalize())) > 1e-12 {
			t.Errorf("%s: normal %v not perpendicular to the line", tc.name, n)
		}
	}
}
