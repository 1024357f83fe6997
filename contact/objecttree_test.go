package contact_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gloved/gloved/contact"
	"github.com/gloved/gloved/contact/contacttest"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
)

// fieldOfObjects is a seeded field of n small objects scattered through
// a 0.4 m cube about the origin: one-triangle surfaces, most of them,
// then small boxes (convex solids), coarse tori (solids too small for a
// grid) and fine ones (with a grid).
func fieldOfObjects(r *rand.Rand, n int) *env.Mesh {
	scene := &env.Mesh{}
	at := func() geom.Vec3 {
		return geom.Vec3{X: 0.4 * (r.Float64() - 0.5), Y: 0.4 * (r.Float64() - 0.5), Z: 0.4 * (r.Float64() - 0.5)}
	}
	for i := range n {
		name := fmt.Sprint("o", i)
		switch i % 10 {
		case 7:
			scene.Append(env.Box(name, at(), geom.Vec3{X: 0.004 + 0.01*r.Float64(), Y: 0.004 + 0.01*r.Float64(), Z: 0.004 + 0.01*r.Float64()}))
		case 8:
			scene.Append(env.Torus(name, at(), 0.012, 0.004, 8, 4))
		case 9:
			scene.Append(env.Torus(name, at(), 0.015, 0.005, 16, 8))
		default:
			c := at()
			v := []geom.Vec3{c, c.Add(geom.Vec3{X: 0.02 * r.Float64(), Y: 0.005 * r.Float64()}), c.Add(geom.Vec3{Y: 0.02 * r.Float64(), Z: 0.01 * r.Float64()})}
			scene.Append(&env.Mesh{Objects: []string{name}, Verts: v, Tris: [][3]int32{{0, 1, 2}}, Object: []int32{0}})
		}
	}
	scene.DetectConvex()
	return scene
}

// threeLinks are a rig's links: a 2 cm cube, a flat pad and a long
// finger-like box.
func threeLinks() []contacttest.Body {
	var links []contacttest.Body
	for _, half := range []geom.Vec3{{X: 0.01, Y: 0.01, Z: 0.01}, {X: 0.02, Y: 0.015, Z: 0.003}, {X: 0.03, Y: 0.006, Z: 0.006}} {
		b := env.Box("link", geom.Vec3{}, half)
		links = append(links, contacttest.Body{Verts: b.Verts, Tris: b.Tris})
	}
	return links
}

// throughTheField is frames of the three links' poses: together they
// wander through the field, turning, and now and then jump elsewhere.
func throughTheField(r *rand.Rand, frames int) [][]geom.Transform {
	out := make([][]geom.Transform, frames)
	p := geom.Vec3{}
	turns := make([]geom.Transform, 3)
	for l := range turns {
		turns[l] = geom.Transform{R: randomTurn(r).Mat4().Mat3()}
	}
	for f := range out {
		if r.IntN(60) == 0 {
			p = geom.Vec3{X: 0.5 * (r.Float64() - 0.5), Y: 0.5 * (r.Float64() - 0.5), Z: 0.5 * (r.Float64() - 0.5)}
		}
		p = p.Add(geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Mul(0.004))
		for l := range turns {
			if r.IntN(10) == 0 {
				turns[l].R = randomTurn(r).Mat4().Mat3()
			}
			turns[l].T = p.Add(geom.Vec3{X: 0.035 * float64(l)})
		}
		out[f] = append([]geom.Transform(nil), turns...)
	}
	return out
}

// frame runs a frame as the pipeline does: passed over when PassOver
// proves it has nothing to answer, else traversed and answered.
func frame(r *contacttest.Rig, poses []geom.Transform) *contact.Results {
	if r.Scene.PassOver(poses) {
		r.Scene.Solve(poses)
		return &r.Scene.Results
	}
	return r.Frame(poses)
}

// TestTheTreeOverTheObjectsChangesNoAnswer: links wandering through a
// field of a few hundred small objects get every frame's answers, to the
// last digit, with the frame visiting only the objects the tree over
// them finds near the links and with it visiting every object; and the
// same but for the convex solids with the accelerations off (the convex
// method's GJK, warm started, can differ from a cold start in the last
// digit, the tree or not); and the tree leaves most objects unvisited.
func TestTheTreeOverTheObjectsChangesNoAnswer(t *testing.T) {
	for seed := range uint64(2) {
		r := rand.New(rand.NewPCG(seed, 28))
		scene := fieldOfObjects(r, 300)
		poses := throughTheField(r, 200)
		mk := func(noAccel bool) *contacttest.Rig {
			return contacttest.NewRig(t, threeLinks(), scene, contact.Options{Proximity: 0.01, CountTris: true, NoAccel: noAccel})
		}
		tree, every, off := mk(false), mk(false), mk(true)
		every.Scene.VisitEveryObject()
		solid := func(o int) bool { return !scene.Convex[o] }
		contacts, near, visited := 0, 0, 0
		for f, x := range poses {
			a, b, c := frame(tree, x), frame(every, x), frame(off, x)
			visited += tree.Scene.Reached()
			if sa, sb := answers(a, nil), answers(b, nil); sa != sb {
				t.Fatalf("seed %d frame %d:\ntree:  %s\nevery: %s", seed, f, sa, sb)
			}
			if sa, sc := answers(a, solid), answers(c, solid); sa != sc {
				t.Fatalf("seed %d frame %d, but the convex objects':\ntree: %s\noff:  %s", seed, f, sa, sc)
			}
			contacts += len(tree.Scene.Contacts)
			near += len(tree.Scene.Near)
		}
		if contacts < 20 || near < 20 {
			t.Fatalf("seed %d: %d contacts and %d near misses in %d frames: the test needs more", seed, contacts, near, len(poses))
		}
		if mean := float64(visited) / float64(len(poses)); mean > 30 {
			t.Errorf("seed %d: %.1f of %d objects visited a frame", seed, mean, len(scene.Objects))
		}
	}
}

