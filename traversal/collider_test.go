package traversal_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/traversal"
)

var fitModes = []geom.FitMode{geom.FitHull, geom.FitSurface, geom.FitAxisAligned}

func mustBuild(t testing.TB, m *env.Mesh, fit geom.FitMode) *env.Tree {
	t.Helper()
	tr, err := env.Build(m, env.BuildOptions{Fit: fit})
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Validate(); err != nil {
		t.Fatal(err)
	}
	return tr
}

func randPose(r *rand.Rand, reach float64) geom.Transform {
	q := mgl64.Quat{W: r.NormFloat64(), V: mgl64.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}}
	x, _ := geom.FromQuat(q, geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Mul(reach))
	return x
}

// TestCollideEqualsBruteForce: on seeded random soups and poses, for every
// box kind, the tree query returns exactly the pairs that testing all
// triangle pairs returns.
func TestCollideEqualsBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 12))
	total := 0
	for trial := range 40 {
		a := env.Soup("a", r, 150+r.IntN(150), 1, 0.6)
		b := env.Soup("b", r, 150+r.IntN(150), 1, 0.6)
		pose := randPose(r, 0.7)
		want := traversal.BruteForce(a, b, pose)
		total += len(want)
		for _, fit := range fitModes {
			ta, tb := mustBuild(t, a, fit), mustBuild(t, b, fit)
			var c traversal.Collider
			c.Collide(ta, tb, pose)
			if !slices.Equal(c.Pairs, want) {
				t.Fatalf("trial %d fit %d: tree found %d pairs, brute force %d", trial, fit, len(c.Pairs), len(want))
			}
			c.FirstContact = true
			n := c.Collide(ta, tb, pose)
			if n != min(len(want), 1) || (n == 1 && !slices.Contains(want, c.Pairs[0])) {
				t.Fatalf("trial %d fit %d: first contact returned %v", trial, fit, c.Pairs)
			}
		}
	}
	if total < 1000 {
		t.Fatalf("only %d intersecting pairs over all trials: the workload tests little", total)
	}
}

// TestCollideStopsAtMaxPairs: a query capped below the pairs there are
// holds exactly the cap, each of them a real pair, and says it stopped;
// a cap at or above them finds them all and says it did not.
func TestCollideStopsAtMaxPairs(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 15))
	a := env.Soup("a", r, 300, 1, 0.6)
	b := env.Soup("b", r, 300, 1, 0.6)
	pose := randPose(r, 0.2)
	want := traversal.BruteForce(a, b, pose)
	if len(want) < 10 {
		t.Fatalf("only %d pairs: the cap tests little", len(want))
	}
	ta, tb := mustBuild(t, a, geom.FitHull), mustBuild(t, b, geom.FitHull)
	c := traversal.Collider{MaxPairs: len(want) / 2}
	if n := c.Collide(ta, tb, pose); n != len(want)/2 || !c.AtMaxPairs {
		t.Fatalf("capped at %d of %d: found %d, at max %v", len(want)/2, len(want), n, c.AtMaxPairs)
	}
	for _, p := range c.Pairs {
		if !slices.Contains(want, p) {
			t.Fatalf("pair %v is no intersecting pair", p)
		}
	}
	c.MaxPairs = len(want) + 1
	if c.Collide(ta, tb, pose); !slices.Equal(c.Pairs, want) || c.AtMaxPairs {
		t.Fatalf("cap above the pairs: found %d of %d, at max %v", len(c.Pairs), len(want), c.AtMaxPairs)
	}
}

// TestCollideTinyTrees: trees of one, two and three triangles, whose roots
// are leaves or whose leaves meet internal nodes at once.
func TestCollideTinyTrees(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 14))
	for trial := range 300 {
		a := env.Soup("a", r, 1+trial%3, 0.3, 1)
		b := env.Soup("b", r, 1+(trial/3)%3, 0.3, 1)
		pose := randPose(r, 0.3)
		want := traversal.BruteForce(a, b, pose)
		var c traversal.Collider
		c.Collide(mustBuild(t, a, geom.FitHull), mustBuild(t, b, geom.FitHull), pose)
		if !slices.Equal(c.Pairs, want) {
			t.Fatalf("trial %d: got %v, want %v", trial, c.Pairs, want)
		}
	}
}

// TestCollideClosedMeshesInCloseProximity: two tessellated spheres almost
// touching, overlapping slightly, and concentric with a small gap.
func TestCollideClosedMeshesInCloseProximity(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 13))
	cases := []struct {
		name string
		b    *env.Mesh
		pose geom.Transform
	}{
		{"apart by 1e-4", env.Sphere("b", geom.Vec3{}, 1, 3), geom.Transform{R: mgl64.Ident3(), T: geom.Vec3{X: 2.0001}}},
		{"overlapping by 1e-3", env.Sphere("b", geom.Vec3{}, 1, 3), geom.Transform{R: randPose(r, 0).R, T: geom.Vec3{X: 1.999}}},
		{"concentric shell", env.Sphere("b", geom.Vec3{}, 1.002, 3), randPose(r, 0)},
		{"face to face", env.Sphere("b", geom.Vec3{}, 1, 3), geom.Transform{R: mgl64.Ident3(), T: geom.Vec3{X: 2}}},
	}
	a := env.Sphere("a", geom.Vec3{}, 1, 3)
	for _, tc := range cases {
		want := traversal.BruteForce(a, tc.b, tc.pose)
		for _, fit := range fitModes {
			var c traversal.Collider
			c.Collide(mustBuild(t, a, fit), mustBuild(t, tc.b, fit), tc.pose)
			if !slices.Equal(c.Pairs, want) {
				t.Errorf("%s fit %d: tree found %d pairs, brute force %d", tc.name, fit, len(c.Pairs), len(want))
			}
		}
	}
}

