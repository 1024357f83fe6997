package narrow

import (
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/gloved/gloved/geom"
)

// TestPolytopesSharedBetweenGoroutines: queries only read polytopes, so
// goroutines may share them, a literal Polytope (never measured by
// NewPolytope) included; under -race a write during a query fails this.
func TestPolytopesSharedBetweenGoroutines(t *testing.T) {
	r := rand.New(rand.NewPCG(68, 68))
	a := randomHull(r, 60, 1)
	lit := &Polytope{Verts: randomHull(r, 12, 1).verts}
	var poses [64]geom.Transform
	for i := range poses {
		poses[i] = randTransform(r, 1.2)
	}
	run := func() [len(poses)]PenetrationResult {
		var out [len(poses)]PenetrationResult
		for i, x := range poses {
			sa, sb := Shape{P: a.poly, X: geom.Identity()}, Shape{P: lit, X: x}
			if d := Distance(&sa, &sb, nil); d.Overlap {
				out[i] = Penetration(&sa, &sb, &d, nil)
			} else {
				out[i].PointA = d.PointA
			}
			Intersects(&sb, &sa)
		}
		return out
	}
	var wg sync.WaitGroup
	var got [4][len(poses)]PenetrationResult
	for g := range got {
		wg.Go(func() { got[g] = run() })
	}
	wg.Wait()
	want := run()
	for g := range got {
		if got[g] != want {
			t.Fatalf("goroutine %d answered differently", g)
		}
	}
	if lit.radius != 0 {
		t.Fatalf("a query wrote the literal polytope's radius")
	}
}

func TestNewPolytopeMeasures(t *testing.T) {
	p, err := NewPolytope([]geom.Vec3{{X: 3, Y: 4}, {X: -1}}, nil)
	if err != nil || p.radius != 5 || p.Size() != 5 {
		t.Fatalf("radius %v, size %v, error %v; want 5", p.radius, p.Size(), err)
	}
	lit := Polytope{Verts: []geom.Vec3{{Z: 2}}}
	if got := lit.Size(); got != 2 || lit.radius != 0 {
		t.Fatalf("literal polytope: size %v (radius field %v), want 2 and 0", got, lit.radius)
	}
}
