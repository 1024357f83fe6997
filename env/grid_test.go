package env_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/env/envtest"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/narrow"
)

// boxMeshDistance is the distance from box b to the nearest triangle of m,
// each by GJK: the brute force the grid's bound is held to.
func boxMeshDistance(b geom.AABB, m *env.Mesh) float64 {
	var corners [8]geom.Vec3
	b.OBB().Corners(&corners)
	box := narrow.Shape{P: &narrow.Polytope{Verts: corners[:]}, X: geom.Identity()}
	best := math.Inf(1)
	for i := range m.Tris {
		t := m.Triangle(i)
		d := narrow.Distance(&box, &narrow.Shape{P: &narrow.Polytope{Verts: t[:]}, X: geom.Identity()}, nil)
		if d.Overlap {
			return 0
		}
		best = math.Min(best, d.Distance)
	}
	return best
}

// randomBox is a box of 2-30 mm sides around a point within reach of m.
func randomBox(r *rand.Rand, around geom.AABB) geom.AABB {
	e := around.Max.Sub(around.Min)
	c := geom.Vec3{X: around.Min.X + e.X*(1.4*r.Float64()-0.2), Y: around.Min.Y + e.Y*(1.4*r.Float64()-0.2), Z: around.Min.Z + e.Z*(1.4*r.Float64()-0.2)}
	h := geom.Vec3{X: 0.001 + 0.014*r.Float64(), Y: 0.001 + 0.014*r.Float64(), Z: 0.001 + 0.014*r.Float64()}
	return geom.AABB{Min: c.Sub(h), Max: c.Add(h)}
}

func meshBox(m *env.Mesh) geom.AABB {
	b := geom.EmptyAABB()
	for _, v := range m.Verts {
		b = b.Extend(v)
	}
	return b
}

func TestGridGapIsALowerBoundOnTheDistance(t *testing.T) {
	// A torus and an open terrain of long slivers, each with boxes in and
	// around them: the grid's gap never exceeds the brute-force distance,
	// and it proves most far boxes far; GapAtLeast's one-cell bound is
	// never above it.
	sliver := &env.Mesh{Objects: []string{"slivers"}}
	for i := range 12 {
		z := -0.1 + 0.2*float64(i)/12
		base := int32(len(sliver.Verts))
		sliver.Verts = append(sliver.Verts, geom.Vec3{X: -0.1, Y: 0.01 * math.Sin(float64(i)), Z: z}, geom.Vec3{X: 0.1, Y: 0.02, Z: z + 0.004}, geom.Vec3{X: 0.1, Y: 0, Z: z + 0.017})
		sliver.Tris = append(sliver.Tris, [3]int32{base, base + 1, base + 2})
		sliver.Object = append(sliver.Object, 0)
	}
	for _, tc := range []struct {
		name string
		m    *env.Mesh
	}{
		{"torus", env.Torus("torus", geom.Vec3{}, 0.05, 0.02, 32, 16)},
		{"slivers", sliver},
	} {
		r := rand.New(rand.NewPCG(3, 4))
		g, err := env.NewGrid(tc.m, 20_000, nil)
		if err != nil {
			t.Fatal(err)
		}
		proved, quicker := 0, 0
		for range 400 {
			b := randomBox(r, meshBox(tc.m))
			gap, want := g.Gap(b), boxMeshDistance(b, tc.m)
			if gap > want+1e-12 {
				t.Fatalf("%s: box %v: gap %v, brute force %v", tc.name, b, gap, want)
			}
			// The one-cell bound: never above Gap, and Gap itself
			// when it cannot get above need.
			need := r.Float64() * 2 * g.H
			if quick := g.GapAtLeast(b, need); quick > gap || quick <= need && quick != gap {
				t.Fatalf("%s: box %v: GapAtLeast(%v) %v, Gap %v", tc.name, b, need, quick, gap)
			} else if quick > need {
				quicker++
			}
			if want > 4*g.H && gap > 0 {
				proved++
			}
		}
		if proved < 50 || quicker < 20 {
			t.Errorf("%s: only %d of 400 boxes proved apart (cells of %v m); GapAtLeast above need for %d", tc.name, proved, g.H, quicker)
		}
	}
}

func TestGridSideIsTheWindingNumbersWhereSure(t *testing.T) {
	// Points in and around a torus whose hole is narrower than a few
	// cells: where the grid is sure of a side, the winding number agrees,
	// and it is sure of most points.
	m := env.Torus("torus", geom.Vec3{}, 0.03, 0.024, 32, 16)
	surf, err := env.NewSurface(m, 0)
	if err != nil {
		t.Fatal(err)
	}
	inside := func(p geom.Vec3) bool { return envtest.WindingNumber(m, p) > 0.5 }
	g, err := env.NewGrid(surf.Tree.Mesh, 4_000, inside)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 6))
	box, sure := meshBox(m), 0
	for range 2000 {
		e := box.Max.Sub(box.Min)
		p := geom.Vec3{X: box.Min.X + e.X*(1.2*r.Float64()-0.1), Y: box.Min.Y + e.Y*(1.2*r.Float64()-0.1), Z: box.Min.Z + e.Z*(1.2*r.Float64()-0.1)}
		in, ok := g.Side(p)
		if !ok {
			continue
		}
		sure++
		if want := inside(p); in != want {
			t.Fatalf("%v: grid says inside %v, winding number %v", p, in, want)
		}
	}
	if sure < 800 {
		t.Errorf("sure of %d of 2000 points (cells of %v m)", sure, g.H)
	}
	if open, _ := env.NewGrid(m, 4_000, nil); open != nil {
		if _, ok := open.Side(geom.Vec3{}); ok {
			t.Error("an open surface's grid is sure of a side")
		}
	}
}

func TestGridKeepsToItsCells(t *testing.T) {
	for _, m := range []*env.Mesh{
		env.Torus("torus", geom.Vec3{}, 0.05, 0.02, 16, 8),
		env.Terrain("flat", 8, func(x, z float64) float64 { return 0 }), // no thickness
	} {
		g, err := env.NewGrid(m, 10_000, nil)
		if err != nil {
			t.Fatal(err)
		}
		if g.Bytes() > 10_000 || g.Bytes() < 10_000/4 {
			t.Errorf("%s: %d cells of %v m for a budget of 10000", m.Objects[0], g.Bytes(), g.H)
		}
	}
	if _, err := env.NewGrid(&env.Mesh{}, 0, nil); err == nil {
		t.Error("a grid of no triangles")
	}
	huge := &env.Mesh{Objects: []string{"huge"}, Verts: []geom.Vec3{{X: -1e308}, {X: 1e308}, {Y: 1e308}}, Tris: [][3]int32{{0, 1, 2}}, Object: []int32{0}}
	if _, err := env.NewGrid(huge, 0, nil); err == nil {
		t.Error("a grid of a triangle wider than float64 reaches")
	}
}

func BenchmarkNewGridTorus100k(b *testing.B) {
	m := env.Torus("torus", geom.Vec3{}, 0.035, 0.03, 316, 158)
	surf, err := env.NewSurface(m, 0)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := env.NewGrid(surf.Tree.Mesh, 0, func(geom.Vec3) bool { return false }); err != nil {
			b.Fatal(err)
		}
	}
}
