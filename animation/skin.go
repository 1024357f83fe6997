package animation

import (
	"github.com/go-gl/mathgl/mgl64"
	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"

	"github.com/gloved/gloved/handmodel"
)

// SkinName names a skinned hand's skin and the node of its mesh.
const SkinName = "skin"

// addSkin adds a skinned hand as a glTF skin (section 3.7.3): its joints
// as a node hierarchy rooted at the wrist, their tracks targeting those
// nodes; the skin's mesh, in its bind pose, with each vertex's joints and
// weights; and the skin with the joints' inverse bind matrices. The mesh's
// node is a root with no transform of its own, as the specification has a
// skinned mesh placed by its joints alone.
func addSkin(doc *gltf.Document, rig *handmodel.SkinRig, joints []track) {
	skin := rig.Skin
	nodes := make([]int, len(skin.Joints))
	root := 0
	for j, name := range skin.Joints {
		nodes[j] = addNode(doc, &gltf.Node{Name: name}, rig.Parent(j) < 0)
		joints[j].node = nodes[j]
		if rig.Parent(j) < 0 {
			root = nodes[j]
		}
	}
	for j := range skin.Joints {
		if p := rig.Parent(j); p >= 0 {
			doc.Nodes[nodes[p]].Children = append(doc.Nodes[nodes[p]].Children, nodes[j])
		}
	}
	ibm := make([][4][4]float32, len(skin.InverseBind))
	for j, m := range skin.InverseBind {
		ibm[j] = mat32(m)
	}
	doc.Skins = append(doc.Skins, &gltf.Skin{
		Name:                SkinName,
		InverseBindMatrices: gltf.Index(writeData(doc, ibm)),
		Joints:              nodes,
		Skeleton:            gltf.Index(root),
	})
	mesh := addMesh(doc, SkinName, skin.Verts, skin.Tris, matSkin)
	attr := doc.Meshes[mesh].Primitives[0].Attributes
	attr[gltf.JOINTS_0] = modeler.WriteJoints(doc, influences(skin))
	attr[gltf.WEIGHTS_0] = modeler.WriteWeights(doc, weights(skin))
	addNode(doc, &gltf.Node{Name: SkinName, Mesh: gltf.Index(mesh), Skin: gltf.Index(len(doc.Skins) - 1)}, true)
}

// mat32 is m in the library's layout ([row][column]; it writes columns
// first, as glTF stores matrices), rounded to single precision.
func mat32(m mgl64.Mat4) [4][4]float32 {
	var out [4][4]float32
	for c := range 4 {
		for r := range 4 {
			out[r][c] = float32(m[4*c+r])
		}
	}
	return out
}

// influences is each vertex's joints, as JOINTS_0 holds them.
func influences(s *handmodel.Skin) [][4]uint16 {
	out := make([][4]uint16, len(s.Influence))
	for v, in := range s.Influence {
		for k, j := range in {
			out[v][k] = uint16(j)
		}
	}
	return out
}

// weights is each vertex's joint weights in single precision, the largest
// taking up the rounding so that they still sum to 1 as closely as single
// precision allows (the specification wants them normalised).
func weights(s *handmodel.Skin) [][4]float32 {
	out := make([][4]float32, len(s.Weight))
	for v, w := range s.Weight {
		sum, big := 0.0, 0
		for k := range w {
			out[v][k] = float32(w[k])
			sum += float64(out[v][k])
			if w[k] > w[big] {
				big = k
			}
		}
		out[v][big] = float32(float64(out[v][big]) + 1 - sum)
	}
	return out
}
