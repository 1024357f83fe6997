package mesh_test

import (
	"fmt"
	"math"
	"slices"
	"sync"
	"testing"

	"github.com/gloved/gloved/contact"
	"github.com/gloved/gloved/contact/contacttest"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/env/envtest"
	"github.com/gloved/gloved/env/experiments"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/handmodel/handtest"
)

// TestRealMeshesMatchBruteForce: the grasp closing on two real meshes
// of `gloved bench scenes` (spot and the duck, closed; every 30th frame),
// with every acceleration on: a link touches the mesh exactly when brute
// force says so (a triangle meets it, or it is inside by the winding
// number), with the brute-force count of triangles, the reference depth
// (the deepest vertex of either body inside the other) and a point on the
// surface; a link not touching is near exactly when brute force puts it
// within the band, at brute force's distance.
func TestRealMeshesMatchBruteForce(t *testing.T) {
	const band = 0.01
	hand, err := handmodel.New(handmodel.DefaultParams)
	if err != nil {
		t.Fatal(err)
	}
	frames := handtest.Grasp(t, hand, env.GraspWrist(), 300)
	touched, near := 0, 0
	var mu sync.Mutex
	t.Cleanup(func() {
		if !t.Failed() && (touched < 5 || near < 5) {
			t.Errorf("%d contacts and %d near checked: the grasp tests little", touched, near)
		}
	})
	for _, class := range []string{"spot", "duck"} {
		t.Run(class, func(t *testing.T) {
			t.Parallel()
			n, m := matchBruteForce(t, hand, frames, class, band)
			mu.Lock()
			touched, near = touched+n, near+m
			mu.Unlock()
		})
	}
}

// matchBruteForce runs the grasp's frames over class's smallest scene and
// checks every 30th against brute force, returning how many contacts and
// near links it checked.
func matchBruteForce(t *testing.T, hand *handmodel.Hand, frames [][]geom.Transform, class string, band float64) (touched, near int) {
	c, err := experiments.SceneClassNamed(class)
	if err != nil {
		t.Fatal(err)
	}
	scene, err := c.Make(c.Sizes[0])
	if err != nil {
		t.Fatal(err)
	}
	o := slices.Index(scene.Objects, class)
	obj, _ := scene.Subset(func(i int) bool { return int(scene.Object[i]) == o })
	rig := contacttest.NewHandRig(t, hand, scene, contact.Options{Proximity: band, CountTris: true})
	bounds := meshBounds(obj)
	for f := 0; f < len(frames); f++ {
		res := rig.Frame(frames[f])
		if f%30 != 0 {
			continue // the frames between keep the warm starts warm
		}
		for l := range rig.Scene.Links {
			ct, nr := checkLink(t, fmt.Sprintf("%s frame %d link %d", class, f, l), &rig.Scene.Links[l], frames[f][l], res, l, o, obj, bounds, band)
			touched, near = touched+ct, near+nr
		}
	}
	return touched, near
}

// checkLink checks link l's answer against object o (its mesh obj, its
// box bounds) in res against brute force, and returns 1, 0 when it
// touches and 0, 1 when it is near.
func checkLink(t *testing.T, what string, lk *contact.Link, x geom.Transform, res *contact.Results, l, o int, obj *env.Mesh, bounds geom.AABB, band float64) (touched, near int) {
	t.Helper()
	var got *contact.Contact
	for i := range res.Contacts {
		if res.Contacts[i].Link == l && res.Contacts[i].Object == o {
			got = &res.Contacts[i]
		}
	}
	var gotNear *contact.Near
	for i := range res.Near {
		if res.Near[i].Link == l && res.Near[i].Object == o {
			gotNear = &res.Near[i]
		}
	}
	if !grown(lk.Box.Transformed(x).AABB(), band).Overlaps(bounds) {
		if got != nil || gotNear != nil {
			t.Fatalf("%s: reported, yet its box is beyond the band of the mesh's", what)
		}
		return 0, 0
	}
	link := makeHull(t, lk.Poly.Verts)
	depth, touch := refMeshDepth(link, x, obj)
	if !touch && envtest.WindingNumber(obj, x.Apply(link.verts[0])) > 0.5 {
		touch = true // wholly inside
	}
	if (got != nil) != touch {
		t.Fatalf("%s: contact %v, brute force touches %v", what, got != nil, touch)
	}
	if touch {
		if math.Abs(got.Depth-depth) > 1e-9 {
			t.Fatalf("%s: depth %v, reference %v", what, got.Depth, depth)
		}
		if n := bruteTris(link.poly, x, obj); got.Tris != n {
			t.Fatalf("%s: %d triangles, brute force %d", what, got.Tris, n)
		}
		onSurface(t, what, obj, got.Point)
		return 1, 0
	}
	d, _ := bruteNear(link.poly, x, obj)
	if (gotNear != nil) != (d <= band) {
		t.Fatalf("%s: near %v, brute force distance %v", what, gotNear != nil, d)
	}
	if gotNear == nil {
		return 0, 0
	}
	if math.Abs(gotNear.Distance-d) > 1e-9 {
		t.Fatalf("%s: near at %v, brute force %v", what, gotNear.Distance, d)
	}
	onSurface(t, what, obj, gotNear.Point)
	return 0, 1
}

// meshBounds is the box around m's vertices.
func meshBounds(m *env.Mesh) geom.AABB {
	b := geom.EmptyAABB()
	for _, v := range m.Verts {
		b = b.Extend(v)
	}
	return b
}

// grown is b grown by d on every side.
func grown(b geom.AABB, d float64) geom.AABB {
	g := geom.Vec3{X: d, Y: d, Z: d}
	return geom.AABB{Min: b.Min.Sub(g), Max: b.Max.Add(g)}
}
