package narrow

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gloved/gloved/geom"
)

// TestOriginIndependence: moving both shapes far from the world origin
// changes no answer beyond the rounding of their poses, because queries
// run in A's frame. Each pair is placed at an offset of 1e8 and compared
// with the same poses less that offset (exact, by Sterbenz's lemma), so
// the only difference left is where the world origin is.
func TestOriginIndependence(t *testing.T) {
	r := rand.New(rand.NewPCG(67, 67))
	off := geom.Vec3{X: 1e8, Y: -3e8, Z: 2e8}
	for i := range 2000 {
		a, b := randomHull(r, 6+r.IntN(20), 1), randomHull(r, 6+r.IntN(20), 1)
		fa, fb := randTransform(r, 0.3), randTransform(r, 1.6)
		fa.T, fb.T = fa.T.Add(off), fb.T.Add(off)
		na, nb := geom.Transform{R: fa.R, T: fa.T.Sub(off)}, geom.Transform{R: fb.R, T: fb.T.Sub(off)}
		df, pf := query(a, b, fa, fb, nil)
		dn, pn := query(a, b, na, nb, nil)
		if df.Overlap != dn.Overlap {
			t.Fatalf("pair %d: overlap %v far away, %v near the origin", i, df.Overlap, dn.Overlap)
		}
		const tol = 1e-12
		if math.Abs(df.Distance-dn.Distance) > tol || math.Abs(pf.Depth-pn.Depth) > tol || pf.Normal.Sub(pn.Normal).Len() > tol {
			t.Fatalf("pair %d: far away distance %v depth %v normal %v; near the origin %v %v %v",
				i, df.Distance, pf.Depth, pf.Normal, dn.Distance, pn.Depth, pn.Normal)
		}
		// The points differ by the offset, up to the rounding of
		// coordinates of 1e8 (1.5e-8).
		if !df.Overlap && (df.PointA.Sub(off).Sub(dn.PointA).Len() > 1e-7 || df.PointB.Sub(off).Sub(dn.PointB).Len() > 1e-7) {
			t.Fatalf("pair %d: points %v %v far away, %v %v near the origin", i, df.PointA, df.PointB, dn.PointA, dn.PointB)
		}
	}
}
