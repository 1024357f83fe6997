package mesh_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
)

func TestClosedNonConvexDepthIsTheDeepestVertex(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	torus := env.Torus("torus", geom.Vec3{}, 0.1, 0.03, 36, 18)
	torus.DetectConvex()
	n := 150
	if testing.Short() {
		n = 40
	}
	for trial := range n {
		link := randomHull(t, r, 24, 0.006)
		s := rig(t, torus, 0, link)
		// Near a random point of the tube's surface, in or out.
		u, v := 2*math.Pi*r.Float64(), 2*math.Pi*r.Float64()
		out := geom.Vec3{X: math.Cos(v) * math.Cos(u), Y: math.Sin(v), Z: -math.Cos(v) * math.Sin(u)}
		at := geom.Vec3{X: 0.1 * math.Cos(u), Z: -0.1 * math.Sin(u)}.Add(out.Mul(0.03 + (r.Float64()*0.05 - 0.035)))
		x := randRotation(r)
		x.T = at
		want, touch := refMeshDepth(link, x, torus)
		got := s.Frame([]geom.Transform{x}).Contacts
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
	torus := env.Torus("torus", geom.Vec3{}, 0.1, 0.03, 96, 48)
	torus.DetectConvex()
	plate := boxHull(t, geom.Vec3{X: 0.05, Y: 0.005, Z: 0.05})
	s := rig(t, torus, 0, plate)
	for trial := range 20 {
		u := 2 * math.Pi * r.Float64()
		tilt, _ := geom.FromQuat(mgl64.QuatRotate(0.05*r.NormFloat64(), mgl64.Vec3{math.Cos(u), 0, math.Sin(u)}), geom.Vec3{})
		x := tilt
		x.T = geom.Vec3{X: 0.1 * math.Cos(u), Y: 0.03 + 0.005 - 0.005*r.Float64(), Z: -0.1 * math.Sin(u)}
		want, touch := refMeshDepth(plate, x, torus)
		got := s.Frame([]geom.Transform{x}).Contacts
		if !touch || len(got) != 1 {
			t.Fatalf("trial %d: %d contacts, reference touches %v", trial, len(got), touch)
		}
		c := got[0]
		if math.Abs(c.Depth-want) > 1e-9 || want < 1e-4 {
			t.Fatalf("trial %d: depth %v, reference %v", trial, c.Depth, want)
		}
		onSurface(t, "contact", torus, c.Point)
		if c.Normal.Dot(geom.Vec3{Y: 1}) < 0.99 {
			t.Fatalf("trial %d: normal %v does not push the plate up", trial, c.Normal)
		}
	}
}

func TestDepthIsContinuousAlongAnApproach(t *testing.T) {
	// A link slides around the torus's outer equator while sinking in and
	// turning: its depth may not jump by more than it moved.
	r := rand.New(rand.NewPCG(5, 6))
	torus := env.Torus("torus", geom.Vec3{}, 0.1, 0.03, 48, 24)
	torus.DetectConvex()
	link := randomHull(t, r, 30, 0.008)
	s := rig(t, torus, 0, link)
	pose := func(k int) geom.Transform {
		f := float64(k) / 400
		u := 1.5 * f
		rot := mgl64.QuatRotate(2*f, mgl64.Vec3{0.3, 1, 0.2}.Normalize())
		x, _ := geom.FromQuat(rot, geom.Vec3{X: (0.145 - 0.03*f) * math.Cos(u), Y: 0.004 * math.Sin(9*f), Z: -(0.145 - 0.03*f) * math.Sin(u)})
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
		if c := s.Frame([]geom.Transform{x}).Contacts; len(c) == 1 {
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
	top := &env.Mesh{Objects: []string{"top"}, Verts: []geom.Vec3{{X: -0.5, Z: -0.5}, {X: -0.5, Z: 0.5}, {X: 0.5, Z: 0.5}, {X: 0.5, Z: -0.5}},
		Tris: [][3]int32{{0, 1, 2}, {0, 2, 3}}, Object: []int32{0, 0}}
	top.DetectConvex()
	cube := boxHull(t, geom.Vec3{X: 0.01, Y: 0.01, Z: 0.01})
	s := rig(t, top, 0.01, cube)
	at := func(p geom.Vec3) geom.Transform { return geom.Transform{R: mgl64.Ident3(), T: p} }
	cases := []struct {
		name  string
		x     geom.Transform
		depth float64 // -1: no contact
	}{
		{"resting on it", at(geom.Vec3{X: 0.1, Y: 0.01, Z: 0.2}), 0},
		{"3 mm in", at(geom.Vec3{X: 0.1, Y: 0.007, Z: 0.2}), 0.003},
		{"half through", at(geom.Vec3{X: 0.1, Z: 0.2}), 0.01},
		// Across the table's edge, the corners beyond it are beside the
		// table, not behind it: only those under it count.
		{"over the edge, 4 mm in", at(geom.Vec3{X: 0.5, Y: 0.006}), 0.004},
		{"through and out below", at(geom.Vec3{X: 0.1, Y: -0.0105, Z: 0.2}), -1},
	}
	for _, c := range cases {
		res := s.Frame([]geom.Transform{c.x})
		if c.depth < 0 {
			if len(res.Contacts) != 0 {
				t.Errorf("%s: contacts %+v, want none", c.name, res.Contacts)
			}
			continue
		}
		if len(res.Contacts) != 1 || math.Abs(res.Contacts[0].Depth-c.depth) > 1e-12 {
			t.Errorf("%s: contacts %+v, want depth %v", c.name, res.Contacts, c.depth)
			continue
		}
		got := res.Contacts[0]
		if got.Point.Y != 0 || got.Normal.Sub(geom.Vec3{Y: 1}).Len() > 1e-12 {
			t.Errorf("%s: point %v normal %v, want on the top, pushing up", c.name, got.Point, got.Normal)
		}
	}
}
