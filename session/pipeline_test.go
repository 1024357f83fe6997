package session

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/gloved/gloved/contact"
	"github.com/gloved/gloved/contact/contacttest"
	"github.com/gloved/gloved/devices"
	"github.com/gloved/gloved/devices/sim"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
)

func graspPipeline(t testing.TB, level int) *Pipeline {
	t.Helper()
	return graspPipelineWith(t, level, PipelineOptions{Proximity: 0.01})
}

// defaultHand is the default hand with the 22-sensor glove's default
// calibration.
func defaultHand(t testing.TB) (*handmodel.Hand, *handmodel.Calibration) {
	t.Helper()
	hand, err := handmodel.New(handmodel.DefaultParams)
	if err != nil {
		t.Fatal(err)
	}
	cal, err := handmodel.DefaultCalibration(22)
	if err != nil {
		t.Fatal(err)
	}
	return hand, cal
}

func graspPipelineWith(t testing.TB, level int, o PipelineOptions) *Pipeline {
	t.Helper()
	hand, cal := defaultHand(t)
	p, err := NewPipeline(hand, cal, env.GraspScene(level), o)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

type frameOut struct {
	Contacts []contact.Contact
	Near     []contact.Near
}

func runGrasp(t testing.TB, p *Pipeline, frames int) []frameOut {
	t.Helper()
	out, err := runGraspOn(p, frames)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// runGraspOn runs the simulated grasp through p for frames frames and
// returns each frame's contacts and near links.
func runGraspOn(p *Pipeline, frames int) ([]frameOut, error) {
	glove, _ := sim.New(sim.Grasp, 22, 10*time.Millisecond, true)
	var s devices.Sample
	var out []frameOut
	for range frames {
		glove.Read(&s)
		if err := p.Frame(&s, env.GraspWrist()); err != nil {
			return out, err
		}
		out = append(out, frameOut{append([]contact.Contact(nil), p.scene.Contacts...), append([]contact.Near(nil), p.scene.Near...)})
	}
	return out, nil
}

func support(pts []geom.Vec3, d geom.Vec3) float64 {
	m := math.Inf(-1)
	for _, p := range pts {
		m = math.Max(m, p.Dot(d))
	}
	return m
}

// TestGraspContacts: the simulated grasp touches the ball, with finite,
// minimal depths and unit normals that push the link out, and nothing else
// in the scene; the run is deterministic.
func TestGraspContacts(t *testing.T) {
	p := graspPipeline(t, 4)
	frames := runGrasp(t, p, 300)
	r := rand.New(rand.NewPCG(71, 71))
	ballHull, _ := p.scene.Mesh.ObjectHull(1)
	touching, near := 0, 0
	for f, fr := range frames {
		for i, c := range fr.Contacts {
			if i > 0 && (c.Link < fr.Contacts[i-1].Link || (c.Link == fr.Contacts[i-1].Link && c.Object <= fr.Contacts[i-1].Object)) {
				t.Fatalf("frame %d: contacts out of order", f)
			}
			if p.scene.Mesh.Objects[c.Object] != "ball" {
				t.Fatalf("frame %d: the hand touched the %s", f, p.scene.Mesh.Objects[c.Object])
			}
			if !(c.Depth >= 0) || math.Abs(c.Normal.Len()-1) > 1e-9 || c.Tris < 0 || !c.Exact {
				t.Fatalf("frame %d: bad contact %+v", f, c)
			}
			touching++
		}
		for _, n := range fr.Near {
			if !(n.Distance >= 0 && n.Distance <= 0.01) {
				t.Fatalf("frame %d: near at %v outside the band", f, n.Distance)
			}
			near++
		}
	}
	if touching < 100 || near < 10 {
		t.Fatalf("%d contacts and %d near misses over the grasp: the workload tests little", touching, near)
	}
	// Check depths of the last frames independently: pushing the link by
	// depth along the normal just clears the ball, and no other direction
	// tried does it with less.
	p2 := graspPipeline(t, 4)
	glove, _ := sim.New(sim.Grasp, 22, 10*time.Millisecond, true)
	var s devices.Sample
	checked := 0
	for range 150 {
		glove.Read(&s)
		p2.Frame(&s, env.GraspWrist())
		for _, c := range p2.scene.Contacts {
			var lv []geom.Vec3
			for _, v := range p2.hier.Body.Links[c.Link].Verts {
				lv = append(lv, p2.poses[c.Link].Apply(v))
			}
			along := support(lv, c.Normal.Mul(-1)) + support(ballHull.Verts, c.Normal)
			if math.Abs(along-c.Depth) > 1e-9 {
				t.Fatalf("contact %+v: separating along its normal takes %v", c, along)
			}
			for range 200 {
				d := geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Normalize()
				if other := support(lv, d.Mul(-1)) + support(ballHull.Verts, d); other < c.Depth-1e-9 {
					t.Fatalf("contact %+v: direction %v separates with %v < depth", c, d, other)
				}
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no contact checked")
	}
	again := runGrasp(t, graspPipeline(t, 4), 300)
	if !reflect.DeepEqual(frames, again) {
		t.Fatal("two runs of the same session differ")
	}
}

// TestFrameAllocatesNothing: once its buffers have grown, a frame
// allocates nothing, with self-contact as the daemon runs it and without.
func TestFrameAllocatesNothing(t *testing.T) {
	for _, self := range []bool{true, false} {
		p := graspPipelineWith(t, 4, PipelineOptions{Proximity: 0.01, SelfContact: self})
		runGrasp(t, p, 150) // grow every buffer through the grasp
		glove, _ := sim.New(sim.Grasp, 22, 10*time.Millisecond, true)
		var s devices.Sample
		allocs := testing.AllocsPerRun(100, func() {
			glove.Read(&s)
			p.Frame(&s, env.GraspWrist())
		})
		if allocs != 0 {
			t.Fatalf("self-contact %v: %v allocations per frame", self, allocs)
		}
	}
}

func benchFrame(b *testing.B, caching, tris bool) {
	p := graspPipelineWith(b, 5, PipelineOptions{Proximity: 0.01, NoAccel: !caching, SkipTris: !tris})
	glove, _ := sim.New(sim.Grasp, 22, 10*time.Millisecond, true)
	var samples []devices.Sample
	for range 300 {
		var s devices.Sample
		glove.Read(&s)
		samples = append(samples, s)
	}
	for i := range samples { // warm up every buffer
		p.Frame(&samples[i], env.GraspWrist())
	}
	b.ReportAllocs()
	i, contacts := 0, 0
	for b.Loop() {
		p.Frame(&samples[i%len(samples)], env.GraspWrist())
		contacts += len(p.scene.Contacts)
		i++
	}
	b.ReportMetric(float64(contacts)/float64(i), "contacts/frame")
}

// BenchmarkFrameGrasp: the whole frame (calibration, pose, CAB refit,
// traversal, narrow phase) for the hand grasping the ball on the table.
func BenchmarkFrameGrasp(b *testing.B)        { benchFrame(b, true, true) }
func BenchmarkFrameGraspNoCache(b *testing.B) { benchFrame(b, false, true) }
func BenchmarkFrameGraspNoTris(b *testing.B)  { benchFrame(b, true, false) }

// TestCachingChangesNoAnswer: the per-pair warm start only saves work.
func TestCachingChangesNoAnswer(t *testing.T) {
	warm := graspPipeline(t, 4)
	cold := graspPipelineWith(t, 4, PipelineOptions{Proximity: 0.01, NoAccel: true})
	a, b := runGrasp(t, warm, 300), runGrasp(t, cold, 300)
	for f := range a {
		if len(a[f].Contacts) != len(b[f].Contacts) || len(a[f].Near) != len(b[f].Near) {
			t.Fatalf("frame %d: %d/%d contacts and %d/%d near with and without caching", f, len(a[f].Contacts), len(b[f].Contacts), len(a[f].Near), len(b[f].Near))
		}
		for i, c := range a[f].Contacts {
			d := b[f].Contacts[i]
			if c.Link != d.Link || c.Object != d.Object || c.Tris != d.Tris || math.Abs(c.Depth-d.Depth) > 1e-9 || c.Normal.Sub(d.Normal).Len() > 1e-6 {
				t.Fatalf("frame %d: %+v with caching, %+v without", f, c, d)
			}
		}
		for i, n := range a[f].Near {
			if math.Abs(n.Distance-b[f].Near[i].Distance) > 1e-9 {
				t.Fatalf("frame %d: near %+v vs %+v", f, n, b[f].Near[i])
			}
		}
	}
}

// TestAnObjectsContactMethodCanBeNamed: PipelineOptions.Methods gives an
// object a method by name, among them one a test package registered
// (contacttest's testbox, the object as its root box): the ball as a box
// touches every link the ball touches, and more in some frames.
func TestAnObjectsContactMethodCanBeNamed(t *testing.T) {
	boxed := graspPipelineWith(t, 4, PipelineOptions{Proximity: 0.01, Methods: map[string]string{"ball": contacttest.BoxMethod}})
	if got := boxed.Contact().Method; got[0] != "convex" || got[1] != contacttest.BoxMethod {
		t.Fatalf("methods %v, want the table convex and the ball %s", got, contacttest.BoxMethod)
	}
	ball, box := runGrasp(t, graspPipeline(t, 4), 300), runGrasp(t, boxed, 300)
	more := 0
	for f := range ball {
		links := map[int]bool{}
		for _, c := range box[f].Contacts {
			links[c.Link] = true
		}
		for _, c := range ball[f].Contacts {
			if c.Object == 1 && !links[c.Link] {
				t.Fatalf("frame %d: link %d touches the ball but not its box", f, c.Link)
			}
		}
		if len(box[f].Contacts) > len(ball[f].Contacts) {
			more++
		}
	}
	if more == 0 {
		t.Fatal("the box never touched more links than the ball: the method was not used")
	}
}

// TestWarmStartsChangeNoAnswerOnANonConvexObject: the grasp closing on a
// closed torus gives the same contacts and near misses with every warm
// start on (GJK caches, nearest-triangle hints, the clearance that passes
// pairs over) and off.
func TestWarmStartsChangeNoAnswerOnANonConvexObject(t *testing.T) {
	hand, cal := defaultHand(t)
	run := func(cold bool) []frameOut {
		scene := env.Torus("torus", geom.Vec3{Y: 0.81, Z: 0.01}, 0.035, 0.03, 64, 32)
		p, err := NewPipeline(hand, cal, scene, PipelineOptions{Proximity: 0.01, NoAccel: cold})
		if err != nil {
			t.Fatal(err)
		}
		return runGrasp(t, p, 300)
	}
	warm, cold := run(false), run(true)
	touching, near := 0, 0
	for f := range warm {
		a, b := warm[f], cold[f]
		if len(a.Contacts) != len(b.Contacts) || len(a.Near) != len(b.Near) {
			t.Fatalf("frame %d: %d/%d contacts and %d/%d near warm and cold", f, len(a.Contacts), len(b.Contacts), len(a.Near), len(b.Near))
		}
		for i, c := range a.Contacts {
			d := b.Contacts[i]
			if c.Link != d.Link || c.Tris != d.Tris || math.Abs(c.Depth-d.Depth) > 1e-9 || c.Point.Sub(d.Point).Len() > 1e-9 {
				t.Fatalf("frame %d: %+v warm, %+v cold", f, c, d)
			}
			touching++
		}
		for i, n := range a.Near {
			if n.Link != b.Near[i].Link || math.Abs(n.Distance-b.Near[i].Distance) > 1e-9 {
				t.Fatalf("frame %d: near %+v warm, %+v cold", f, n, b.Near[i])
			}
			near++
		}
	}
	if touching < 100 || near < 10 {
		t.Fatalf("%d contacts and %d near misses: the grasp tests little", touching, near)
	}
}
