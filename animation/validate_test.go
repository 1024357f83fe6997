package animation_test

import (
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"github.com/qmuntal/gltf"

	"github.com/gloved/gloved/animation"
)

// put writes value into component c of element k of accessor a, as
// float32, or as uint32 for an index accessor.
func put(doc *gltf.Document, a, k, c int, value float64) {
	acc := doc.Accessors[a]
	v := doc.BufferViews[*acc.BufferView]
	size := acc.ComponentType.ByteSize()
	stride := max(v.ByteStride, size*acc.Type.Components())
	b := doc.Buffers[v.Buffer].Data[v.ByteOffset+acc.ByteOffset+k*stride+c*size:]
	if acc.ComponentType == gltf.ComponentUint {
		binary.LittleEndian.PutUint32(b, uint32(value))
		return
	}
	binary.LittleEndian.PutUint32(b, math.Float32bits(float32(value)))
}

// get reads component c of element k of float accessor a.
func get(doc *gltf.Document, a, k, c int) float64 {
	acc := doc.Accessors[a]
	v := doc.BufferViews[*acc.BufferView]
	b := doc.Buffers[v.Buffer].Data[v.ByteOffset+acc.ByteOffset+(k*acc.Type.Components()+c)*4:]
	return float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))
}

// channelOf returns the first channel of doc's animation with path.
func channelOf(doc *gltf.Document, path gltf.TRSProperty) *gltf.AnimationChannel {
	for _, c := range doc.Animations[0].Channels {
		if c.Target.Path == path {
			return c
		}
	}
	panic("no channel for " + path.String())
}

// TestValidateFindsWhatTheSpecForbids: a skinned session's file passes
// Validate; each breach of a rule of the specification, made in a copy of
// it, is found and named.
func TestValidateFindsWhatTheSpecForbids(t *testing.T) {
	r := record(t, 90, webxrHand("right.glb"))
	_, path := export(t, r.rec)
	load := func() *gltf.Document {
		doc, err := animation.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		return doc
	}
	if err := animation.Validate(load()); err != nil {
		t.Fatalf("the export: %v", err)
	}
	pos := func(d *gltf.Document) int { return d.Meshes[0].Primitives[0].Attributes[gltf.POSITION] }
	input := func(d *gltf.Document) int { return d.Animations[0].Samplers[0].Input }
	skinMesh := func(d *gltf.Document) *gltf.Primitive {
		return d.Meshes[*d.Nodes[animation.FindNode(d, animation.SkinName)].Mesh].Primitives[0]
	}
	wrist := func(d *gltf.Document) int { return animation.FindNode(d, "wrist") }
	tests := []struct {
		breach string
		says   string
		edit   func(d *gltf.Document)
	}{
		{"a node names a mesh that is not there", "does not exist", func(d *gltf.Document) { d.Nodes[0].Mesh = gltf.Index(len(d.Meshes)) }},
		{"a buffer view runs past its buffer", "run past buffer", func(d *gltf.Document) { d.BufferViews[0].ByteLength = d.Buffers[0].ByteLength + 4 }},
		{"an accessor runs past its view", "run to byte", func(d *gltf.Document) { d.Accessors[pos(d)].Count++ }},
		{"an accessor is misaligned", "not a multiple", func(d *gltf.Document) { d.Accessors[pos(d)].ByteOffset = 2 }},
		{"POSITION's max is not the data's", "but the data's are", func(d *gltf.Document) { d.Accessors[pos(d)].Max[0] += 1e-3 }},
		{"POSITION has no bounds", "POSITION accessor", func(d *gltf.Document) { d.Accessors[pos(d)].Min = nil }},
		{"an animation input has no bounds", "input accessor", func(d *gltf.Document) { d.Accessors[input(d)].Max = nil }},
		{"an animation input repeats a time", "strictly increasing", func(d *gltf.Document) { put(d, input(d), 5, 0, get(d, input(d), 4, 0)) }},
		{"a sampler's output is short of its input", "outputs for", func(d *gltf.Document) { d.Accessors[d.Animations[0].Samplers[0].Output].Count-- }},
		{"a sampler's view has a stride", "has a stride", func(d *gltf.Document) { d.BufferViews[*d.Accessors[input(d)].BufferView].ByteStride = 4 }},
		{"a channel targets no node", "target node does not exist", func(d *gltf.Document) {
			d.Animations[0].Channels[0].Target.Node = gltf.Index(len(d.Nodes))
		}},
		{"two channels share a target", "the same target", func(d *gltf.Document) {
			c := *d.Animations[0].Channels[0]
			d.Animations[0].Channels = append(d.Animations[0].Channels, &c)
		}},
		{"a rotation channel's output is VEC3", "rotation output is not VEC4", func(d *gltf.Document) {
			channelOf(d, gltf.TRSRotation).Sampler = channelOf(d, gltf.TRSTranslation).Sampler
		}},
		{"a rotation key is not a unit quaternion", "has length", func(d *gltf.Document) {
			c := channelOf(d, gltf.TRSRotation)
			put(d, d.Animations[0].Samplers[c.Sampler].Output, 3, 3, 2)
		}},
		{"a node's rotation is not a unit quaternion", "not a unit quaternion", func(d *gltf.Document) { d.Nodes[0].Rotation = [4]float64{0, 0, 0, 2} }},
		{"a skin names a joint that is not there", "listed twice", func(d *gltf.Document) { d.Skins[0].Joints[3] = len(d.Nodes) }},
		{"a skin's joints have no common root", "no common root", func(d *gltf.Document) {
			w := d.Nodes[wrist(d)]
			w.Children = w.Children[1:]
		}},
		{"inverse bind matrices are missing for a joint", "inverse bind matrices", func(d *gltf.Document) { d.Accessors[*d.Skins[0].InverseBindMatrices].Count-- }},
		{"a vertex's weights do not sum to 1", "weights sum to", func(d *gltf.Document) { put(d, skinMesh(d).Attributes[gltf.WEIGHTS_0], 7, 0, 0.5) }},
		{"a triangle names a vertex that is not there", "names vertex", func(d *gltf.Document) { put(d, *d.Meshes[0].Primitives[0].Indices, 4, 0, 1e6) }},
		{"a child has two parents", "already node", func(d *gltf.Document) {
			d.Nodes[0].Children = append(d.Nodes[0].Children, d.Nodes[wrist(d)].Children[0])
		}},
		{"the node graph has a cycle", "cycle", func(d *gltf.Document) {
			leaf := d.Nodes[wrist(d)].Children[0]
			d.Nodes[leaf].Children = append(d.Nodes[leaf].Children, wrist(d))
		}},
		{"a scene lists a node that is not a root", "is not a root", func(d *gltf.Document) {
			d.Scenes[0].Nodes = append(d.Scenes[0].Nodes, d.Nodes[wrist(d)].Children[0])
		}},
		{"the skinned mesh's node has a transform", "skinned mesh's node", func(d *gltf.Document) {
			d.Nodes[animation.FindNode(d, animation.SkinName)].Translation = [3]float64{0, 1, 0}
		}},
	}
	for _, tc := range tests {
		d := load()
		tc.edit(d)
		err := animation.Validate(d)
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: got %v, want an error saying %q", tc.breach, err, tc.says)
		}
	}
}
