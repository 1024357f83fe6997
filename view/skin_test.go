package view

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/gloved/gloved/handmodel"
)

// TestASkinnedHandCarriesItsSkin: a hand built on the WebXR skin reaches
// the page with every vertex, triangle and joint of the skin, each
// vertex's bones and link in range and its weights summing to 1; a hand
// of hulls only carries none.
func TestASkinnedHandCarriesItsSkin(t *testing.T) {
	hand, err := handmodel.New(handmodel.Params{Right: true, Mesh: filepath.Join("..", "handmodel", "testdata", "webxr-generic-hand", "right.glb")})
	if err != nil {
		t.Fatal(err)
	}
	rig := hand.Rig()
	s := newSkin(rig)
	nv, nb, nl := len(rig.Skin.Verts), len(rig.Skin.Joints), int32(hand.NumLinks())
	if len(s.Positions) != 3*nv || len(s.Indices) != 3*len(rig.Skin.Tris) || len(s.Bones) != 4*nv || len(s.Weights) != 4*nv ||
		len(s.VertexLinks) != nv || len(s.BoneLinks) != nb || len(s.BoneBinds) != 16*nb {
		t.Fatalf("skin of %d positions, %d indices, %d bones, %d weights, %d vertex links, %d bone links, %d bind numbers for %d vertices, %d triangles, %d joints",
			len(s.Positions), len(s.Indices), len(s.Bones), len(s.Weights), len(s.VertexLinks), len(s.BoneLinks), len(s.BoneBinds), nv, len(rig.Skin.Tris), nb)
	}
	for v := range nv {
		sum := 0.0
		for k := range 4 {
			if b := s.Bones[4*v+k]; b < 0 || int(b) >= nb {
				t.Fatalf("vertex %d: bone %d of %d", v, b, nb)
			}
			sum += float64(s.Weights[4*v+k])
		}
		if math.Abs(sum-1) > 1e-6 {
			t.Fatalf("vertex %d: weights sum to %v", v, sum)
		}
		if l := s.VertexLinks[v]; l < 0 || l >= nl {
			t.Fatalf("vertex %d rides on link %d of %d", v, l, nl)
		}
	}
	for b, l := range s.BoneLinks {
		if l < 0 || l >= nl {
			t.Fatalf("bone %d rides on link %d of %d", b, l, nl)
		}
	}
	if newSkin(nil) != nil {
		t.Error("a hand without a rig has a skin")
	}
}
