package env_test

import (
	"math"
	"testing"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
)

func TestLongTrianglesGetASubtreeOfTheirOwn(t *testing.T) {
	// A rippled 40x40 top over a bottom fanned from its centre, as a
	// closed height-field block is: a fingertip's box over the top, or in it,
	// meets the boxes of about one path of the tree, not every node the
	// long bottom triangles run through.
	m := env.Terrain("top", 40, func(x, z float64) float64 { return 0.1 + 0.005*math.Sin(30*x) })
	centre := int32(len(m.Verts))
	m.Verts = append(m.Verts, geom.Vec3{})
	var rim []int32 // the top's outer vertices, around
	for i := range 40 {
		rim = append(rim, int32(i*41))
	}
	for j := range 40 {
		rim = append(rim, int32(40*41+j))
	}
	for i := 40; i > 0; i-- {
		rim = append(rim, int32(i*41+40))
	}
	for j := 40; j >= 0; j-- {
		rim = append(rim, int32(j))
	}
	for i := 0; i+1 < len(rim); i++ {
		a, b := m.Verts[rim[i]], m.Verts[rim[i+1]]
		ia, ib := int32(len(m.Verts)), int32(len(m.Verts)+1)
		m.Verts = append(m.Verts, geom.Vec3{X: a.X, Z: a.Z}, geom.Vec3{X: b.X, Z: b.Z})
		m.Tris = append(m.Tris, [3]int32{centre, ib, ia})
		m.Object = append(m.Object, 0)
	}
	tree, err := env.Build(m, env.BuildOptions{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	worst := 0
	for _, p := range []geom.Vec3{{X: 0.01, Y: 0.108, Z: 0.02}, {X: -0.3, Y: 0.12, Z: 0.2}, {X: 0.4, Y: 0.108, Z: -0.1}} {
		tip := geom.AABB{Min: p.Sub(geom.Vec3{X: 0.01, Y: 0.01, Z: 0.01}), Max: p.Add(geom.Vec3{X: 0.01, Y: 0.01, Z: 0.01})}.OBB()
		in := 0
		for i := range tree.Nodes {
			if b := tree.Box(int32(i)); !geom.BoxesDisjoint(&tip, &b) {
				in++
			}
		}
		worst = max(worst, in)
	}
	if worst > 3*tree.Depth {
		t.Errorf("a fingertip's box over the top meets %d boxes (the tree is %d deep)", worst, tree.Depth)
	}
}
