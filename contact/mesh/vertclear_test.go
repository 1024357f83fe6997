package mesh

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gloved/gloved/geom"
)

// TestAVertexClearanceHoldsOnlyCloserThanItsDistance: a vertex found
// outside at distance d is proven outside wherever it is, in any
// direction, less than d (less the margin) from where it was found, and
// nowhere at d or farther; nothing is proven without a distance.
func TestAVertexClearanceHoldsOnlyCloserThanItsDistance(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for range 10000 {
		at := geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}
		d := math.Exp(-10 * r.Float64())
		c := vertClear{At: at, Dist: d}
		u := geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Normalize()
		if w := at.Add(u.Mul(d*(1-1e-6) - 2*vertClearTol)); !c.holds(w) {
			t.Fatalf("%v from %v, found %v outside: not proven", w.Sub(at).Len(), at, d)
		}
		if w := at.Add(u.Mul(d)); c.holds(w) {
			t.Fatalf("%v from %v, found %v outside: proven", w.Sub(at).Len(), at, d)
		}
		if (vertClear{At: at}).holds(at) {
			t.Fatal("a vertex with no distance was proven outside")
		}
	}
}
