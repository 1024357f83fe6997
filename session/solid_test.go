package session

import (
	"math"
	"testing"
	"time"

	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/sim"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/env/envtest"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/narrow"
)

// TestGraspOnATorusIsPhysical: the simulated grasp closes the hand on a
// closed non-convex object (a torus where the demo's ball is). Every
// contact's point is on the surface, every frame's contacts are the links
// that meet the torus, and no link's depth jumps by more than the link
// moved since the last frame (plus 0.1 mm).
func TestGraspOnATorusIsPhysical(t *testing.T) {
	hand, cal := defaultHand(t)
	scene := env.Torus("torus", geom.Vec3{Y: 0.81, Z: 0.01}, 0.035, 0.03, 96, 48)
	p, err := NewPipeline(hand, cal, scene, PipelineOptions{Proximity: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	glove, _ := sim.New(sim.Grasp, 22, 10*time.Millisecond, true)
	var s devices.Sample
	body := p.Body()
	last := map[int]float64{}
	prev := make([]geom.Transform, len(body.Links))
	contacts := 0
	for f := range 200 {
		glove.Read(&s)
		if err := p.Frame(&s, env.GraspWrist()); err != nil {
			t.Fatal(err)
		}
		now := map[int]float64{}
		for _, c := range p.Contacts() {
			now[c.Link] = c.Depth
			contacts++
			if d := envtest.SurfaceDistance(scene, c.Point); d > 1e-6 {
				t.Fatalf("frame %d link %d: point %v is %v off the torus", f, c.Link, c.Point, d)
			}
			if math.Abs(c.Normal.Len()-1) > 1e-9 || !(c.Depth >= 0) {
				t.Fatalf("frame %d: bad contact %+v", f, c)
			}
		}
		for l, link := range body.Links {
			moved := 0.0
			for _, v := range link.Verts {
				moved = math.Max(moved, p.Poses()[l].Apply(v).Sub(prev[l].Apply(v)).Len())
			}
			d0, was := last[l]
			d1, is := now[l]
			if f > 0 && math.Abs(d1-d0) > moved+1e-4 && (was || is) {
				t.Fatalf("frame %d link %s: depth %v -> %v moving %v", f, link.Name, d0, d1, moved)
			}
			if f%20 == 0 && is != touchesMesh(link.Verts, link.Tris, p.Poses()[l], scene) {
				t.Fatalf("frame %d link %s: contact %v, brute force disagrees", f, link.Name, is)
			}
		}
		last = now
		copy(prev, p.Poses())
	}
	if contacts < 400 {
		t.Fatalf("%d contacts over the grasp: the workload tests little", contacts)
	}
}

// touchesMesh reports whether the link (a convex hull, placed by x) meets
// a triangle of closed mesh m or lies inside it (the winding number of
// its first vertex), by brute force.
func touchesMesh(verts []geom.Vec3, tris [][3]int32, x geom.Transform, m *env.Mesh) bool {
	link, _ := narrow.NewPolytope(verts, tris)
	a := narrow.Shape{P: link, X: x}
	for i := range m.Tris {
		t := m.Triangle(i)
		b := narrow.Shape{P: &narrow.Polytope{Verts: t[:]}, X: geom.Identity()}
		if narrow.Intersects(&a, &b) {
			return true
		}
	}
	return envtest.WindingNumber(m, x.Apply(verts[0])) > 0.5
}
