package animation

import (
	"github.com/go-gl/mathgl/mgl64"
	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"

	"github.com/gloved/gloved/geom"
)

// track is one node's keys, one per frame, in the file's single
// precision: what its translation, rotation and (for markers) scale
// channels will hold.
type track struct {
	node   int // the node the channels target
	scaled bool
	t      [][3]float32
	r      [][4]float32
	s      [][3]float32 // scaled tracks only
	// rot keeps the rotation keys in one hemisphere: both signs are the
	// same rotation, but a viewer that blends quaternions component by
	// component (nlerp) would turn the long way round between keys of
	// opposite signs. Appendix C's slerp takes the short arc either way.
	rot geom.QuatTrack
}

// add appends a key: translation t, rotation q, and, if the track is
// scaled, scale s.
func (k *track) add(t mgl64.Vec3, q mgl64.Quat, s mgl64.Vec3) {
	k.t = append(k.t, vec32(t))
	k.r = append(k.r, quat32(k.rot.Next(q.Normalize())))
	if k.scaled {
		k.s = append(k.s, vec32(s))
	}
}

// rest sets the track's node's own transform to the first key: what a
// viewer shows without playing the animation, and what holds the value of
// a channel left out because it never changes.
func (k *track) rest(doc *gltf.Document) {
	n := doc.Nodes[k.node]
	n.Translation = f64(k.t[0])
	n.Rotation = [4]float64{float64(k.r[0][0]), float64(k.r[0][1]), float64(k.r[0][2]), float64(k.r[0][3])}
	if k.scaled {
		n.Scale = restScale(f64(k.s[0]))
	}
}

// moving reports whether any of the track's properties changes.
func (k *track) moving() bool {
	return !constant(k.t) || !constant(k.r) || k.scaled && !constant(k.s)
}

// channels adds a sampler and channel to anim for each property of the
// track that changes, keyed at the input accessor times with
// interpolation in, and releases the keys.
func (k *track) channels(doc *gltf.Document, anim *gltf.Animation, times int, in gltf.Interpolation) {
	if !constant(k.t) {
		addChannel(doc, anim, k.node, gltf.TRSTranslation, times, in, k.t)
	}
	if !constant(k.r) {
		addChannel(doc, anim, k.node, gltf.TRSRotation, times, in, k.r)
	}
	if k.scaled && !constant(k.s) {
		addChannel(doc, anim, k.node, gltf.TRSScale, times, in, k.s)
	}
	k.t, k.r, k.s = nil, nil, nil // written: let the collector have them
}

// hiddenScale stands for a rest scale of 0: the library writes a node's
// all-zero scale as no scale at all, which reads as 1.
const hiddenScale = 1e-6

// restScale is s as a node's rest scale.
func restScale(s [3]float64) [3]float64 {
	if s == ([3]float64{}) {
		return [3]float64{hiddenScale, hiddenScale, hiddenScale}
	}
	return s
}

// addChannel writes keys as a sampler's output and targets path of node
// with it.
func addChannel[T [3]float32 | [4]float32](doc *gltf.Document, anim *gltf.Animation, node int, path gltf.TRSProperty, times int, in gltf.Interpolation, keys []T) {
	out := writeData(doc, keys)
	anim.Samplers = append(anim.Samplers, &gltf.AnimationSampler{Input: times, Output: out, Interpolation: in})
	anim.Channels = append(anim.Channels, &gltf.AnimationChannel{
		Sampler: len(anim.Samplers) - 1,
		Target:  gltf.AnimationChannelTarget{Node: gltf.Index(node), Path: path},
	})
}

// writeData writes data as an accessor in a buffer view of its own with
// no target and no stride, as animation samplers and inverse bind
// matrices need (section 3.11; the reference validator's
// ANIMATION_SAMPLER_ACCESSOR_WITH_BYTESTRIDE), and returns its index.
func writeData(doc *gltf.Document, data any) int {
	return modeler.WriteAccessor(doc, gltf.TargetNone, data)
}

// constant reports whether every key equals the first.
func constant[T comparable](keys []T) bool {
	for _, k := range keys[1:] {
		if k != keys[0] {
			return false
		}
	}
	return true
}

// f64 widens a key.
func f64(v [3]float32) [3]float64 {
	return [3]float64{float64(v[0]), float64(v[1]), float64(v[2])}
}