// answers is a frame's answers, every digit, for the objects keep keeps
// (nil: all).
func answers(r *contact.Results, keep func(o int) bool) string {
	var cs []contact.Contact
	var ns []contact.Near
	for _, c := range r.Contacts {
		if keep == nil || keep(c.Object) {
			cs = append(cs, c)
		}
	}
	for _, n := range r.Near {
		if keep == nil || keep(n.Object) {
			ns = append(ns, n)
		}
	}
	return fmt.Sprintf("%+v | %+v", cs, ns)
}

// oneTriangleObjectBytes is the most a one-triangle object may add to
// what a scene holds for the hand's 16 links before the hand comes near
// it: its method's object and a fork (a few hundred bytes each), what
// it keeps of the links not yet made, its root box and its place in the
// tree over the objects, and no grid. What each (link, object) pair
// keeps, made at load, took 15 KiB an object.
const oneTriangleObjectBytes = 1024

// TestAOneTriangleObjectCostsTheSceneUnderAKilobyte: a scene of 1,000
// one-triangle objects holds at most oneTriangleObjectBytes a triangle
// more than one of 100, by its own account (Scene.Bytes).
func TestAOneTriangleObjectCostsTheSceneUnderAKilobyte(t *testing.T) {
	bytes := func(n int) int {
		scene := &env.Mesh{}
		for i := range n {
			c := geom.Vec3{X: 0.05 * float64(i%40), Y: 0.5, Z: 0.05 * float64(i/40)}
			v := []geom.Vec3{c, c.Add(geom.Vec3{X: 0.01}), c.Add(geom.Vec3{Z: 0.01})}
			scene.Append(&env.Mesh{Objects: []string{fmt.Sprint("t", i)}, Verts: v, Tris: [][3]int32{{0, 1, 2}}, Object: []int32{0}})
		}
		scene.DetectConvex()
		rig, _ := handRig(t, scene, contact.Options{Proximity: 0.01, Workers: 2})
		if len(rig.Scene.Links) != 16 {
			t.Fatalf("%d links, want the hand's 16", len(rig.Scene.Links))
		}
		return rig.Scene.Bytes()
	}
	small, large := bytes(100), bytes(1000)
	if per := (large - small) / 900; per > oneTriangleObjectBytes {
		t.Fatalf("%d bytes an object (%d for 100 objects, %d for 1000), want at most %d", per, small, large, oneTriangleObjectBytes)
	}
}

// TestAFieldMetBeforeAllocatesNothing: an object makes what it keeps of
// the links the first frame a link comes near it, and a fork its scratch
// the first time it answers, so links wandering through a field of small
// objects allocate in the frames that meet an object for the first time;
// wandering the same way again, every object met already, no frame
// allocates.
func TestAFieldMetBeforeAllocatesNothing(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 28))
	scene := fieldOfObjects(r, 300)
	poses := throughTheField(r, 150)
	rig := contacttest.NewRig(t, threeLinks(), scene, contact.Options{Proximity: 0.01, CountTris: true, Workers: 2, SplitAbove: -1})
	for _, x := range poses { // meets the objects, and grows every buffer
		frame(rig, x)
	}
	i := 0
	if n := testing.AllocsPerRun(len(poses), func() { frame(rig, poses[i%len(poses)]); i++ }); n != 0 {
		t.Fatalf("%v allocations a frame among objects met before", n)
	}
}

// TestAFarFrameOnANewSceneVisitsNoObject: a frame with every link far
// from every object costs the traversal no box test, on a scene that has
// never had an object near as on one that has.
func TestAFarFrameOnANewSceneVisitsNoObject(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	rig := contacttest.NewRig(t, threeLinks(), fieldOfObjects(r, 400), contact.Options{Proximity: 0.01})
	far, near := make([]geom.Transform, 3), make([]geom.Transform, 3) // near: at the origin, among the objects
	for l := range far {
		far[l] = geom.Transform{R: geom.Identity().R, T: geom.Vec3{X: 5 + 0.035*float64(l), Y: 5, Z: 5}}
	}
	rig.Frame(far)
	fresh := rig.Scene.Candidates().BoxTests
	rig.Frame(near)
	rig.Frame(far)
	if after := rig.Scene.Candidates().BoxTests; fresh != 0 || after != 0 {
		t.Fatalf("a far frame cost %d box tests on a new scene, %d after a near frame: want none", fresh, after)
	}
}
