package narrow

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/env/envtest"
	"github.com/gloved/gloved/geom"
)

// refMeshDepth is the reference for a closed object: the larger of
// the deepest link vertex inside the object (winding number) by its
// distance to the surface, and the deepest object vertex inside the link
// by its distance to the link's surface (its faces' planes); and whether
// the link and the object meet at all (a triangle meets the link, or the
// link is inside).
func refMeshDepth(link hullShape, x geom.Transform, m *env.Mesh) (depth float64, touch bool) {
	for _, v := range worldVerts(link, x) {
		if envtest.WindingNumber(m, v) > 0.5 {
			depth, touch = math.Max(depth, envtest.SurfaceDistance(m, v)), true
		}
	}
	inv := x.Inverse()
	var mid mgl64.Vec3
	for _, v := range link.verts {
		mid = mid.Add(v.Mul(1 / float64(len(link.verts))))
	}
	for _, w := range m.Verts {
		p, in := inv.Apply(w), math.Inf(1)
		for _, t := range link.tris {
			a, b, c := link.verts[t[0]], link.verts[t[1]], link.verts[t[2]]
			n := b.Sub(a).Cross(c.Sub(a)).Normalize()
			if n.Dot(mid.Sub(a)) > 0 {
				n = n.Mul(-1) // outward, whatever the hull's winding
			}
			in = math.Min(in, n.Dot(a)-n.Dot(p))
		}
		depth = math.Max(depth, in)
	}
	linkShape := Shape{P: link.poly, X: x}
	for i := range m.Tris {
		t := m.Triangle(i)
		tri := Shape{P: &Polytope{Verts: t[:]}, X: geom.Identity()}
		if Intersects(&linkShape, &tri) {
			touch = true
		}
	}
	return math.Max(depth, 0), touch
}

// bruteTris counts the triangles of m the link meets, each by GJK.
func bruteTris(link *Polytope, x geom.Transform, m *env.Mesh) int {
	a := Shape{P: link, X: x}
	n := 0
	for i := range m.Tris {
		t := m.Triangle(i)
		if Intersects(&a, &Shape{P: &Polytope{Verts: t[:]}, X: geom.Identity()}) {
			n++
		}
	}
	return n
}

// solveAll runs a solver of one link against scene with the object as a
// candidate, as a broad phase that misses nothing would.
func solveAll(s *Solver, m *env.Mesh, x geom.Transform) []Contact {
	s.Solve([]geom.Transform{x}, []SolidPair{{Link: 0, Object: 0}})
	return s.Contacts
}

// onSurface asserts that p is on m's surface.
func onSurface(t *testing.T, what string, m *env.Mesh, p mgl64.Vec3) {
	t.Helper()
	if d := envtest.SurfaceDistance(m, p); d > 1e-6 {
		t.Fatalf("%s: point %v is %v m off the surface", what, p, d)
	}
}

func TestClosedNonConvexDepthIsTheDeepestVertex(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	torus := env.Torus("torus", mgl64.Vec3{}, 0.1, 0.03, 36, 18)
	torus.DetectConvex()
	n := 150
	if testing.Short() {
		n = 40
	}
	for trial := range n {
		link := randomHull(r, 24, 0.006)
		s, err := NewSolver([]*Polytope{link.poly}, torus)
		if err != nil {
			t.Fatal(err)
		}
		// Near a random point of the tube's surface, in or out.
		u, v := 2*math.Pi*r.Float64(), 2*math.Pi*r.Float64()
		out := mgl64.Vec3{math.Cos(v) * math.Cos(u), math.Sin(v), -math.Cos(v) * math.Sin(u)}
		at := mgl64.Vec3{0.1 * math.Cos(u), 0, -0.1 * math.Sin(u)}.Add(out.Mul(0.03 + (r.Float64()*0.05 - 0.035)))
		x := randTransform(r, 0)
		x.T = at
		want, touch := refMeshDepth(link, x, torus)
		got := solveAll(s, torus, x)
		if (len(got) == 1) != touch {
			t.Fatalf("trial %d: %d contacts, reference touches %v", trial, len(got), touch)
		}
		if !touch {
			continue
		}
		c := got[0]
		if math.Abs(c.Depth-want) > 1e-9 {
			t.Fatalf("trial %d: depth %v, reference %v", trial, c.Depth, want)
		}
		if n := bruteTris(link.poly, x, torus); c.Tris != n {
			t.Fatalf("trial %d: %d triangles touched, brute force %d", trial, c.Tris, n)
		}
		onSurface(t, "contact", torus, c.Point)
		if math.Abs(c.Normal.Len()-1) > 1e-9 {
			t.Fatalf("trial %d: normal %v is not unit", trial, c.Normal)
		}
	}
}

