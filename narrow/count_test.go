package narrow

import (
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/devices/sim"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/handmodel/handtest"
	"github.com/gloved/gloved/traversal"
)

// sinkScene is the table with a finely tessellated ball (8·4^level
// triangles) raised and grown so that the simulated grasp's fingers sink
// into it.
func sinkScene(level int) *env.Mesh {
	scene := env.Box("table", mgl64.Vec3{0, 0.70, 0}, mgl64.Vec3{0.60, 0.02, 0.40})
	scene.Append(env.Sphere("ball", mgl64.Vec3{0, 0.82, 0.02}, 0.09, level))
	scene.DetectConvex()
	return scene
}

// handSolver is a solver for the default hand's links against scene.
func handSolver(t testing.TB, scene *env.Mesh) (*Solver, *handmodel.Hand) {
	t.Helper()
	hand, err := handmodel.New(handmodel.DefaultParams)
	if err != nil {
		t.Fatal(err)
	}
	links := make([]*Polytope, hand.NumLinks())
	for i := range links {
		g := hand.Geometry(handmodel.Link(i))
		if links[i], err = NewPolytope(g.Verts, g.Tris); err != nil {
			t.Fatal(err)
		}
	}
	s, err := NewSolver(links, scene)
	if err != nil {
		t.Fatal(err)
	}
	return s, hand
}

// graspFrames poses the hand through n frames of the simulated grasp
// under the demo wrist.
func graspFrames(t testing.TB, hand *handmodel.Hand, n int) [][]geom.Transform {
	t.Helper()
	frames, err := handtest.Poses(hand, sim.Grasp, n, env.GraspWrist())
	if err != nil {
		t.Fatal(err)
	}
	return frames
}

// solidPairs lists every (link, object) pair: the broad phase's answer
// at its most generous.
func solidPairs(links, objects int) []SolidPair {
	var out []SolidPair
	for l := range links {
		for o := range objects {
			out = append(out, SolidPair{Link: int32(l), Object: int32(o)})
		}
	}
	return out
}

