package narrow

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
)

// winding is the generalized winding number of closed mesh m at p (the
// summed solid angles of its triangles over 4π): 1 inside, 0 outside. It
// shares nothing with the pseudonormal test the solver uses.
func winding(m *env.Mesh, p mgl64.Vec3) float64 {
	w := 0.0
	for i := range m.Tris {
		t := m.Triangle(i)
		a, b, c := t[0].Sub(p), t[1].Sub(p), t[2].Sub(p)
		la, lb, lc := a.Len(), b.Len(), c.Len()
		w += 2 * math.Atan2(a.Dot(b.Cross(c)), la*lb*lc+a.Dot(b)*lc+b.Dot(c)*la+c.Dot(a)*lb)
	}
	return w / (4 * math.Pi)
}

// surfaceDist is the distance from p to the nearest triangle of m.
func surfaceDist(m *env.Mesh, p mgl64.Vec3) float64 {
	best := math.Inf(1)
	for i := range m.Tris {
		q, _ := geom.ClosestOnTriangle(m.Triangle(i), p)
		best = math.Min(best, q.Sub(p).Len())
	}
	return best
}

// refMeshDepth is the reference for a closed object: the larger of
// the deepest link vertex inside the object (winding number) by its
// distance to the surface, and the deepest object vertex inside the link
// by its distance to the link's surface (its faces' planes); and whether
// the link and the object meet at all (a triangle meets the link, or the
// link is inside).
func refMeshDepth(link hullShape, x geom.Transform, m *env.Mesh) (depth float64, touch bool) {
	for _, v := range worldVerts(link, x) {
		if winding(m, v) > 0.5 {
			depth, touch = math.Max(depth, surfaceDist(m, v)), true
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

// solveAll runs a solver of one link against scene with every triangle
// and the object as candidates, as a traversal that misses nothing would.
func solveAll(s *Solver, m *env.Mesh, x geom.Transform) []Contact {
	var pairs []Pair
	for i := range m.Tris {
		pairs = append(pairs, Pair{Link: 0, Tri: int32(i)})
	}
	s.Solve([]geom.Transform{x}, pairs, []SolidPair{{Link: 0, Object: 0}})
	return s.Contacts
}

// onSurface asserts that p is on m's surface.
func onSurface(t *testing.T, what string, m *env.Mesh, p mgl64.Vec3) {
	t.Helper()
	if d := surfaceDist(m, p); d > 1e-6 {
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
