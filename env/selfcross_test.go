package env_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
)

// oneObject merges meshes into a single object, as a file would hold a
// mesh made of parts that were never joined.
func oneObject(name string, parts ...*env.Mesh) *env.Mesh {
	m := &env.Mesh{}
	for _, p := range parts {
		m.Append(p)
	}
	m.Objects = []string{name}
	clear(m.Object)
	return m
}

func selfCrossing(t *testing.T, m *env.Mesh) (int32, int32, bool) {
	t.Helper()
	tree, err := env.Build(m, env.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return tree.SelfCrossing()
}

// bruteCrossing reports whether any two triangles of m cross, trying
// every pair.
func bruteCrossing(m *env.Mesh) bool {
	for i := range m.Tris {
		for j := i + 1; j < len(m.Tris); j++ {
			if geom.TrianglesCross(m.Triangle(i), m.Triangle(j)) {
				return true
			}
		}
	}
	return false
}

// TestSurfacesThatBoundASolidDoNotCrossThemselves: a sphere, a torus and
// a box have neighbours that meet only where they are joined; two boxes
// laid into each other as one object cross, at two triangles that do.
func TestSurfacesThatBoundASolidDoNotCrossThemselves(t *testing.T) {
	for name, m := range map[string]*env.Mesh{
		"sphere": env.Sphere("s", geom.Vec3{}, 0.05, 3),
		"torus":  env.Torus("t", geom.Vec3{}, 0.035, 0.03, 48, 24),
		"box":    env.Box("b", geom.Vec3{}, geom.Vec3{X: 1, Y: 2, Z: 3}),
	} {
		if a, b, ok := selfCrossing(t, m); ok {
			t.Errorf("the %s crosses itself at triangles %d and %d", name, a, b)
		}
	}
	two := oneObject("two", env.Box("a", geom.Vec3{}, geom.Vec3{X: 1, Y: 1, Z: 1}), env.Box("b", geom.Vec3{X: 1, Y: 0.5, Z: 0.25}, geom.Vec3{X: 1, Y: 1, Z: 1}))
	a, b, ok := selfCrossing(t, two)
	if !ok {
		t.Fatal("two boxes laid into each other as one object do not cross")
	}
	if !geom.TrianglesCross(two.Triangle(int(a)), two.Triangle(int(b))) {
		t.Fatalf("triangles %d and %d given as crossing do not", a, b)
	}
}

// TestSelfCrossingMatchesBruteForce: on spheres with vertices pushed in
// and out at random, some through the far side, the tree finds a
// crossing exactly when trying every pair of triangles does.
func TestSelfCrossingMatchesBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 41))
	found := 0
	for i := range 60 {
		m := env.Sphere("s", geom.Vec3{}, 1, 2)
		for range 1 + r.IntN(3) {
			v := &m.Verts[r.IntN(len(m.Verts))]
			*v = v.Mul(1 - 2.5*r.Float64()) // in, and for a third of them through the middle and out
		}
		_, _, got := selfCrossing(t, m)
		if want := bruteCrossing(m); got != want {
			t.Fatalf("sphere %d: the tree says %v, every pair %v", i, got, want)
		}
		if got {
			found++
		}
	}
	if found < 10 || found > 50 {
		t.Fatalf("%d of 60 spheres cross themselves: the test needs both kinds", found)
	}
}

// TestSelfCrossingGivesUpWhenItsContextEnds: with its context ended, the
// search over a torus that does not cross itself stops with the
// context's error, never a verdict; with a live one it finds no
// crossing.
func TestSelfCrossingGivesUpWhenItsContextEnds(t *testing.T) {
	tree, err := env.Build(env.Torus("ring", geom.Vec3{}, 0.08, 0.03, 120, 60), env.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, ok, err := tree.SelfCrossingContext(ctx); ok || !errors.Is(err, context.Canceled) {
		t.Fatalf("ended context: crossing %v, error %v; want the context's error", ok, err)
	}
	if _, _, ok, err := tree.SelfCrossingContext(context.Background()); ok || err != nil {
		t.Fatalf("a torus crosses itself (%v) or the search failed (%v)", ok, err)
	}
}
