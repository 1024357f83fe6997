package view

import "github.com/gloved/gloved/handmodel"

// Skin is a skinned hand's mesh as the page skins it from the links a
// frame carries: the bind-pose surface, each vertex's four bones and
// weights, and each bone as the link it rides on and its bind matrix
// (handmodel.LinkBone: a bone's move is its link's pose times Bind).
type Skin struct {
	Positions []float32 `json:"positions"` // x y z per vertex, bind pose
	Indices   []int32   `json:"indices"`   // three per triangle
	Bones     []int32   `json:"bones"`     // four per vertex
	Weights   []float32 `json:"weights"`   // four per vertex, summing to 1
	// BoneLinks is each bone's link (an index into Hand.Links) and
	// BoneBinds its bind matrix, 16 numbers a bone, column by column.
	BoneLinks []int32   `json:"bone_links"`
	BoneBinds []float32 `json:"bone_binds"`
	// VertexLinks is the link each vertex rides on most, whose colour it
	// takes (touching, near).
	VertexLinks []int32 `json:"vertex_links"`
}

// newSkin is rig's skin for the page, or nil without a rig.
func newSkin(rig *handmodel.SkinRig) *Skin {
	if rig == nil {
		return nil
	}
	sk := rig.Skin
	s := &Skin{
		Positions: make([]float32, 0, 3*len(sk.Verts)), Indices: make([]int32, 0, 3*len(sk.Tris)),
		Bones: make([]int32, 0, 4*len(sk.Verts)), Weights: make([]float32, 0, 4*len(sk.Verts)), VertexLinks: make([]int32, len(sk.Verts)),
	}
	for v, p := range sk.Verts {
		s.Positions = append(s.Positions, float32(p.X), float32(p.Y), float32(p.Z))
		for k := range 4 {
			s.Bones = append(s.Bones, sk.Influence[v][k])
			s.Weights = append(s.Weights, float32(sk.Weight[v][k]))
		}
		s.VertexLinks[v] = int32(rig.VertexLink(int32(v)))
	}
	for _, t := range sk.Tris {
		s.Indices = append(s.Indices, t[0], t[1], t[2])
	}
	for _, b := range rig.LinkBones() {
		s.BoneLinks = append(s.BoneLinks, int32(b.Link))
		for _, x := range b.Bind {
			s.BoneBinds = append(s.BoneBinds, float32(x))
		}
	}
	return s
}
