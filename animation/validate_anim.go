package animation

import (
	"math"

	"github.com/qmuntal/gltf"
)

// animations checks every animation (section 3.11).
func (c *checker) animations() {
	for a, anim := range c.doc.Animations {
		if len(anim.Channels) == 0 || len(anim.Samplers) == 0 {
			c.fail("animation %d has no channels or no samplers", a)
		}
		for s, smp := range anim.Samplers {
			c.sampler(a, s, smp)
		}
		type target struct {
			node int
			path gltf.TRSProperty
		}
		seen := map[target]int{}
		for ch, chn := range anim.Channels {
			t := chn.Target
			if t.Node == nil || *t.Node < 0 || *t.Node >= len(c.doc.Nodes) {
				c.fail("animation %d channel %d: its target node does not exist", a, ch)
				continue
			}
			if prev, ok := seen[target{*t.Node, t.Path}]; ok {
				c.fail("animation %d channel %d: the same target as channel %d", a, ch, prev)
			}
			seen[target{*t.Node, t.Path}] = ch
			c.channel(a, ch, chn, anim)
		}
	}
}

// sampler checks a sampler's input: scalar floats with min and max, from
// 0 and strictly increasing; and its output's count for its
// interpolation. Neither accessor's view may have a stride.
func (c *checker) sampler(a, s int, smp *gltf.AnimationSampler) {
	in, out := c.accessor(smp.Input, "sampler input"), c.accessor(smp.Output, "sampler output")
	if in == nil || out == nil {
		return
	}
	ia := c.doc.Accessors[smp.Input]
	if ia.Type != gltf.AccessorScalar || !in.float || ia.Min == nil || ia.Max == nil {
		c.fail("animation %d sampler %d: input accessor %d is not scalar floats with min and max", a, s, smp.Input)
		return
	}
	for _, i := range []int{smp.Input, smp.Output} {
		if c.doc.BufferViews[*c.doc.Accessors[i].BufferView].ByteStride != 0 {
			c.fail("animation %d sampler %d: accessor %d's buffer view has a stride", a, s, i)
		}
	}
	for k := range in.count {
		if t := in.raw(k, 0); t < 0 || k > 0 && t <= in.raw(k-1, 0) {
			c.fail("animation %d sampler %d: input %d is %v after %v: not from 0 and strictly increasing", a, s, k, t, in.raw(max(k-1, 0), 0))
			return
		}
	}
	want := in.count
	switch smp.Interpolation {
	case gltf.InterpolationLinear, gltf.InterpolationStep:
	case gltf.InterpolationCubicSpline:
		want = 3 * in.count
		if in.count < 2 {
			c.fail("animation %d sampler %d: CUBICSPLINE with %d keys, want 2 or more", a, s, in.count)
		}
	default:
		c.fail("animation %d sampler %d: interpolation %v", a, s, smp.Interpolation)
	}
	if out.count != want {
		c.fail("animation %d sampler %d: %d outputs for %d inputs (%v)", a, s, out.count, in.count, smp.Interpolation)
	}
}

// channel checks that a channel's sampler exists and its output suits the
// path: VEC3 floats for translation and scale, VEC4 floats or normalised
// integers for rotation, each a unit quaternion; and that the node it
// moves can be moved so.
func (c *checker) channel(a, ch int, chn *gltf.AnimationChannel, anim *gltf.Animation) {
	if chn.Sampler < 0 || chn.Sampler >= len(anim.Samplers) {
		c.fail("animation %d channel %d: sampler %d does not exist", a, ch, chn.Sampler)
		return
	}
	node := c.doc.Nodes[*chn.Target.Node]
	switch {
	case node.MatrixOrDefault() != gltf.DefaultMatrix:
		c.fail("animation %d channel %d: node %d has a matrix, which an animation cannot move", a, ch, *chn.Target.Node)
	case node.Skin != nil:
		c.fail("animation %d channel %d: node %d is a skinned mesh, which its transform does not move", a, ch, *chn.Target.Node)
	}
	oi := anim.Samplers[chn.Sampler].Output
	out := c.accessor(oi, "sampler output")
	if out == nil {
		return
	}
	typ := c.doc.Accessors[oi].Type
	switch chn.Target.Path {
	case gltf.TRSTranslation, gltf.TRSScale:
		if typ != gltf.AccessorVec3 || !out.float {
			c.fail("animation %d channel %d: %v output is not VEC3 floats", a, ch, chn.Target.Path)
		}
	case gltf.TRSRotation:
		if typ != gltf.AccessorVec4 || !out.float && !out.normalized {
			c.fail("animation %d channel %d: rotation output is not VEC4 floats or normalised integers", a, ch)
			return
		}
		cubic := anim.Samplers[chn.Sampler].Interpolation == gltf.InterpolationCubicSpline
		for k := range out.count {
			if cubic && k%3 != 1 {
				continue // a tangent
			}
			if l := quatLen(out, k); math.Abs(l-1) > unitTol {
				c.fail("animation %d channel %d: rotation key %d has length %v, not 1", a, ch, k, l)
				return
			}
		}
	default:
		c.fail("animation %d channel %d: path %v (morph weights) is not checked here", a, ch, chn.Target.Path)
	}
}

// quatLen is the length of the quaternion that is element k of e.
func quatLen(e *elements, k int) float64 {
	s := 0.0
	for j := range 4 {
		x := e.value(k, j)
		s += x * x
	}
	return math.Sqrt(s)
}
