package session

import (
	"context"
	"runtime"
	"testing"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
)

// manyObjects is a scene of n objects in a row, every third a closed
// torus (a surface, its tree and grid), the others boxes (convex
// solids, a hull and a tree each).
func manyObjects(n int) *env.Mesh {
	m := &env.Mesh{}
	for i := range n {
		at := geom.Vec3{X: 0.05 * float64(i)}
		if i%3 == 0 {
			m.Append(env.Torus("t", at, 0.01, 0.004, 6, 4))
		} else {
			m.Append(env.Box("b", at, geom.Vec3{X: 0.01, Y: 0.01, Z: 0.01}))
		}
	}
	return m
}

// preparedBytes is what PrepareScene allocates for scene.
func preparedBytes(t *testing.T, scene *env.Mesh) uint64 {
	t.Helper()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := PrepareScene(context.Background(), scene, PipelineOptions{Proximity: 0.01}); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestPreparingManyObjectsCostsTheirTrianglesNotTimesTheirNumber: what
// preparing a scene allocates grows with its triangles, not with its
// triangles times its objects: twice the objects, each as large, cost at
// most 2.3 times as much. (Each object's hull, tree and triangle list
// once looked through the whole scene's triangles or vertices: 16,000
// small boxes took 50 s to prepare.)
func TestPreparingManyObjectsCostsTheirTrianglesNotTimesTheirNumber(t *testing.T) {
	small, large := manyObjects(600), manyObjects(1200)
	small.DetectConvex()
	large.DetectConvex()
	a, b := preparedBytes(t, small), preparedBytes(t, large)
	if r := float64(b) / float64(a); r > 2.3 {
		t.Fatalf("600 objects took %d bytes to prepare, 1200 took %d: %.2f times as much", a, b, r)
	}
}