func TestPlateOnTorusDepthIsTheDeepestObjectVertex(t *testing.T) {
	// A plate pressed onto the top of the tube: none of its corners is in
	// the torus, so the depth is the deepest torus vertex in the plate.
	r := rand.New(rand.NewPCG(3, 4))
	torus := env.Torus("torus", mgl64.Vec3{}, 0.1, 0.03, 96, 48)
	torus.DetectConvex()
	plate := boxHull(mgl64.Vec3{0.05, 0.005, 0.05})
	s, err := NewSolver([]*Polytope{plate.poly}, torus)
	if err != nil {
		t.Fatal(err)
	}
	for trial := range 20 {
		u := 2 * math.Pi * r.Float64()
		tilt, _ := geom.FromQuat(mgl64.QuatRotate(0.05*r.NormFloat64(), mgl64.Vec3{math.Cos(u), 0, math.Sin(u)}), mgl64.Vec3{})
		x := tilt
		x.T = mgl64.Vec3{0.1 * math.Cos(u), 0.03 + 0.005 - 0.005*r.Float64(), -0.1 * math.Sin(u)}
		want, touch := refMeshDepth(plate, x, torus)
		got := solveAll(s, torus, x)
		if !touch || len(got) != 1 {
			t.Fatalf("trial %d: %d contacts, reference touches %v", trial, len(got), touch)
		}
		c := got[0]
		if math.Abs(c.Depth-want) > 1e-9 || want < 1e-4 {
			t.Fatalf("trial %d: depth %v, reference %v", trial, c.Depth, want)
		}
		onSurface(t, "contact", torus, c.Point)
		if c.Normal.Dot(mgl64.Vec3{0, 1, 0}) < 0.99 {
			t.Fatalf("trial %d: normal %v does not push the plate up", trial, c.Normal)
		}
	}
}

func TestDepthIsContinuousAlongAnApproach(t *testing.T) {
	// A link slides around the torus's outer equator while sinking in and
	// turning: its depth may not jump by more than it moved.
	r := rand.New(rand.NewPCG(5, 6))
	torus := env.Torus("torus", mgl64.Vec3{}, 0.1, 0.03, 48, 24)
	torus.DetectConvex()
	link := randomHull(r, 30, 0.008)
	s, err := NewSolver([]*Polytope{link.poly}, torus)
	if err != nil {
		t.Fatal(err)
	}
	pose := func(k int) geom.Transform {
		f := float64(k) / 400
		u := 1.5 * f
		rot := mgl64.QuatRotate(2*f, mgl64.Vec3{0.3, 1, 0.2}.Normalize())
		x, _ := geom.FromQuat(rot, mgl64.Vec3{(0.145 - 0.03*f) * math.Cos(u), 0.004 * math.Sin(9*f), -(0.145 - 0.03*f) * math.Sin(u)})
		return x
	}
	last, prev := -1.0, pose(0)
	touched := 0
	for k := range 401 {
		x := pose(k)
		moved := 0.0
		for _, v := range link.verts {
			moved = math.Max(moved, x.Apply(v).Sub(prev.Apply(v)).Len())
		}
		depth := -1.0
		if c := solveAll(s, torus, x); len(c) == 1 {
			depth = c[0].Depth
			onSurface(t, "contact", torus, c[0].Point)
			touched++
		}
		if last >= 0 && depth >= 0 && math.Abs(depth-last) > moved+1e-4 {
			t.Fatalf("frame %d: depth went from %v to %v, moving %v", k, last, depth, moved)
		}
		if last >= 0 && depth < 0 && last > moved+1e-4 {
			t.Fatalf("frame %d: contact of depth %v ended, moving %v", k, last, moved)
		}
		last, prev = depth, x
	}
	if touched < 200 {
		t.Fatalf("only %d of 401 frames touch: the path misses the torus", touched)
	}
}

func TestOpenSurfaceDepthIsBehindItLocally(t *testing.T) {
	// A table top: one quad at y = 0, 1 m square, facing up; a 2 cm cube
	// finger pokes through it.
	top := &env.Mesh{Objects: []string{"top"}, Verts: []mgl64.Vec3{{-0.5, 0, -0.5}, {-0.5, 0, 0.5}, {0.5, 0, 0.5}, {0.5, 0, -0.5}},
		Tris: [][3]int32{{0, 1, 2}, {0, 2, 3}}, Object: []int32{0, 0}}
	top.DetectConvex()
	cube := boxHull(mgl64.Vec3{0.01, 0.01, 0.01})
	s, err := NewSolver([]*Polytope{cube.poly}, top)
	if err != nil {
		t.Fatal(err)
	}
	s.Proximity = 0.01
	at := func(p mgl64.Vec3) geom.Transform { return geom.Transform{R: mgl64.Ident3(), T: p} }
	cases := []struct {
		name  string
		x     geom.Transform
		depth float64 // -1: no contact
	}{
		{"resting on it", at(mgl64.Vec3{0.1, 0.01, 0.2}), 0},
		{"3 mm in", at(mgl64.Vec3{0.1, 0.007, 0.2}), 0.003},
		{"half through", at(mgl64.Vec3{0.1, 0, 0.2}), 0.01},
		// Across the table's edge, the corners beyond it are beside the
		// table, not behind it: only those under it count.
		{"over the edge, 4 mm in", at(mgl64.Vec3{0.5, 0.006, 0}), 0.004},
		{"through and out below", at(mgl64.Vec3{0.1, -0.0105, 0.2}), -1},
	}
	for _, c := range cases {
		s.Solve([]geom.Transform{c.x}, []SolidPair{{0, 0}})
		if c.depth < 0 {
			if len(s.Contacts) != 0 {
				t.Errorf("%s: contacts %+v, want none", c.name, s.Contacts)
			}
			continue
		}
		if len(s.Contacts) != 1 || math.Abs(s.Contacts[0].Depth-c.depth) > 1e-12 {
			t.Errorf("%s: contacts %+v, want depth %v", c.name, s.Contacts, c.depth)
			continue
		}
		got := s.Contacts[0]
		if got.Point[1] != 0 || got.Normal.Sub(mgl64.Vec3{0, 1, 0}).Len() > 1e-12 {
			t.Errorf("%s: point %v normal %v, want on the top, pushing up", c.name, got.Point, got.Normal)
		}
	}
}
