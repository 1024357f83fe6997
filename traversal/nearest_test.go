package traversal_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/env/envtest"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/traversal"
)

func TestNearestMatchesBruteForceAndWindingNumber(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	inward := env.Torus("t", geom.Vec3{}, 0.1, 0.03, 40, 20)
	for i, tri := range inward.Tris {
		inward.Tris[i] = [3]int32{tri[0], tri[2], tri[1]}
	}
	meshes := map[string]*env.Mesh{
		"torus":        env.Torus("t", geom.Vec3{X: 0.01}, 0.1, 0.03, 40, 20),
		"sphere":       env.Sphere("s", geom.Vec3{Y: 0.02}, 0.08, 4),
		"box":          env.Box("b", geom.Vec3{}, geom.Vec3{X: 0.1, Y: 0.05, Z: 0.02}),
		"torus inward": inward,
	}
	var q traversal.SurfaceQuery
	for name, m := range meshes {
		s, err := env.NewSurface(m, 0)
		if err != nil {
			t.Fatal(err)
		}
		hint := int32(-1)
		for range 3000 {
			p := geom.Vec3{X: r.Float64()*0.3 - 0.15, Y: r.Float64()*0.16 - 0.08, Z: r.Float64()*0.3 - 0.15}
			want := envtest.SurfaceDistance(m, p)
			n, ok := q.Nearest(s, p, math.Inf(1), hint)
			if !ok || math.Abs(n.Dist-want) > 1e-12 {
				t.Fatalf("%s at %v: nearest %v (ok %v), brute force %v", name, p, n.Dist, ok, want)
			}
			hint = n.Tri
			if d := n.Point.Sub(p).Len(); math.Abs(d-n.Dist) > 1e-12 {
				t.Fatalf("%s at %v: point %v is %v away, reported %v", name, p, n.Point, d, n.Dist)
			}
			if want < 1e-9 {
				continue
			}
			inside := envtest.WindingNumber(m, p)
			if name == "torus inward" {
				inside = -inside
			}
			if n.Inside != (inside > 0.5) || n.Boundary {
				t.Fatalf("%s at %v: inside %v boundary %v, winding number %v", name, p, n.Inside, n.Boundary, inside)
			}
			if out := p.Add(n.Out.Mul(1e-9)).Sub(n.Point).Len(); n.Inside == (out > n.Dist) {
				t.Fatalf("%s at %v: Out %v does not lead out of the surface", name, p, n.Out)
			}
		}
	}
}

func TestNearestBeyondStopsOnlyAtANearerPoint(t *testing.T) {
	// Against the full query: it stops exactly when the answer is nearer
	// than the floor, and otherwise gives the full query's answer, a
	// distance equal to the floor included.
	r := rand.New(rand.NewPCG(3, 4))
	m := env.Torus("t", geom.Vec3{}, 0.1, 0.03, 40, 20)
	s, err := env.NewSurface(m, 0)
	if err != nil {
		t.Fatal(err)
	}
	var full, beyond traversal.SurfaceQuery
	stopped := 0
	for i := range 3000 {
		p := geom.Vec3{X: r.Float64()*0.3 - 0.15, Y: r.Float64()*0.1 - 0.05, Z: r.Float64()*0.3 - 0.15}
		hint := int32(r.IntN(len(m.Tris)))
		want, ok := full.Nearest(s, p, math.Inf(1), hint)
		if !ok {
			t.Fatal("no nearest point")
		}
		floor := want.Dist * (0.5 + r.Float64())
		if i%10 == 0 {
			floor = want.Dist
		}
		got, found, nearer := beyond.NearestBeyond(s, p, math.Inf(1), hint, floor)
		if nearer != (want.Dist < floor) {
			t.Fatalf("at %v, floor %v: nearer %v, the nearest point is %v away", p, floor, nearer, want.Dist)
		}
		if nearer {
			stopped++
			q, _ := geom.ClosestOnTriangle(m.Triangle(int(got.Tri)), p)
			if d := q.Sub(p).Len(); !(d < floor) {
				t.Fatalf("at %v, floor %v: stopped at triangle %d, %v away", p, floor, got.Tri, d)
			}
			continue
		}
		if !found || got != want {
			t.Fatalf("at %v, floor %v: %+v (found %v), the full query %+v", p, floor, got, found, want)
		}
	}
	if stopped < 300 {
		t.Errorf("stopped only %d times in 3000", stopped)
	}
}

func TestNearestWithinLimitOnly(t *testing.T) {
	m := env.Sphere("s", geom.Vec3{}, 1, 2)
	s, err := env.NewSurface(m, 0)
	if err != nil {
		t.Fatal(err)
	}
	var q traversal.SurfaceQuery
	if _, ok := q.Nearest(s, geom.Vec3{X: 3}, 1.5, -1); ok {
		t.Error("a point 2 from the sphere was found within 1.5")
	}
	if n, ok := q.Nearest(s, geom.Vec3{X: 3}, 2.5, 7); !ok || math.Abs(n.Dist-2) > 1e-12 {
		t.Errorf("within 2.5: %v %v, want distance 2", n.Dist, ok)
	}
}

func TestOpenSurfaceKeepsASide(t *testing.T) {
	// A table top: one quad at y = 0 facing up.
	m := &env.Mesh{Objects: []string{"top"}, Verts: []geom.Vec3{{X: -1, Z: -1}, {X: -1, Z: 1}, {X: 1, Z: 1}, {X: 1, Z: -1}},
		Tris: [][3]int32{{0, 1, 2}, {0, 2, 3}}, Object: []int32{0, 0}}
	s, err := env.NewSurface(m, 0)
	if err != nil {
		t.Fatal(err)
	}
	if s.Closed {
		t.Fatal("a quad is closed")
	}
	cases := []struct {
		p                geom.Vec3
		inside, boundary bool
		dist             float64
	}{
		{geom.Vec3{X: 0.2, Y: 0.1, Z: 0.3}, false, false, 0.1},
		{geom.Vec3{X: 0.2, Y: -0.1, Z: 0.3}, true, false, 0.1},
		{geom.Vec3{Y: -0.05}, true, false, 0.05}, // on the diagonal: an inner edge
		{geom.Vec3{X: 1.5, Y: -0.1}, false, true, math.Hypot(0.5, 0.1)},
		{geom.Vec3{X: 1.5, Y: 0.1}, false, true, math.Hypot(0.5, 0.1)},
	}
	var q traversal.SurfaceQuery
	for _, c := range cases {
		n, ok := q.Nearest(s, c.p, math.Inf(1), -1)
		if !ok || n.Inside != c.inside || n.Boundary != c.boundary || math.Abs(n.Dist-c.dist) > 1e-12 {
			t.Errorf("at %v: inside %v boundary %v distance %v, want %v %v %v", c.p, n.Inside, n.Boundary, n.Dist, c.inside, c.boundary, c.dist)
		}
	}
}

func TestNearestAllocatesNothing(t *testing.T) {
	s, err := env.NewSurface(env.Torus("t", geom.Vec3{}, 0.1, 0.03, 40, 20), 0)
	if err != nil {
		t.Fatal(err)
	}
	var q traversal.SurfaceQuery
	p := geom.Vec3{X: 0.1, Y: 0.01, Z: 0.02}
	q.Nearest(s, p, math.Inf(1), -1)
	if n := testing.AllocsPerRun(100, func() { q.Nearest(s, p, math.Inf(1), -1) }); n != 0 {
		t.Errorf("%v allocations per query", n)
	}
}
