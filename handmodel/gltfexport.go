package handmodel

import (
	"fmt"
	"io"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"

	"github.com/gloved/gloved/geom"
)

// WriteGLB writes the hand posed as poses as binary glTF 2.0, for any
// viewer: a node per link, named by the link, carrying its pose
// (translation and rotation) and its hull in the link's frame; and, for a
// skinned hand (skin and posed not nil), the posed skin as one mesh
// named "skin" in the hand's frame, beside the links. Units are metres,
// as glTF's are.
func (h *Hand) WriteGLB(w io.Writer, poses []geom.Transform, skin *Skin, posed *SkinPose) error {
	if len(poses) != len(h.links) {
		return fmt.Errorf("handmodel: glTF: %d poses for %d links", len(poses), len(h.links))
	}
	if skin != nil && (posed == nil || len(posed.Verts) != len(skin.Verts)) {
		return fmt.Errorf("handmodel: glTF: the skin is not posed")
	}
	doc := gltf.NewDocument()
	doc.Asset.Generator = "gloved"
	scene := doc.Scenes[0]
	scene.Name = "hand"
	for l := range h.links {
		g := &h.geom[l]
		mesh := addMesh(doc, Link(l).String(), g.Verts, g.Tris)
		x := poses[l]
		if !geom.Finite3(x.T) {
			return fmt.Errorf("handmodel: glTF: link %s is not posed", Link(l))
		}
		q := mgl64.Mat4ToQuat(x.R.Mat4()).Normalize()
		doc.Nodes = append(doc.Nodes, &gltf.Node{
			Name:        Link(l).String(),
			Mesh:        gltf.Index(mesh),
			Translation: [3]float64{x.T[0], x.T[1], x.T[2]},
			Rotation:    [4]float64{q.V[0], q.V[1], q.V[2], q.W},
		})
		scene.Nodes = append(scene.Nodes, len(doc.Nodes)-1)
	}
	if skin != nil {
		mesh := addMesh(doc, "skin", posed.Verts, skin.Tris)
		doc.Nodes = append(doc.Nodes, &gltf.Node{Name: "skin", Mesh: gltf.Index(mesh)})
		scene.Nodes = append(scene.Nodes, len(doc.Nodes)-1)
	}
	enc := gltf.NewEncoder(w)
	enc.AsBinary = true
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("handmodel: glTF: %w", err)
	}
	return nil
}

// addMesh adds a triangle mesh to doc and returns its index.
func addMesh[V ~[3]float64](doc *gltf.Document, name string, verts []V, tris [][3]int32) int {
	pos := make([][3]float32, len(verts))
	for i, v := range verts {
		pos[i] = [3]float32{float32(v[0]), float32(v[1]), float32(v[2])}
	}
	idx := make([]uint32, 0, 3*len(tris))
	for _, t := range tris {
		idx = append(idx, uint32(t[0]), uint32(t[1]), uint32(t[2]))
	}
	doc.Meshes = append(doc.Meshes, &gltf.Mesh{
		Name: name,
		Primitives: []*gltf.Primitive{{
			Indices:    gltf.Index(modeler.WriteIndices(doc, idx)),
			Attributes: gltf.PrimitiveAttributes{gltf.POSITION: modeler.WritePosition(doc, pos)},
		}},
	})
	return len(doc.Meshes) - 1
}
