package handmodel

import (
	"path/filepath"
	"testing"

	"github.com/gloved/gloved/geom"
)

// skinnedFist is the skinned right hand (the WebXR generic hand) and its
// links posed in a fist.
func skinnedFist(b *testing.B) (*Hand, *Angles, []geom.Transform) {
	h, err := New(Params{Right: true, Mesh: filepath.Join("testdata", "webxr-generic-hand", "right.glb")})
	if err != nil {
		b.Fatal(err)
	}
	q, err := NamedPose("fist")
	if err != nil {
		b.Fatal(err)
	}
	links := make([]geom.Transform, h.NumLinks())
	h.Pose(&q, geom.Identity(), links)
	return h, &q, links
}

// BenchmarkSkinPose: the skinned hand's joints and every vertex of its
// skin placed for a pose (linear blend skinning), as the view and the
// glTF export place it each frame.
func BenchmarkSkinPose(b *testing.B) {
	h, q, links := skinnedFist(b)
	var p SkinPose
	if err := h.Rig().Pose(q, links, &p); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		h.Rig().Pose(q, links, &p)
	}
}

// BenchmarkSkinPlace: every skin triangle's centroid placed as a blend of
// its corners (Skin.Place), as self-contact places its spheres' pivots
// each frame.
func BenchmarkSkinPlace(b *testing.B) {
	h, q, links := skinnedFist(b)
	s := h.Rig().Skin
	var p SkinPose
	if err := s.SetJoints(h.Rig().Joints(q, links), &p); err != nil {
		b.Fatal(err)
	}
	third := []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}
	blends := make([]Blend, len(s.Tris))
	for i, t := range s.Tris {
		blends[i] = s.Blend(t[:], third)
	}
	b.ReportAllocs()
	for b.Loop() {
		for i := range blends {
			s.Place(&p, &blends[i])
		}
	}
}
