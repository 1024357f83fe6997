package mesh_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/env/envtest"
	"github.com/gloved/gloved/geom"
)

func TestNearBandMatchesBruteForceAlongAMotion(t *testing.T) {
	// A link wanders in and out of the band of a torus and of an open
	// quad, slowly enough that the frame coherence skips searches, with
	// jumps that must end the skipping.
	r := rand.New(rand.NewPCG(7, 8))
	torus := torusAndWall()
	link := randomHull(t, r, 20, 0.006)
	const band = 0.01
	s := rig(t, torus, band, link)
	pos := geom.Vec3{X: 0.16}
	rot := mgl64.QuatIdent()
	near, contacts := 0, 0
	for f := range 1500 {
		step := 0.0015
		if f%97 == 0 {
			step = 0.03 // a jump
		}
		pos = pos.Add(geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Normalize().Mul(step))
		pos = pos.Add(geom.Vec3{X: 0.16}.Sub(pos).Mul(0.02)) // stay around the tube and the wall
		rot = rot.Mul(mgl64.QuatRotate(0.05, mgl64.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize())).Normalize()
		x, _ := geom.FromQuat(rot, pos)
		res := s.Frame([]geom.Transform{x})
		for o, name := range torus.Objects {
			sub, _ := torus.Subset(func(i int) bool { return int(torus.Object[i]) == o })
			want, touch := bruteNear(link.poly, x, sub)
			got, gotTouch, gotNear := 0.0, false, false
			for _, c := range res.Contacts {
				gotTouch = gotTouch || c.Object == o
			}
			for _, n := range res.Near {
				if n.Object == o {
					got, gotNear = n.Distance, true
				}
			}
			wantInside := !touch && o == 0 && envtest.WindingNumber(sub, x.Apply(link.verts[0])) > 0.5
			switch {
			case gotTouch != (touch || wantInside):
				t.Fatalf("frame %d %s: contact %v, brute force touches %v inside %v", f, name, gotTouch, touch, wantInside)
			case touch || wantInside:
				contacts++
			case gotNear != (want <= band):
				t.Fatalf("frame %d %s: near %v (%v), brute force distance %v", f, name, gotNear, got, want)
			case gotNear && math.Abs(got-want) > 1e-9:
				t.Fatalf("frame %d %s: near at %v, brute force %v", f, name, got, want)
			case gotNear:
				near++
			}
		}
	}
	if near < 100 || contacts < 50 {
		t.Fatalf("%d near and %d contacts: the motion tests little", near, contacts)
	}
}

func TestNonConvexSolveAllocatesNothing(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	torus := env.Torus("torus", geom.Vec3{}, 0.1, 0.03, 40, 20)
	torus.DetectConvex()
	link := randomHull(t, r, 20, 0.006)
	s := rig(t, torus, 0.03, link, link)
	// Link 0 sinks into the tube, link 1 hovers over it; each frame
	// moves them, so that nothing is skipped.
	k := 0
	poses := make([]geom.Transform, 2) // the caller's, as the pipeline's are
	frame := func() {
		k++
		poses[0] = geom.Transform{R: mgl64.Ident3(), T: geom.Vec3{X: 0.13 - 0.002*float64(k%3)}}
		poses[1] = geom.Transform{R: mgl64.Ident3(), T: geom.Vec3{X: 0.1, Y: 0.06 + 0.001*float64(k%3)}}
		s.Frame(poses)
	}
	frame()
	if res := s.Scene.Results; len(res.Contacts) != 1 || len(res.Near) != 1 {
		t.Fatalf("contacts %+v near %+v: want one of each", res.Contacts, res.Near)
	}
	if n := testing.AllocsPerRun(50, frame); n != 0 {
		t.Errorf("%v allocations per frame", n)
	}
}
