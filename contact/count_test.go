package contact_test

import (
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/contact"
	"github.com/gloved/gloved/contact/contacttest"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/handmodel/handtest"
	"github.com/gloved/gloved/narrow"
	"github.com/gloved/gloved/traversal"
)

// sinkScene is the table with a finely tessellated ball (8·4^level
// triangles) raised and grown so that the simulated grasp's fingers sink
// into it.
func sinkScene(level int) *env.Mesh {
	scene := env.Box("table", geom.Vec3{Y: 0.70}, geom.Vec3{X: 0.60, Y: 0.02, Z: 0.40})
	scene.Append(env.Sphere("ball", geom.Vec3{Y: 0.82, Z: 0.02}, 0.09, level))
	scene.DetectConvex()
	return scene
}

// handRig is the default hand against scene, counting triangles.
func handRig(t testing.TB, scene *env.Mesh, o contact.Options) (*contacttest.Rig, *handmodel.Hand) {
	t.Helper()
	hand, err := handmodel.New(handmodel.DefaultParams)
	if err != nil {
		t.Fatal(err)
	}
	return contacttest.NewHandRig(t, hand, scene, o), hand
}

// bruteCount counts the triangles of object o of scene that meet link
// (placed by x), each by GJK.
func bruteCount(link *narrow.Polytope, x geom.Transform, scene *env.Mesh, o int) int {
	a := narrow.Shape{P: link, X: x}
	n := 0
	for i, obj := range scene.Object {
		if int(obj) != o {
			continue
		}
		t := scene.Triangle(i)
		if narrow.Intersects(&a, &narrow.Shape{P: &narrow.Polytope{Verts: t[:]}, X: geom.Identity()}) {
			n++
		}
	}
	return n
}

