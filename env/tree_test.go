package env

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
)

var fitModes = []geom.FitMode{geom.FitHull, geom.FitSurface, geom.FitAxisAligned}

func mustBuild(t testing.TB, m *Mesh, fit geom.FitMode) *Tree {
	t.Helper()
	tr, err := Build(m, BuildOptions{Fit: fit})
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
	x, _ := geom.FromQuat(q, mgl64.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Mul(reach))
	return x
}

func TestBuildValidates(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 11))
	degenerate := Soup("d", r, 200, 1, 0.5)
	for i := 0; i < len(degenerate.Tris); i += 3 { // every third collapses
		degenerate.Verts[degenerate.Tris[i][2]] = degenerate.Verts[degenerate.Tris[i][1]]
	}
	dup := Soup("dup", r, 1, 1, 0.5)
	for range 40 { // forty copies of one triangle: centers coincide
		dup.Tris = append(dup.Tris, dup.Tris[0])
		dup.Object = append(dup.Object, 0)
	}
	meshes := map[string]*Mesh{
		"one triangle": Soup("one", r, 1, 1, 1),
		"two":          Soup("two", r, 2, 1, 1),
		"soup 5000":    Soup("s", r, 5000, 10, 1),
		"sphere":       Sphere("ball", mgl64.Vec3{1, 2, 3}, 2, 4),
		"degenerate":   degenerate,
		"duplicates":   dup,
	}
	for name, m := range meshes {
		for _, fit := range fitModes {
			t.Run(fmt.Sprintf("%s/fit%d", name, fit), func(t *testing.T) {
				tr := mustBuild(t, m, fit)
				if fit == geom.FitAxisAligned {
					for _, n := range tr.Nodes {
						if n.Box.Axes != mgl64.Ident3() {
							t.Fatalf("AABB tree node with axes %v", n.Box.Axes)
						}
					}
				}
			})
		}
	}
}

