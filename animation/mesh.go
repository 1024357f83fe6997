package animation

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"

	"github.com/gloved/gloved/geom"
)

// The materials a file gives its meshes, so that a viewer tells the scene,
// the hand and the contacts apart: plain base colours, no textures.
var materials = []struct {
	name string
	rgba [4]float64
}{
	matScene:   {"scene", [4]float64{0.62, 0.64, 0.68, 1}},
	matLink:    {"link", [4]float64{0.86, 0.66, 0.52, 1}},
	matSkin:    {"skin", [4]float64{0.93, 0.78, 0.66, 1}},
	matContact: {"contact", [4]float64{0.9, 0.08, 0.06, 1}},
}

// Indices into materials.
const (
	matScene = iota
	matLink
	matSkin
	matContact
)

// material returns the index in doc of materials[m], adding it on first
// use (an unused material is an object a validator reports).
func material(doc *gltf.Document, m int) int {
	for i, d := range doc.Materials {
		if d.Name == materials[m].name {
			return i
		}
	}
	rgba, metal, rough := materials[m].rgba, 0.0, 0.8
	doc.Materials = append(doc.Materials, &gltf.Material{
		Name:                 materials[m].name,
		PBRMetallicRoughness: &gltf.PBRMetallicRoughness{BaseColorFactor: &rgba, MetallicFactor: &metal, RoughnessFactor: &rough},
	})
	return len(doc.Materials) - 1
}

// addMesh adds a triangle mesh of material mat (an index into materials)
// to doc, its positions with the bounds the specification requires
// (section 3.6.2.5), and returns its index.
func addMesh(doc *gltf.Document, name string, verts []geom.Vec3, tris [][3]int32, mat int) int {
	pos := make([][3]float32, len(verts))
	for i, v := range verts {
		pos[i] = vec32(v.Mgl())
	}
	p := &gltf.Primitive{
		Indices:    gltf.Index(modeler.WriteIndices(doc, indices(tris, len(verts)))),
		Attributes: gltf.PrimitiveAttributes{gltf.POSITION: modeler.WritePosition(doc, pos)},
		Material:   gltf.Index(material(doc, mat)),
	}
	doc.Meshes = append(doc.Meshes, &gltf.Mesh{Name: name, Primitives: []*gltf.Primitive{p}})
	return len(doc.Meshes) - 1
}

// indices are the triangles' corners as a triangle list: unsigned shorts
// when every vertex has a short index other than 65535 (which a renderer
// may take for a primitive restart), else unsigned ints.
func indices(tris [][3]int32, verts int) any {
	if verts < math.MaxUint16 {
		idx := make([]uint16, 0, 3*len(tris))
		for _, t := range tris {
			idx = append(idx, uint16(t[0]), uint16(t[1]), uint16(t[2]))
		}
		return idx
	}
	idx := make([]uint32, 0, 3*len(tris))
	for _, t := range tris {
		idx = append(idx, uint32(t[0]), uint32(t[1]), uint32(t[2]))
	}
	return idx
}

// vec32 rounds v to the file's single precision.
func vec32[V ~[3]float64](v V) [3]float32 {
	return [3]float32{float32(v[0]), float32(v[1]), float32(v[2])}
}

// rotation is R as a unit quaternion.
func rotation(r mgl64.Mat3) mgl64.Quat { return geom.Transform{R: r}.Quat() }

// quat32 is q in the file's order (x y z w), rounded to single precision.
func quat32(q mgl64.Quat) [4]float32 {
	return [4]float32{float32(q.V[0]), float32(q.V[1]), float32(q.V[2]), float32(q.W)}
}

// coneSegments is how many sides a marker's cone has.
const coneSegments = 12

// MarkerLength and MarkerRadius size a contact marker's cone at unit
// scale: its base on the contact point, its tip MarkerLength along +Y. A
// contact of depth d scales it by d/MarkerLength along +Y, so that its
// length is the depth.
const (
	MarkerLength = 0.01
	MarkerRadius = 0.0015
)

// cone is a marker's mesh: a closed cone along +Y, its base centred on
// the origin.
func cone() ([]geom.Vec3, [][3]int32) {
	verts := []geom.Vec3{{Y: MarkerLength}, {}} // tip, base centre
	var tris [][3]int32
	for k := range coneSegments {
		a := 2 * math.Pi * float64(k) / coneSegments
		verts = append(verts, geom.Vec3{X: MarkerRadius * math.Cos(a), Z: MarkerRadius * math.Sin(a)})
		i, j := int32(2+k), int32(2+(k+1)%coneSegments)
		tris = append(tris, [3]int32{0, j, i}, [3]int32{1, i, j})
	}
	return verts, tris
}