// TestColliderReuseAllocatesNothing: a reused Collider allocates nothing
// on pairs the float filter decides. (Pairs that touch exactly, or cross
// edge through edge as a mesh and its mirror image do, are decided in
// rationals, which allocate; B is turned here so that none does.)
func TestColliderReuseAllocatesNothing(t *testing.T) {
	a := mustBuild(t, env.Sphere("a", geom.Vec3{}, 1, 4), geom.FitHull)
	b := mustBuild(t, env.Sphere("b", geom.Vec3{}, 1, 4), geom.FitHull)
	pose, _ := geom.FromQuat(mgl64.QuatRotate(0.3, mgl64.Vec3{1, 2, 3}.Normalize()), geom.Vec3{X: 1.9})
	var c traversal.Collider
	c.Collide(a, b, pose)
	if len(c.Pairs) == 0 {
		t.Fatal("workload has no contact")
	}
	if n := testing.AllocsPerRun(20, func() { c.Collide(a, b, pose) }); n != 0 {
		t.Fatalf("Collide allocated %v times per run after warm-up", n)
	}
}

func BenchmarkCollideSpheresClose(b *testing.B) {
	ta := mustBuild(b, env.Sphere("a", geom.Vec3{}, 1, 6), geom.FitHull)
	tb := mustBuild(b, env.Sphere("b", geom.Vec3{}, 1.001, 6), geom.FitHull)
	var c traversal.Collider
	pose := geom.Transform{R: mgl64.HomogRotate3DZ(0.1).Mat3(), T: geom.Vec3{}}
	c.Collide(ta, tb, pose) // grow the stack and caches once
	b.ReportAllocs()
	for b.Loop() {
		c.Collide(ta, tb, pose)
	}
	b.ReportMetric(float64(c.BoxTests), "boxtests")
}

// TestSelfShiftedByAHair: a closed mesh against itself moved 3e-12 m, the
// case where neighbours with parallel edges are apart by less than any
// tolerance: the tree finds exactly the pairs the exact test finds.
func TestSelfShiftedByAHair(t *testing.T) {
	for _, m := range []*env.Mesh{env.Sphere("s", geom.Vec3{X: 0.1, Y: 0.2, Z: 0.3}, 0.08, 3), env.Torus("t", geom.Vec3{Y: 0.7}, 0.1, 0.03, 24, 12)} {
		tree := mustBuild(t, m, geom.FitHull)
		for _, d := range []geom.Vec3{{X: 3e-12}, {Y: -3e-12}, geom.Vec3{X: 1, Y: 2, Z: -2}.Normalize().Mul(3e-12)} {
			pose := geom.Transform{R: mgl64.Ident3(), T: d}
			want := traversal.BruteForce(m, m, pose)
			var c traversal.Collider
			c.Collide(tree, tree, pose)
			if !slices.Equal(c.Pairs, want) {
				t.Errorf("%s moved %v: tree %d pairs, exact brute force %d", m.Objects[0], d, len(c.Pairs), len(want))
			}
			if len(want) == 0 {
				t.Errorf("%s moved %v: no pair: the case tests little", m.Objects[0], d)
			}
		}
	}
}

// TestCollideKeepsDegenerateTriangles: a file's zero-area triangles stay
// in the tree, and a query of the mesh against itself finds the pairs
// testing every triangle pair finds.
func TestCollideKeepsDegenerateTriangles(t *testing.T) {
	m, err := env.Load("../testdata/scenes/degenerate.obj", env.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tr := mustBuild(t, m, geom.FitHull)
	var c traversal.Collider
	if n, want := c.Collide(tr, tr, geom.Identity()), len(traversal.BruteForce(m, m, geom.Identity())); n != want || n == 0 {
		t.Fatalf("self query found %d pairs, brute force %d", n, want)
	}
}

// TestCollideEqualsBruteForceFarFromTheOrigin: a sphere 3e5 to 8e5 m from
// the origin (a scene in a map's coordinates) against itself moved a
// centimetre: the tree query returns exactly brute force's pairs, with
// whole and packed boxes, for every box kind. Whole boxes fitted as
// (hi-lo)/2 about a rounded centre missed pairs there.
func TestCollideEqualsBruteForceFarFromTheOrigin(t *testing.T) {
	for k := range 6 {
		off := 1e6 * (0.3 + 0.1*float64(k))
		m := env.Sphere("b", geom.Vec3{X: off, Y: -off / 3.7, Z: off * 0.9}, 1, 3)
		pose := geom.Transform{R: geom.Identity().R, T: geom.Vec3{X: 0.01 + 0.003*float64(k), Y: 0.002 * float64(k)}}
		want := traversal.BruteForce(m, m, pose)
		if len(want) == 0 {
			t.Fatalf("offset %g: no pairs to find", off)
		}
		for _, fit := range fitModes {
			for _, layout := range []env.Layout{env.LayoutFull, env.LayoutPacked} {
				tree, err := env.Build(m, env.BuildOptions{Fit: fit, Layout: layout})
				if err != nil {
					t.Fatal(err)
				}
				var c traversal.Collider
				if c.Collide(tree, tree, pose); !slices.Equal(c.Pairs, want) {
					t.Errorf("offset %g fit %d layout %d: tree found %d pairs, brute force %d", off, fit, layout, len(c.Pairs), len(want))
				}
			}
		}
	}
}