// bruteCount counts the triangles of convex object o that meet link l
// (placed by x), each by GJK.
func (s *Solver) bruteCount(l, o int, x geom.Transform) int {
	link := Shape{P: s.links[l], X: x}
	n := 0
	for i, obj := range s.scene.Object {
		if int(obj) != o {
			continue
		}
		s.triVert = s.scene.Triangle(i)
		s.tri.measure()
		tri := Shape{P: &s.tri, X: geom.Identity()}
		if Intersects(&link, &tri) {
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
	s, hand := handSolver(t, scene)
	var frames [][]geom.Transform
	for i, p := range graspFrames(t, hand, 300) {
		if i%3 == 0 {
			frames = append(frames, p)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 50 { // random poses: link centers within 8 cm of the ball's
		p := make([]geom.Transform, hand.NumLinks())
		for l := range p {
			q := mgl64.Quat{W: r.NormFloat64(), V: mgl64.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}}.Normalize()
			d := mgl64.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize().Mul(0.08 * r.Float64())
			p[l], _ = geom.FromQuat(q, mgl64.Vec3{0, 0.79, 0.02}.Add(d))
		}
		frames = append(frames, p)
	}
	pairs := solidPairs(hand.NumLinks(), len(scene.Objects))
	counted := 0
	for f, p := range frames {
		s.Solve(p, pairs)
		for _, c := range s.Contacts {
			if want := s.bruteCount(c.Link, c.Object, p[c.Link]); c.Tris != want {
				t.Fatalf("frame %d link %d object %d: %d triangles, brute force %d", f, c.Link, c.Object, c.Tris, want)
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
	s, hand := handSolver(b, scene)
	s.CountTris = count
	frames := graspFrames(b, hand, 300)
	pairs := solidPairs(hand.NumLinks(), len(scene.Objects))
	for _, p := range frames { // warm up every buffer
		s.Solve(p, pairs)
	}
	b.ReportAllocs()
	i, contacts, tris := 0, 0, 0
	for b.Loop() {
		s.Solve(frames[i%len(frames)], pairs)
		contacts += len(s.Contacts)
		for _, c := range s.Contacts {
			tris += c.Tris
		}
		i++
	}
	b.ReportMetric(float64(contacts)/float64(i), "contacts/frame")
	b.ReportMetric(float64(tris)/float64(i), "tris/frame")
}

// BenchmarkSolveSinkCount: the narrow phase of the grasp with the fingers
// sinking into a ball of 32,768 triangles, counting touched triangles.
func BenchmarkSolveSinkCount(b *testing.B)   { benchSolve(b, 6, true) }
func BenchmarkSolveSinkNoCount(b *testing.B) { benchSolve(b, 6, false) }

// visitStack is visitCount's stack (benchmarks run on one goroutine).
var visitStack []int32

// visitCount is the count before count.go: GJK for every triangle that
// meets the link's box, kept as the benchmarks' baseline.
func (s *Solver) visitCount(link *Shape, l, o int) int {
	box := s.boxes[l].Transformed(link.X)
	inv := link.X.Inverse()
	local := Shape{P: link.P, X: geom.Identity()}
	tree := s.trees[o]
	n := 0
	traversal.VisitOBB(tree, &box, &visitStack, func(tri int32) bool {
		if s.touchesTriangle(&local, tree.Mesh.Triangle(int(tri)).Transformed(inv)) {
			n++
		}
		return true
	})
	return n
}

// benchCount times the counts alone over the grasp's contacts with the
// sinking ball.
func benchCount(b *testing.B, count func(s *Solver, link *Shape, l, o int) int) {
	scene := sinkScene(6)
	s, hand := handSolver(b, scene)
	s.CountTris = false
	pairs := solidPairs(hand.NumLinks(), len(scene.Objects))
	type job struct {
		x    geom.Transform
		l, o int
	}
	var jobs []job
	for _, p := range graspFrames(b, hand, 300) {
		s.Solve(p, pairs)
		for _, c := range s.Contacts {
			jobs = append(jobs, job{p[c.Link], c.Link, c.Object})
		}
	}
	link := &Shape{}
	for _, j := range jobs { // warm up every buffer
		*link = Shape{P: s.links[j.l], X: j.x}
		count(s, link, j.l, j.o)
	}
	b.ReportAllocs()
	i, tris := 0, 0
	for b.Loop() {
		j := jobs[i%len(jobs)]
		*link = Shape{P: s.links[j.l], X: j.x}
		tris += count(s, link, j.l, j.o)
		i++
	}
	b.ReportMetric(float64(tris)/float64(i), "tris/contact")
}

// BenchmarkCountTris: one contact's count of touched triangles of the
// sinking ball (32,768 triangles); ...Visit is the GJK-per-triangle
// count it replaced.
func BenchmarkCountTris(b *testing.B) {
	benchCount(b, func(s *Solver, link *Shape, l, o int) int { n, _ := s.countTris(link, l, o, 0); return n })
}
func BenchmarkCountTrisVisit(b *testing.B) {
	benchCount(b, func(s *Solver, link *Shape, l, o int) int { return s.visitCount(link, l, o) })
}

// TestCountTrisManyPlanes: links whose hulls have more planes than a mask
// holds count exactly the brute force's triangles too.
func TestCountTrisManyPlanes(t *testing.T) {
	scene := sinkScene(4)
	ball := env.Sphere("link", mgl64.Vec3{}, 0.012, 2) // 128 faces
	link, err := NewPolytope(ball.Verts, ball.Tris)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSolver([]*Polytope{link}, scene)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(distinctPlanes(s.geoms[0].planes)); n <= maskPlanes {
		t.Fatalf("the link has %d planes, want more than %d", n, maskPlanes)
	}
	r := rand.New(rand.NewPCG(1, 2))
	pairs := solidPairs(1, len(scene.Objects))
	counted := 0
	for f := range 300 {
		d := mgl64.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize().Mul(0.09 + 0.02*(r.Float64()-0.5))
		p := []geom.Transform{{R: mgl64.Ident3(), T: mgl64.Vec3{0, 0.82, 0.02}.Add(d)}}
		s.Solve(p, pairs)
		for _, c := range s.Contacts {
			if want := s.bruteCount(c.Link, c.Object, p[c.Link]); c.Tris != want {
				t.Fatalf("pose %d object %d: %d triangles, brute force %d", f, c.Object, c.Tris, want)
			}
			counted += c.Tris
		}
	}
	if counted < 1000 {
		t.Fatalf("only %d triangles counted over the workload", counted)
	}
}