func TestBuildIsDeterministicAcrossWorkers(t *testing.T) {
	m := Sphere("ball", mgl64.Vec3{}, 1, 6)
	a, err := Build(m, BuildOptions{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Build(m, BuildOptions{Workers: 4})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.Nodes, b.Nodes) || a.Depth != b.Depth {
		t.Fatal("trees built with 1 and 4 workers differ")
	}
	if err := b.Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestBuildEmptyIsAnError(t *testing.T) {
	if _, err := Build(&Mesh{}, BuildOptions{}); err == nil {
		t.Fatal("want an error for an empty mesh")
	}
}

// TestCollideEqualsBruteForce: on seeded random soups and poses, for every
// box kind, the tree query returns exactly the pairs that testing all
// triangle pairs returns.
func TestCollideEqualsBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 12))
	total := 0
	for trial := range 40 {
		a := Soup("a", r, 150+r.IntN(150), 1, 0.6)
		b := Soup("b", r, 150+r.IntN(150), 1, 0.6)
		pose := randPose(r, 0.7)
		want := BruteForce(a, b, pose)
		total += len(want)
		for _, fit := range fitModes {
			ta, tb := mustBuild(t, a, fit), mustBuild(t, b, fit)
			var c Collider
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

// TestCollideTinyTrees: trees of one, two and three triangles, whose roots
// are leaves or whose leaves meet internal nodes at once.
func TestCollideTinyTrees(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 14))
	for trial := range 300 {
		a := Soup("a", r, 1+trial%3, 0.3, 1)
		b := Soup("b", r, 1+(trial/3)%3, 0.3, 1)
		pose := randPose(r, 0.3)
		want := BruteForce(a, b, pose)
		var c Collider
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
		b    *Mesh
		pose geom.Transform
	}{
		{"apart by 1e-4", Sphere("b", mgl64.Vec3{}, 1, 3), geom.Transform{R: mgl64.Ident3(), T: mgl64.Vec3{2.0001, 0, 0}}},
		{"overlapping by 1e-3", Sphere("b", mgl64.Vec3{}, 1, 3), geom.Transform{R: randPose(r, 0).R, T: mgl64.Vec3{1.999, 0, 0}}},
		{"concentric shell", Sphere("b", mgl64.Vec3{}, 1.002, 3), randPose(r, 0)},
		{"face to face", Sphere("b", mgl64.Vec3{}, 1, 3), geom.Transform{R: mgl64.Ident3(), T: mgl64.Vec3{2, 0, 0}}},
	}
	a := Sphere("a", mgl64.Vec3{}, 1, 3)
	for _, tc := range cases {
		want := BruteForce(a, tc.b, tc.pose)
		for _, fit := range fitModes {
			var c Collider
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
	a := mustBuild(t, Sphere("a", mgl64.Vec3{}, 1, 4), geom.FitHull)
	b := mustBuild(t, Sphere("b", mgl64.Vec3{}, 1, 4), geom.FitHull)
	pose, _ := geom.FromQuat(mgl64.QuatRotate(0.3, mgl64.Vec3{1, 2, 3}.Normalize()), mgl64.Vec3{1.9, 0, 0})
	var c Collider
	c.Collide(a, b, pose)
	if len(c.Pairs) == 0 {
		t.Fatal("workload has no contact")
	}
	if n := testing.AllocsPerRun(20, func() { c.Collide(a, b, pose) }); n != 0 {
		t.Fatalf("Collide allocated %v times per run after warm-up", n)
	}
}

func BenchmarkBuild100k(b *testing.B)        { benchBuild(b, 100_000, geom.FitHull) }
func BenchmarkBuild1M(b *testing.B)          { benchBuild(b, 1_000_000, geom.FitHull) }
func BenchmarkBuild100kSurface(b *testing.B) { benchBuild(b, 100_000, geom.FitSurface) }
func BenchmarkBuild1MSurface(b *testing.B)   { benchBuild(b, 1_000_000, geom.FitSurface) }

// benchBuild builds n triangles of a tessellated sphere: every vertex of
// every group lies on the group's hull, the hardest case for the hull fit.
func benchBuild(b *testing.B, n int, fit geom.FitMode) {
	level := 0
	for 8<<(2*level) < n {
		level++
	}
	m := Sphere("ball", mgl64.Vec3{}, 1, level)
	// Trim to n triangles so the figure is per requested size.
	m.Tris, m.Object = m.Tris[:min(n, len(m.Tris))], m.Object[:min(n, len(m.Tris))]
	b.ReportAllocs()
	var tr *Tree
	for b.Loop() {
		tr, _ = Build(m, BuildOptions{Fit: fit})
	}
	tree, mesh := tr.Bytes()
	b.ReportMetric(float64(tree+mesh)/float64(len(m.Tris)), "bytes/tri")
	b.ReportMetric(float64(len(m.Tris)), "tris")
}

func BenchmarkCollideSpheresClose(b *testing.B) {
	ta := mustBuild(b, Sphere("a", mgl64.Vec3{}, 1, 6), geom.FitHull)
	tb := mustBuild(b, Sphere("b", mgl64.Vec3{}, 1.001, 6), geom.FitHull)
	var c Collider
	pose := geom.Transform{R: mgl64.HomogRotate3DZ(0.1).Mat3(), T: mgl64.Vec3{}}
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
	for _, m := range []*Mesh{Sphere("s", mgl64.Vec3{0.1, 0.2, 0.3}, 0.08, 3), Torus("t", mgl64.Vec3{0, 0.7, 0}, 0.1, 0.03, 24, 12)} {
		tree := mustBuild(t, m, geom.FitHull)
		for _, d := range []mgl64.Vec3{{3e-12, 0, 0}, {0, -3e-12, 0}, mgl64.Vec3{1, 2, -2}.Normalize().Mul(3e-12)} {
			pose := geom.Transform{R: mgl64.Ident3(), T: d}
			want := BruteForce(m, m, pose)
			var c Collider
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
