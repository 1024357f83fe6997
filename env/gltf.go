package env

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/modeler"

	"github.com/gloved/gloved/geom"
)

// loadGLTF reads a glTF 2.0 (.gltf with its buffers, or .glb) scene: every
// node with a mesh becomes an object named after the node (or its mesh, or
// its index), its triangles placed by the node's world transform. TRIANGLES,
// TRIANGLE_STRIP and TRIANGLE_FAN primitives are read; points and lines
// carry no surface and are skipped.
func loadGLTF(path string) (*Mesh, error) {
	doc, err := gltf.Open(path)
	if err != nil {
		return nil, fmt.Errorf("env: %s: %w", path, err)
	}
	m := &Mesh{}
	var roots []int
	switch {
	case doc.Scene != nil && *doc.Scene < len(doc.Scenes):
		roots = doc.Scenes[*doc.Scene].Nodes
	case len(doc.Scenes) > 0:
		roots = doc.Scenes[0].Nodes
	default: // no scene: every node that is nobody's child is a root
		child := make([]bool, len(doc.Nodes))
		for _, n := range doc.Nodes {
			for _, c := range n.Children {
				if c >= 0 && c < len(child) {
					child[c] = true
				}
			}
		}
		for i, c := range child {
			if !c {
				roots = append(roots, i)
			}
		}
	}
	visited := make([]bool, len(doc.Nodes))
	for _, r := range roots {
		if err := m.addGLTFNode(doc, r, mgl64.Ident4(), visited); err != nil {
			return nil, fmt.Errorf("env: %s: %w", path, err)
		}
	}
	return m, nil
}

func (m *Mesh) addGLTFNode(doc *gltf.Document, ni int, parent mgl64.Mat4, visited []bool) error {
	if ni < 0 || ni >= len(doc.Nodes) {
		return fmt.Errorf("node index %d: out of range (%d nodes)", ni, len(doc.Nodes))
	}
	if visited[ni] {
		return fmt.Errorf("node %d: appears twice in the node graph (cycle or shared child)", ni)
	}
	visited[ni] = true
	n := doc.Nodes[ni]
	world := parent.Mul4(nodeMatrix(n))
	if n.Mesh != nil {
		if *n.Mesh < 0 || *n.Mesh >= len(doc.Meshes) {
			return fmt.Errorf("node %d %q: mesh index %d out of range", ni, n.Name, *n.Mesh)
		}
		mesh := doc.Meshes[*n.Mesh]
		name := n.Name
		if name == "" {
			name = mesh.Name
		}
		if name == "" {
			name = fmt.Sprintf("node%d", ni)
		}
		obj := m.addObject(name)
		for pi, p := range mesh.Primitives {
			if err := m.addPrimitive(doc, p, world, obj); err != nil {
				return fmt.Errorf("node %d %q primitive %d: %w", ni, name, pi, err)
			}
		}
	}
	for _, c := range n.Children {
		if err := m.addGLTFNode(doc, c, world, visited); err != nil {
			return err
		}
	}
	return nil
}

func nodeMatrix(n *gltf.Node) mgl64.Mat4 {
	if n.Matrix != [16]float64{} && n.Matrix != gltf.DefaultMatrix {
		return mgl64.Mat4(n.Matrix)
	}
	t, r, s := n.TranslationOrDefault(), n.RotationOrDefault(), n.ScaleOrDefault()
	q := mgl64.Quat{W: r[3], V: mgl64.Vec3{r[0], r[1], r[2]}}
	return mgl64.Translate3D(t[0], t[1], t[2]).Mul4(q.Mat4()).Mul4(mgl64.Scale3D(s[0], s[1], s[2]))
}

func (m *Mesh) addPrimitive(doc *gltf.Document, p *gltf.Primitive, world mgl64.Mat4, obj int32) error {
	switch p.Mode {
	case gltf.PrimitiveTriangles, gltf.PrimitiveTriangleStrip, gltf.PrimitiveTriangleFan:
	default:
		return nil
	}
	pa, ok := p.Attributes[gltf.POSITION]
	if !ok || pa < 0 || pa >= len(doc.Accessors) {
		return fmt.Errorf("POSITION accessor missing or out of range")
	}
	pos, err := modeler.ReadPosition(doc, doc.Accessors[pa], nil)
	if err != nil {
		return fmt.Errorf("POSITION accessor %d: %w", pa, err)
	}
	base := int32(len(m.Verts))
	for i, v := range pos {
		w := world.Mul4x1(mgl64.Vec4{float64(v[0]), float64(v[1]), float64(v[2]), 1})
		x := mgl64.Vec3{w[0], w[1], w[2]}
		if !geom.Finite3(x) {
			return fmt.Errorf("POSITION %d %v: %w", i, v, ErrNonFinite)
		}
		m.Verts = append(m.Verts, x)
	}
	var idx []uint32
	if p.Indices != nil {
		if *p.Indices < 0 || *p.Indices >= len(doc.Accessors) {
			return fmt.Errorf("indices accessor %d out of range", *p.Indices)
		}
		if idx, err = modeler.ReadIndices(doc, doc.Accessors[*p.Indices], nil); err != nil {
			return fmt.Errorf("indices accessor %d: %w", *p.Indices, err)
		}
	} else {
		idx = make([]uint32, len(pos))
		for i := range idx {
			idx[i] = uint32(i)
		}
	}
	for i, v := range idx {
		if int(v) >= len(pos) {
			return fmt.Errorf("index %d = %d: %w (%d positions)", i, v, ErrIndexRange, len(pos))
		}
	}
	emit := func(a, b, c uint32) {
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

func baseName(path string) string {
	return strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
}
