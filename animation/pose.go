package animation

import (
	"fmt"
	"io"

	"github.com/qmuntal/gltf"

	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/handmodel"
)

// Generator is the asset.generator of every file gloved writes.
const Generator = "gloved"

// WritePose writes hand h posed as poses as binary glTF 2.0, for any
// viewer: a node per link, named by the link, carrying its pose
// (translation and rotation) and its hull in the link's frame; and, for a
// skinned hand (skin and posed not nil), the posed skin as one mesh named
// "skin" in the hand's frame, beside the links. Units are metres, as
// glTF's are.
func WritePose(w io.Writer, h *handmodel.Hand, poses []geom.Transform, skin *handmodel.Skin, posed *handmodel.SkinPose) error {
	if len(poses) != h.NumLinks() {
		return fmt.Errorf("animation: glTF: %d poses for %d links", len(poses), h.NumLinks())
	}
	if skin != nil && (posed == nil || len(posed.Verts) != len(skin.Verts)) {
		return fmt.Errorf("animation: glTF: the skin is not posed")
	}
	doc := newDocument("hand")
	scene := doc.Scenes[0]
	for l := range handmodel.Link(h.NumLinks()) {
		g := h.Geometry(l)
		mesh := addMesh(doc, l.String(), g.Verts, g.Tris, matLink)
		x := poses[l]
		if !x.T.Finite() {
			return fmt.Errorf("animation: glTF: link %s is not posed", l)
		}
		q := x.Quat()
		doc.Nodes = append(doc.Nodes, &gltf.Node{
			Name:        l.String(),
			Mesh:        gltf.Index(mesh),
			Translation: [3]float64{x.T.X, x.T.Y, x.T.Z},
			Rotation:    [4]float64{q.V[0], q.V[1], q.V[2], q.W},
		})
		scene.Nodes = append(scene.Nodes, len(doc.Nodes)-1)
	}
	if skin != nil {
		mesh := addMesh(doc, "skin", posed.Verts, skin.Tris, matSkin)
		doc.Nodes = append(doc.Nodes, &gltf.Node{Name: "skin", Mesh: gltf.Index(mesh)})
		scene.Nodes = append(scene.Nodes, len(doc.Nodes)-1)
	}
	return encode(w, doc, true)
}

// newDocument is an empty document with gloved as its generator and one
// scene named name.
func newDocument(name string) *gltf.Document {
	doc := gltf.NewDocument()
	doc.Asset.Generator = Generator
	doc.Scenes[0].Name = name
	return doc
}

// encode writes doc as GLB (binary) or as glTF JSON with its buffer
// embedded.
func encode(w io.Writer, doc *gltf.Document, binary bool) error {
	enc := gltf.NewEncoder(w)
	enc.AsBinary = binary
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("animation: glTF: %w", err)
	}
	return nil
}
