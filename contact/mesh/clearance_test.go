package mesh_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gloved/gloved/contact/mesh"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/env/envtest"
	"github.com/gloved/gloved/geom"
)

// TestEveryClearanceKeptIsBelowTheTrueDistance: a link wandering about a
// torus and a wall, with the budget of the search that raises a clearance
// cut to 1, 3 and 17 references and at its own: every clearance an object
// keeps, measured in the frame it was kept, is at most the link's distance
// to the object by brute force (and the link does not touch it); every
// vertex clearance is at most the vertex's distance to the surface by
// brute force, and the vertex is outside by its winding number.
func TestEveryClearanceKeptIsBelowTheTrueDistance(t *testing.T) {
	scene := torusAndWall()
	subs := make([]*env.Mesh, len(scene.Objects))
	for o := range scene.Objects {
		subs[o], _ = scene.Subset(func(i int) bool { return int(scene.Object[i]) == o })
	}
	for _, budget := range []int{1, 3, 17, 0} {
		restore := func() {}
		if budget > 0 {
			restore = mesh.SetRaiseBudget(budget)
		}
		kept, vkept := 0, 0
		for seed := range uint64(3) {
			r := rand.New(rand.NewPCG(seed, 77))
			link := randomHull(t, r, 20, 0.006)
			rg := rig(t, scene, 0.01, link)
			for f, x := range wander(r, geom.Vec3{X: 0.16}, 800, 0.0015, 0.03) {
				rg.Frame([]geom.Transform{x})
				for o, obj := range rg.Scene.Objects {
					mo, ok := obj.(*mesh.Object)
					if !ok {
						continue
					}
					if cl := mo.ClearanceOf(0); cl.Dist > 0 && cl.X == x {
						kept++
						if d, touch := bruteNear(link.poly, x, subs[o]); touch || cl.Dist > d {
							t.Fatalf("budget %d, seed %d, frame %d, object %d: clearance %v, the distance %v (touching %v)", budget, seed, f, o, cl.Dist, d, touch)
						}
					}
					for i := range link.verts {
						at, dist := mo.VertClearOf(0, i)
						if dist <= 0 || at != x.Apply(link.verts[i]) {
							continue // none, or kept in an earlier frame
						}
						vkept++
						if d := envtest.SurfaceDistance(subs[o], at); dist > d || envtest.WindingNumber(subs[o], at) > 0.5 {
							t.Fatalf("budget %d, seed %d, frame %d, object %d, vertex %d: clearance %v, the distance %v, winding number %v", budget, seed, f, o, i, dist, d, envtest.WindingNumber(subs[o], at))
						}
					}
				}
			}
		}
		restore()
		if kept < 100 || vkept < 100 {
			t.Errorf("budget %d: only %d clearances and %d vertex clearances kept to check", budget, kept, vkept)
		}
	}
}

// TestAContactOfNoDepthOnASolidWithoutAGridKeepsItsPoint: a flat bar lies
// across the ridge of a roof-shaped prism, which pokes into its underside,
// and slides along it: a contact of no depth, whose point is the surface
// point nearest the bar's vertex closest to going in. Two specks far out
// on either side make the one solid too wide for a grid (1e15 m), so only
// the vertices' clearances prove them outside: the pass that measures
// those for the point must run without a grid too (it did not, and the
// point fell back to a corner of a triangle 5 cm away). With the specks at
// 1e14 m, where there is a grid, the same.
func TestAContactOfNoDepthOnASolidWithoutAGridKeepsItsPoint(t *testing.T) {
	for _, far := range []float64{1e14, 1e15} {
		scene := prismAndSpecks(t, far)
		link := boxHull(t, geom.Vec3{X: 0.01, Y: 0.003, Z: 0.002})
		var poses []geom.Transform
		for i := range 20 {
			poses = append(poses, geom.Transform{R: geom.Identity().R, T: geom.Vec3{Y: 0.0001 * float64(i), Z: 0.0015}})
		}
		onOff(t, scene, 0.01, link, poses)
	}
}

// prismAndSpecks is one closed object that does not cross itself: a
// roof-shaped prism whose ridge runs along y through the origin, and two
// small tetrahedra far out along x on either side.
func prismAndSpecks(t *testing.T, far float64) *env.Mesh {
	t.Helper()
	m := &env.Mesh{Objects: []string{"roof"}}
	add := func(pts []geom.Vec3) {
		h, err := geom.ConvexHull(pts)
		if err != nil {
			t.Fatal(err)
		}
		n := int32(len(m.Verts))
		m.Verts = append(m.Verts, h.Verts...)
		for _, tr := range h.Tris {
			m.Tris, m.Object = append(m.Tris, [3]int32{tr[0] + n, tr[1] + n, tr[2] + n}), append(m.Object, 0)
		}
	}
	const b = 0.05
	add([]geom.Vec3{{Y: -b}, {Y: b}, {X: -b, Y: -b, Z: -b}, {X: b, Y: -b, Z: -b}, {X: -b, Y: b, Z: -b}, {X: b, Y: b, Z: -b}})
	for _, at := range []float64{-far, far} {
		add([]geom.Vec3{{X: at}, {X: at + 1e6}, {X: at, Y: 1e6}, {X: at, Z: 1e6}})
	}
	m.DetectConvex()
	return m
}