// TestCountTrisEqualsBruteForce: every contact with a convex object
// counts exactly the object's triangles that meet the link, over the
// grasp and over random poses near the ball.
func TestCountTrisEqualsBruteForce(t *testing.T) {
	scene := sinkScene(4)
	rig, hand := handRig(t, scene, contact.Options{CountTris: true})
	var frames [][]geom.Transform
	every, random := 3, 50
	if testing.Short() { // the race run: a third of the frames and poses
		every, random = 9, 17
	}
	for i, p := range handtest.Grasp(t, hand, env.GraspWrist(), 300) {
		if i%every == 0 {
			frames = append(frames, p)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range random { // random poses: link centers within 8 cm of the ball's
		p := make([]geom.Transform, hand.NumLinks())
		for l := range p {
			q := mgl64.Quat{W: r.NormFloat64(), V: mgl64.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}}.Normalize()
			d := geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Normalize().Mul(0.08 * r.Float64())
			p[l], _ = geom.FromQuat(q, geom.Vec3{Y: 0.79, Z: 0.02}.Add(d))
		}
		frames = append(frames, p)
	}
	counted := 0
	for f, p := range frames {
		for _, c := range rig.Frame(p).Contacts {
			if want := bruteCount(rig.Scene.Links[c.Link].Poly, p[c.Link], scene, c.Object); c.Tris != want {
				t.Fatalf("frame %d link %d object %d: %d triangles, brute force %d", f, c.Link, c.Object, c.Tris, want)
			}
			counted += c.Tris
		}
	}
	if counted < 1000*3/every {
		t.Fatalf("only %d triangles counted over the workload", counted)
	}
}

// TestCountTrisManyPlanes: links whose hulls have more planes than a mask
// holds count exactly the brute force's triangles too.
func TestCountTrisManyPlanes(t *testing.T) {
	scene := sinkScene(4)
	ball := env.Sphere("link", geom.Vec3{}, 0.012, 2) // 128 faces
	rig := contacttest.NewRig(t, []contacttest.Body{{Verts: ball.Verts, Tris: ball.Tris}}, scene, contact.Options{CountTris: true})
	if n := len(rig.Scene.Links[0].Planes); n <= 64 {
		t.Fatalf("the link has %d planes, want more than a mask's 64", n)
	}
	r := rand.New(rand.NewPCG(1, 2))
	counted := 0
	for f := range 300 {
		d := geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Normalize().Mul(0.09 + 0.02*(r.Float64()-0.5))
		p := []geom.Transform{{R: mgl64.Ident3(), T: geom.Vec3{Y: 0.82, Z: 0.02}.Add(d)}}
		for _, c := range rig.Frame(p).Contacts {
			if want := bruteCount(rig.Scene.Links[0].Poly, p[0], scene, c.Object); c.Tris != want {
				t.Fatalf("pose %d object %d: %d triangles, brute force %d", f, c.Object, c.Tris, want)
			}
			counted += c.Tris
		}
	}
	if counted < 1000 {
		t.Fatalf("only %d triangles counted over the workload", counted)
	}
}

func benchSolve(b *testing.B, level int, count bool) {
	scene := sinkScene(level)
	rig, hand := handRig(b, scene, contact.Options{CountTris: count})
	frames := handtest.Grasp(b, hand, env.GraspWrist(), 300)
	for _, p := range frames { // warm up every buffer
		rig.Frame(p)
	}
	b.ReportAllocs()
	i, contacts, tris := 0, 0, 0
	for b.Loop() {
		res := rig.Frame(frames[i%len(frames)])
		contacts += len(res.Contacts)
		for _, c := range res.Contacts {
			tris += c.Tris
		}
		i++
	}
	b.ReportMetric(float64(contacts)/float64(i), "contacts/frame")
	b.ReportMetric(float64(tris)/float64(i), "tris/frame")
}

// BenchmarkSolveSinkCount: the collision part of the grasp (refit,
// traversal, exact answers) with the fingers sinking into a ball of
// 32,768 triangles, counting touched triangles.
func BenchmarkSolveSinkCount(b *testing.B)   { benchSolve(b, 6, true) }
func BenchmarkSolveSinkNoCount(b *testing.B) { benchSolve(b, 6, false) }

// countJob is one contact of the grasp: its link, pose and front.
type countJob struct {
	x     geom.Transform
	l, o  int
	front []int32
}

// benchCount times the counts alone over the grasp's contacts with the
// sinking ball.
func benchCount(b *testing.B, count func(rig *contacttest.Rig, j *countJob) int) {
	scene := sinkScene(6)
	rig, hand := handRig(b, scene, contact.Options{CountTris: true})
	var jobs []countJob
	for _, p := range handtest.Grasp(b, hand, env.GraspWrist(), 300) {
		res := rig.Frame(p)
		for _, c := range res.Contacts { // convex objects: counted from the root
			root := []int32{rig.Scene.Objects[c.Object].Tree().Root}
			jobs = append(jobs, countJob{p[c.Link], c.Link, c.Object, root})
		}
	}
	for i := range jobs { // warm up every buffer
		count(rig, &jobs[i])
	}
	b.ReportAllocs()
	i, tris := 0, 0
	for b.Loop() {
		tris += count(rig, &jobs[i%len(jobs)])
		i++
	}
	b.ReportMetric(float64(tris)/float64(i), "tris/contact")
}

var counter contact.Counter

// BenchmarkCountTris: one contact's count of touched triangles of the
// sinking ball (32,768 triangles), from its tree's root as the convex
// method counts;
// ...Visit is the GJK-per-triangle count it replaced.
func BenchmarkCountTris(b *testing.B) {
	benchCount(b, func(rig *contacttest.Rig, j *countJob) int {
		n, _ := counter.Count(rig.Scene.Objects[j.o].Tree(), j.front, &rig.Scene.Links[j.l], j.x, 0)
		return n
	})
}

var visitStack []int32
var tri narrow.Polytope
var triCorners [3]geom.Vec3

func BenchmarkCountTrisVisit(b *testing.B) {
	benchCount(b, func(rig *contacttest.Rig, j *countJob) int {
		link := &rig.Scene.Links[j.l]
		box := link.Box.Transformed(j.x)
		inv := j.x.Inverse()
		tree := rig.Scene.Objects[j.o].Tree()
		n := 0
		traversal.VisitOBB(tree, &box, &visitStack, func(k int32) bool {
			if contact.TouchesTriangle(link.Poly, tree.Mesh.Triangle(int(k)).Transformed(inv), &tri, &triCorners) {
				n++
			}
			return true
		})
		return n
	})
}
