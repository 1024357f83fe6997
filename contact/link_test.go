package contact_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/contact"
	"github.com/gloved/gloved/geom"
)

// TestDepthBoundIsAboveEveryPointsDepth: no point of a box is deeper in a
// link than the link's bound for the box, and the bound is reached within
// the box's size where the box lies inside the link; a bound that stops at
// a floor stops at or below it.
func TestDepthBoundIsAboveEveryPointsDepth(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	rig, _ := handRig(t, sinkScene(2), contact.Options{})
	for l := range rig.Scene.Links {
		lk := &rig.Scene.Links[l]
		for range 300 {
			axis := mgl64.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize()
			q := mgl64.QuatRotate(r.Float64()*math.Pi, axis)
			size := lk.Diam * r.Float64() * 0.3
			b := geom.OBB{
				Center: lk.Box.Center.Add(geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Mul(lk.Diam * 0.3)),
				Axes:   q.Mat4().Mat3(),
				Half:   geom.Vec3{X: size * r.Float64(), Y: size * r.Float64(), Z: size * r.Float64()},
			}
			bound := lk.DepthBound(&b, math.Inf(-1))
			var c [8]geom.Vec3
			b.Corners(&c)
			deepest := math.Inf(-1)
			for range 50 {
				// A random point of the box: the corners' weights.
				var p geom.Vec3
				sum := 0.0
				for k := range c {
					w := r.Float64()
					p, sum = p.Add(c[k].Mul(w)), sum+w
				}
				p = p.Mul(1 / sum)
				d, _ := lk.DepthIn(p, math.Inf(-1))
				deepest = math.Max(deepest, d)
				if d > bound+1e-12 {
					t.Fatalf("link %d: a point of the box is %v deep, the bound %v", l, d, bound)
				}
			}
			for _, p := range c {
				d, _ := lk.DepthIn(p, math.Inf(-1))
				deepest = math.Max(deepest, d)
			}
			if deepest > 0 && bound > deepest+2*b.Half.Len()+1e-12 {
				t.Fatalf("link %d: the bound %v is more than the box's size above its deepest point %v", l, bound, deepest)
			}
			if floor := bound * r.Float64(); floor > 0 {
				if got := lk.DepthBound(&b, floor); got != bound {
					t.Fatalf("link %d: with a floor below the bound it gave %v, not %v", l, got, bound)
				}
			}
			if got := lk.DepthBound(&b, bound+1); got > bound+1 {
				t.Fatalf("link %d: with a floor above the bound it gave %v", l, got)
			}
		}
	}
}
