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
	x, _ := geom.FromQuat(q, geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Mul(reach))
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
		"sphere":       Sphere("ball", geom.Vec3{X: 1, Y: 2, Z: 3}, 2, 4),
		"degenerate":   degenerate,
		"duplicates":   dup,
	}
	for name, m := range meshes {
		for _, fit := range fitModes {
			t.Run(fmt.Sprintf("%s/fit%d", name, fit), func(t *testing.T) {
				tr := mustBuild(t, m, fit)
				if fit == geom.FitAxisAligned {
					for i := range tr.Nodes {
						if b := tr.Box(int32(i)); b.Axes != mgl64.Ident3() {
							t.Fatalf("AABB tree node with axes %v", b.Axes)
						}
					}
				}
			})
		}
	}
}

func TestBuildIsDeterministicAcrossWorkers(t *testing.T) {
	m := Sphere("ball", geom.Vec3{}, 1, 6)
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
	m := Sphere("ball", geom.Vec3{}, 1, level)
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
