package env

import (
	"fmt"
	"iter"

	"github.com/go-gl/mathgl/mgl64"
)

// build places the triangles of every mesh node below roots into m, whose
// arrays survey sized.
func (d *gltfData) build(m *Mesh, roots iter.Seq[int32], s gltfSurvey) error {
	scratch := make([]uint32, s.indices)
	return d.walk(roots, s.depth, true, func(n int32, world *mgl64.Mat4, _ int) error {
		return d.placeMesh(m, n, *world, scratch)
	})
}

// placeMesh adds node n's mesh, if it has one, as an object placed by
// world. scratch holds any index accessor.
func (d *gltfData) placeMesh(m *Mesh, n int32, world mgl64.Mat4, scratch []uint32) error {
	nd := &d.doc.nodes[n]
	if nd.mesh < 0 {
		return nil
	}
	obj := m.addObject(d.objectName(n))
	for pi, p := range d.doc.primitives(nd.mesh) {
		if err := m.placePrimitive(d, p, world, obj, scratch); err != nil {
			return fmt.Errorf("node %d %q primitive %d: %w", n, d.objectName(n), pi, err)
		}
	}
	return nil
}

func (m *Mesh) placePrimitive(d *gltfData, p gltfPrimitive, world mgl64.Mat4, obj int32, scratch []uint32) error {
	pos, idx, err := d.primitive(p)
	if err != nil || pos.count == 0 {
		return err
	}
	base := len(m.Verts)
	m.Verts = m.Verts[:base+pos.count] // survey made room
	if err := pos.readPositions(world, m.Verts[base:]); err != nil {
		return err
	}
	n := pos.count
	if idx.count > 0 {
		n = idx.count
		if err := idx.readIndices(scratch[:n]); err != nil {
			return err
		}
		for i, v := range scratch[:n] {
			if int(v) >= pos.count {
				return fmt.Errorf("index %d = %d: %w (%d positions)", i, v, ErrIndexRange, pos.count)
			}
		}
	}
	at := func(i int) int32 {
		if idx.count > 0 {
			return int32(base) + int32(scratch[i])
		}
		return int32(base + i)
	}
	emit := func(a, b, c int) {
		m.Tris = append(m.Tris, [3]int32{at(a), at(b), at(c)})
		m.Object = append(m.Object, obj)
	}
	switch p.mode {
	case gltfTriangles:
		for i := 0; i+2 < n; i += 3 {
			emit(i, i+1, i+2)
		}
	case gltfTriangleStrip:
		for i := 0; i+2 < n; i++ {
			if i%2 == 0 {
				emit(i, i+1, i+2)
			} else {
				emit(i+1, i, i+2)
			}
		}
	case gltfTriangleFan:
		for i := 1; i+1 < n; i++ {
			emit(0, i, i+1)
		}
	}
	return nil
}

// world is the node's world transform below a parent's.
func (n *gltfNode) world(parent mgl64.Mat4) mgl64.Mat4 {
	if n.local == nil {
		return parent
	}
	return parent.Mul4(*n.local)
}
