package traversal_test

import (
	"math"
	"testing"

	"github.com/gloved/gloved/cab"
	"github.com/gloved/gloved/cab/cabtest"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel/handtest"
	"github.com/gloved/gloved/traversal"
)

// Terrains under the demo wrist, whose grasp keeps the hand within
// y 0.81..0.93 and x, z within ±0.1 of the origin: the ground under it is
// 7-10 cm below its lowest point.
var terrains = map[string]func(x, z float64) float64{
	// gently undulating ground, its box thin
	"ripple": func(x, z float64) float64 { return 0.72 + 0.01*math.Sin(20*x)*math.Cos(17*z) },
	// a valley whose rims rise 20 cm above the hand: the terrain's box,
	// and its children's, hold the whole hand
	"valley": func(x, z float64) float64 {
		return 0.715 + 0.8*(x*x+z*z) + 0.005*math.Sin(30*x)*math.Cos(27*z)
	},
}

// benchTraverse runs the pipeline's traversal of one object per frame:
// the links within margin of the object's box and, if any, the descent
// for the triangles that may touch them, grown by runMargin.
func benchTraverse(b *testing.B, tree *env.Tree, margin, runMargin float64) {
	hand, h := cabtest.Hand(b)
	frames := handtest.Grasp(b, hand, env.GraspWrist(), 300)
	ref, _ := cab.NewRefitter(cab.CAB, h)
	root := tree.Bounds()
	var sq traversal.SceneQuery
	var near []int32
	step := func(i int) (int, int) {
		ref.Refit(frames[i%len(frames)])
		sq.Margin, sq.BoxTests = margin, 0
		near = sq.LinksNear(h, &root, near[:0])
		tests := sq.BoxTests
		if len(near) == 0 {
			return 0, tests
		}
		sq.Margin = runMargin
		n := sq.Run(h, tree)
		return n, tests + sq.BoxTests
	}
	for i := range frames { // warm up every buffer
		step(i)
	}
	b.ReportAllocs()
	i, pairs, tests := 0, 0, 0
	for b.Loop() {
		n, t := step(i)
		pairs, tests = pairs+n, tests+t
		i++
	}
	b.ReportMetric(float64(pairs)/float64(i), "pairs/frame")
	b.ReportMetric(float64(tests)/float64(i), "boxtests/frame")
}

func terrainTree(b *testing.B, name string) *env.Tree {
	tree, err := env.Build(env.Terrain("terrain", 316, terrains[name]), env.BuildOptions{})
	if err != nil {
		b.Fatal(err)
	}
	return tree
}

// BenchmarkSceneQueryTerrain*: a 1 m terrain of 199,712 triangles 7-10 cm
// under the grasping hand, nothing within the 1 cm band: refit and
// traversal as the pipeline runs them (...Band: the descent's boxes grown
// by the band too).
func BenchmarkSceneQueryTerrainRipple(b *testing.B) {
	benchTraverse(b, terrainTree(b, "ripple"), 0.01, 0)
}
func BenchmarkSceneQueryTerrainValley(b *testing.B) {
	benchTraverse(b, terrainTree(b, "valley"), 0.01, 0)
}
func BenchmarkSceneQueryTerrainValleyBand(b *testing.B) {
	benchTraverse(b, terrainTree(b, "valley"), 0.01, 0.01)
}

// BenchmarkSceneQueryTorusGrasp: the fingers close on a torus of 100,000
// triangles (not convex: its triangles are the candidates).
func BenchmarkSceneQueryTorusGrasp(b *testing.B) {
	tree, err := env.Build(env.Torus("torus", geom.Vec3{Y: 0.79, Z: 0.02}, 0.05, 0.03, 500, 100), env.BuildOptions{})
	if err != nil {
		b.Fatal(err)
	}
	benchTraverse(b, tree, 0.01, 0)
}
