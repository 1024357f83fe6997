package geom

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestRayTriangleMeetsWhereThePlaneSays: on random triangles and rays, a
// hit is on the ray, in the triangle's plane and inside it (barycentric
// coordinates >= 0); a ray aimed at a point inside the triangle hits it
// there, and one aimed outside it, or pointing away, misses.
func TestRayTriangleMeetsWhereThePlaneSays(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	v := func() Vec3 { return Vec3{r.Float64() - 0.5, r.Float64() - 0.5, r.Float64() - 0.5} }
	for range 20000 {
		a, b, c, o := v(), v(), v(), v().Mul(4)
		u, w := r.Float64(), r.Float64()
		if u+w > 1 {
			u, w = 1-u, 1-w
		}
		in := a.Add(b.Sub(a).Mul(u)).Add(c.Sub(a).Mul(w))
		n := b.Sub(a).Cross(c.Sub(a))
		if math.Abs(n.Normalize().Dot(in.Sub(o).Normalize())) < 1e-3 {
			continue // grazing: left to the parallel test
		}
		tt, ok := RayTriangle(o, in.Sub(o), a, b, c)
		if !ok || math.Abs(tt-1) > 1e-9 {
			t.Fatalf("ray to an inside point: t=%v hit=%v, want t=1", tt, ok)
		}
		if _, ok := RayTriangle(o, o.Sub(in), a, b, c); ok {
			t.Fatal("a ray pointing away hit")
		}
		out := a.Add(b.Sub(a).Mul(u + 1)).Add(c.Sub(a).Mul(w + 0.01)) // barycentric u+w > 1
		if _, ok := RayTriangle(o, out.Sub(o), a, b, c); ok {
			t.Fatalf("a ray to an outside point hit")
		}
	}
}

// TestRayTriangleEdgesAndPlane: a ray through an edge or a corner hits; a
// ray in the triangle's plane misses; of two triangles sharing an edge,
// rays crossing the edge at random meet at least one.
func TestRayTriangleEdgesAndPlane(t *testing.T) {
	a, b, c := Vec3{0, 0, 0}, Vec3{1, 0, 0}, Vec3{0, 1, 0}
	down := Vec3{0, 0, -1}
	for _, p := range []Vec3{{0.5, 0, 1}, {0, 0.5, 1}, {0.5, 0.5, 1}, {0, 0, 1}, {1, 0, 1}} {
		if tt, ok := RayTriangle(p, down, a, b, c); !ok || tt != 1 {
			t.Errorf("ray down from %v: t=%v hit=%v, want t=1", p, tt, ok)
		}
	}
	if _, ok := RayTriangle(Vec3{-1, 0.2, 0}, Vec3{1, 0, 0}, a, b, c); ok {
		t.Error("a ray in the triangle's plane hit")
	}
	r := rand.New(rand.NewPCG(8, 8))
	v := func() Vec3 { return Vec3{r.Float64() - 0.5, r.Float64() - 0.5, r.Float64() - 0.5} }
	for range 100000 {
		p, q, x, y, o := v(), v(), v(), v(), v().Mul(3)
		e := p.Add(q.Sub(p).Mul(r.Float64())) // on the shared edge pq
		_, h1 := RayTriangle(o, e.Sub(o), p, q, x)
		_, h2 := RayTriangle(o, e.Sub(o), q, p, y)
		n := q.Sub(p).Cross(x.Sub(p)).Normalize()
		if !h1 && !h2 && math.Abs(n.Dot(e.Sub(o).Normalize())) > 1e-6 {
			t.Fatalf("a ray through the shared edge at %v met neither triangle", e)
		}
	}
}
