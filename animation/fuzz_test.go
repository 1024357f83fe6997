package animation_test

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"
	"testing/fstest"

	"github.com/qmuntal/gltf"

	"github.com/gloved/gloved/animation"
	"github.com/gloved/gloved/geom"
)

// glbFits reports whether b's GLB chunks, if it is a GLB, lie within it:
// the decoder allocates a chunk by its declared length before reading it.
func glbFits(b []byte) bool {
	if len(b) < 4 || string(b[:4]) != "glTF" {
		return true
	}
	for rest := b[min(12, len(b)):]; len(rest) > 0; {
		if len(rest) < 8 {
			return false
		}
		n := uint64(binary.LittleEndian.Uint32(rest))
		if n > uint64(len(rest)-8) {
			return false
		}
		rest = rest[8+n:]
	}
	return true
}

// FuzzValidate: whatever a file holds, Validate and ReadClip return an
// error or a clip, never panic, and a clip read from a valid document
// samples every node finite at any time.
func FuzzValidate(f *testing.F) {
	turn := [][4]float32{{0, 0, 0, 1}, {0, 0, 0.7071068, 0.7071068}, {0, 0, 1, 0}}
	for _, binary := range []bool{true, false} {
		f.Add(docOf(f, binary, [4]float64{0, 0, 0, 1},
			channel{gltf.TRSTranslation, gltf.InterpolationLinear, []float32{0, 0.5, 1}, [][3]float32{{0, 0, 0}, {1, 2, 3}, {0, 1, 0}}},
			channel{gltf.TRSRotation, gltf.InterpolationLinear, []float32{0, 0.5, 1}, turn},
			channel{gltf.TRSScale, gltf.InterpolationStep, []float32{0, 0.5}, [][3]float32{{1, 1, 1}, {0, 0, 0}}}))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !glbFits(b) {
			return
		}
		doc := new(gltf.Document)
		if err := gltf.NewDecoderFS(bytes.NewReader(b), fstest.MapFS{}).Decode(doc); err != nil {
			return
		}
		if animation.Validate(doc) != nil {
			return
		}
		for a := range doc.Animations {
			clip, err := animation.ReadClip(doc, a)
			if err != nil {
				continue
			}
			for n := range doc.Nodes {
				for _, at := range []float64{-1, 0, 0.25, 0.5, 1e9} {
					x := clip.Sample(n, at)
					if !geom.Finite3(x.Translation) || !geom.Finite3(x.Scale) || math.IsNaN(x.Rotation.W) {
						t.Fatalf("node %d at %v s: %v", n, at, x)
					}
				}
			}
		}
	})
}
