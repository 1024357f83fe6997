package mesh_test

import (
	"math"
	"testing"

	"github.com/gloved/gloved/contact"
	"github.com/gloved/gloved/contact/contacttest"
	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
	"github.com/gloved/gloved/handmodel/handtest"
)

// benchTorus times whole frames (traversal and exact answers, without
// triangle counts) of the grasp closing on the torus of `gloved bench
// scenes` with about tris triangles, the links within the band of it
// or sunk in.
func benchTorus(b *testing.B, tris int, o contact.Options) {
	nv := max(3, int(math.Round(math.Sqrt(float64(tris)/4))))
	scene := env.Torus("torus", geom.Vec3{Y: 0.81, Z: 0.01}, 0.035, 0.03, 2*nv, nv)
	hand, err := handmodel.New(handmodel.DefaultParams)
	if err != nil {
		b.Fatal(err)
	}
	o.Proximity = 0.01
	rig := contacttest.NewHandRig(b, hand, scene, o)
	frames := handtest.Grasp(b, hand, env.GraspWrist(), 330)[30:]
	for _, p := range frames {
		rig.Frame(p)
	}
	b.ReportAllocs()
	i, near, contacts := 0, 0, 0
	for b.Loop() {
		res := rig.Frame(frames[i%len(frames)])
		near, contacts = near+len(res.Near), contacts+len(res.Contacts)
		i++
	}
	b.ReportMetric(float64(near)/float64(i), "near/frame")
	b.ReportMetric(float64(contacts)/float64(i), "contacts/frame")
}

func BenchmarkTorus100k(b *testing.B)        { benchTorus(b, 100_000, contact.Options{}) }
func BenchmarkTorus100kNoAccel(b *testing.B) { benchTorus(b, 100_000, contact.Options{NoAccel: true}) }

// BenchmarkTorus100kOneWorker is BenchmarkTorus100k with its frames never
// shared among workers (contact.Options.Workers).
func BenchmarkTorus100kOneWorker(b *testing.B) { benchTorus(b, 100_000, contact.Options{Workers: 1}) }
