package env

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"

	"github.com/gloved/gloved/geom"
)

// oracleGLTF is the loader as it was built on qmuntal/gltf v0.28.0 and its
// modeler package, kept to check readGLTF against on valid files only: on
// hostile ones the library allocates from declared counts. Where the
// library differs: it takes a zero scale or an all-zero matrix for absent
// (the node placed unscaled), while readGLTF, as the specification has
// it, leaves the collapsed node's mesh out with a warning
// (TestANodeWhoseTransformCollapsesItsMeshContributesNoTriangles);
// validGLTFs holds no such node.
func oracleGLTF(path string) (*Mesh, error) {
	doc, err := gltf.Open(path)
	if err != nil {
		return nil, err
	}
	m := &Mesh{}
	var roots []int
	switch {
	case doc.Scene != nil && *doc.Scene < len(doc.Scenes):
		roots = doc.Scenes[*doc.Scene].Nodes
	case len(doc.Scenes) > 0:
		roots = doc.Scenes[0].Nodes
	default:
		child := make([]bool, len(doc.Nodes))
		for _, n := range doc.Nodes {
			for _, c := range n.Children {
				child[c] = true
			}
		}
		for i, c := range child {
			if !c {
				roots = append(roots, i)
			}
		}
	}
	for _, r := range roots {
		if err := m.oracleNode(doc, r, mgl64.Ident4()); err != nil {
			return nil, err
		}
	}
	return m, nil
}

func (m *Mesh) oracleNode(doc *gltf.Document, ni int, parent mgl64.Mat4) error {
	n := doc.Nodes[ni]
	var local mgl64.Mat4
	if n.Matrix != [16]float64{} && n.Matrix != gltf.DefaultMatrix {
		local = mgl64.Mat4(n.Matrix)
	} else {
		t, r, s := n.TranslationOrDefault(), n.RotationOrDefault(), n.ScaleOrDefault()
		q := mgl64.Quat{W: r[3], V: mgl64.Vec3{r[0], r[1], r[2]}}
		local = mgl64.Translate3D(t[0], t[1], t[2]).Mul4(q.Mat4()).Mul4(mgl64.Scale3D(s[0], s[1], s[2]))
	}
	world := parent.Mul4(local)
	if n.Mesh != nil {
		mesh := doc.Meshes[*n.Mesh]
		name := n.Name
		if name == "" {
			name = mesh.Name
		}
		if name == "" {
			name = fmt.Sprintf("node%d", ni)
		}
		obj := m.addObject(name)
		for _, p := range mesh.Primitives {
			if err := m.oraclePrimitive(doc, p, world, obj); err != nil {
				return err
			}
		}
	}
	for _, c := range n.Children {
		if err := m.oracleNode(doc, c, world); err != nil {
			return err
		}
	}
	return nil
}

func (m *Mesh) oraclePrimitive(doc *gltf.Document, p *gltf.Primitive, world mgl64.Mat4, obj int32) error {
	switch p.Mode {
	case gltf.PrimitiveTriangles, gltf.PrimitiveTriangleStrip, gltf.PrimitiveTriangleFan:
	default:
		return nil
	}
	pos, err := modeler.ReadPosition(doc, doc.Accessors[p.Attributes[gltf.POSITION]], nil)
	if err != nil {
		return err
	}
	base := int32(len(m.Verts))
	for _, v := range pos {
		w := world.Mul4x1(mgl64.Vec4{float64(v[0]), float64(v[1]), float64(v[2]), 1})
		m.Verts = append(m.Verts, geom.FromMgl(w.Vec3()))
	}
	var idx []uint32
	if p.Indices != nil {
		if idx, err = modeler.ReadIndices(doc, doc.Accessors[*p.Indices], nil); err != nil {
			return err
		}
	} else {
		for i := range pos {
			idx = append(idx, uint32(i))
		}
	}
	emit := func(a, b, c uint32) {
		if world.Mat3().Det() < 0 { // glTF 2.0: a mirroring node reverses the winding
			b, c = c, b
		}
		m.Tris = append(m.Tris, [3]int32{base + int32(a), base + int32(b), base + int32(c)})
		m.Object = append(m.Object, obj)
	}
	switch p.Mode {
	case gltf.PrimitiveTriangles:
		for i := 0; i+2 < len(idx); i += 3 {
			emit(idx[i], idx[i+1], idx[i+2])
		}
	case gltf.PrimitiveTriangleStrip:
		for i := 0; i+2 < len(idx); i++ {
			if i%2 == 0 {
				emit(idx[i], idx[i+1], idx[i+2])
			} else {
				emit(idx[i+1], idx[i], idx[i+2])
			}
		}
	case gltf.PrimitiveTriangleFan:
		for i := 1; i+1 < len(idx); i++ {
			emit(idx[0], idx[i], idx[i+1])
		}
	}
	return nil
}
