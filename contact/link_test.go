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
// the box's size where the box lies inside the link; with a floor below
// the bound it runs to the bound, and with one above it stops between the
// two.
func TestDepthBoundIsAboveEveryPointsDepth(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	eachLinkTimes(t, 300, func(l int, lk *contact.Link) {
		b := randomBoxNear(r, lk, 0.3, true)
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
			if d > bound {
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
		floor := bound + r.Float64()*lk.Diam
		if got := lk.DepthBound(&b, floor); got > floor || got < bound {
			t.Fatalf("link %d: with a floor %v above the bound %v it gave %v", l, floor, bound, got)
		}
	})
}

// TestDepthBoundHoldsForABoxMovedIntoTheLinksFrame: as the search for an
// object's vertices inside a link computes them, a box of the world moved
// into the link's frame, and each of its corners moved there on its own:
// no corner is deeper than the box's bound, to the last bit (without the
// bound's margin, one corner in 34 was, by up to 6e-16 m).
func TestDepthBoundHoldsForABoxMovedIntoTheLinksFrame(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	eachLinkTimes(t, 5000, func(l int, lk *contact.Link) {
		x, _ := geom.FromQuat(randomTurn(r), geom.Vec3{X: 0.3 + r.Float64(), Y: 0.8, Z: r.Float64()})
		inv := x.Inverse()
		b := randomBoxNear(r, lk, 0.2, false).Transformed(x) // flat: a patch of a surface
		moved := b.Transformed(inv)
		bound := lk.DepthBound(&moved, math.Inf(-1))
		var c [8]geom.Vec3
		b.Corners(&c)
		for _, w := range c {
			if d, _ := lk.DepthIn(inv.Apply(w), math.Inf(-1)); d > bound {
				t.Fatalf("link %d: a corner %v deep, its box's bound %v", l, d, bound)
			}
		}
	})
}

// eachLinkTimes calls fn n times for each of the default hand's links.
func eachLinkTimes(t *testing.T, n int, fn func(l int, lk *contact.Link)) {
	rig, _ := handRig(t, sinkScene(2), contact.Options{})
	for l := range rig.Scene.Links {
		for range n {
			fn(l, &rig.Scene.Links[l])
		}
	}
}

// randomTurn is a rotation about a random axis by a random angle.
func randomTurn(r *rand.Rand) mgl64.Quat {
	return mgl64.QuatRotate(r.Float64()*math.Pi, mgl64.Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Normalize())
}

// randomBoxNear is a randomly turned box about link lk's box, in its frame,
// its centre spread by that part of the link's diameter and its size up to
// 0.3 of it; solid or flat (no thickness).
func randomBoxNear(r *rand.Rand, lk *contact.Link, spread float64, solid bool) geom.OBB {
	size := lk.Diam * r.Float64() * 0.3
	b := geom.OBB{
		Center: lk.Box.Center.Add(geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Mul(lk.Diam * spread)),
		Axes:   randomTurn(r).Mat4().Mat3(),
		Half:   geom.Vec3{X: size * r.Float64(), Y: size * r.Float64()},
	}
	if solid {
		b.Half.Z = size * r.Float64()
	}
	return b
}
