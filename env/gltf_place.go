package env

import (
	"fmt"
	"iter"
	"strings"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/gltfdoc"
)

// build places the triangles of every mesh node below roots into m, whose
// arrays survey sized.
func (d gltfScene) build(m *Mesh, roots iter.Seq[int32], s gltfSurvey) error {
	scratch := make([]uint32, s.indices)
	var collapsed []int32
	err := d.Place(roots, s.depth, func(n int32, world *mgl64.Mat4) error {
		if d.Nodes[n].Mesh >= 0 && world.Mat3().Det() == 0 {
			collapsed = append(collapsed, n)
			return nil
		}
		return d.placeMesh(m, n, *world, scratch)
	})
	if len(collapsed) > 0 {
		m.Warnings = append(m.Warnings, d.collapsedWarning(collapsed))
	}
	return err
}

// collapsedWarning says which mesh nodes were left out, their transforms
// (with their ancestors') collapsing them: a zero scale or matrix, or a
// singular one, flattens a node's mesh to a plane, a line or a point: no
// solid a contact's depth could be measured into, and never what the
// file's author meant to collide with. Said once for the file, naming
// the first few.
func (d gltfScene) collapsedWarning(nodes []int32) string {
	const named = 3
	var b strings.Builder
	for i, n := range nodes[:min(len(nodes), named)] {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "node %d %q", n, d.objectName(n))
	}
	if len(nodes) > named {
		fmt.Fprintf(&b, " and %d more", len(nodes)-named)
	}
	return b.String() + ": its transform, with its ancestors', collapses its mesh (a zero scale or a singular matrix): left out of the scene"
}

// placeMesh adds node n's mesh, if it has one, as an object placed by
// world. scratch holds any index accessor.
func (d gltfScene) placeMesh(m *Mesh, n int32, world mgl64.Mat4, scratch []uint32) error {
	nd := &d.Nodes[n]
	if nd.Mesh < 0 {
		return nil
	}
	obj := m.addObject(d.objectName(n))
	for pi, p := range d.Primitives(nd.Mesh) {
		if err := m.placePrimitive(d, p, world, obj, scratch); err != nil {
			return fmt.Errorf("node %d %q primitive %d: %w", n, d.objectName(n), pi, err)
		}
	}
	return nil
}

func (m *Mesh) placePrimitive(d gltfScene, p gltfdoc.Primitive, world mgl64.Mat4, obj int32, scratch []uint32) error {
	pos, idx, err := d.primitive(p)
	if err != nil || pos.Count() == 0 {
		return err
	}
	base := len(m.Verts)
	m.Verts = m.Verts[:base+pos.Count()] // survey made room
	if err := placePositions(&pos, world, m.Verts[base:]); err != nil {
		return err
	}
	n := pos.Count()
	if idx.Count() > 0 {
		n = idx.Count()
		if err := idx.ReadIndices(scratch[:n]); err != nil {
			return err
		}
		for i, v := range scratch[:n] {
			if int(v) >= pos.Count() {
				return fmt.Errorf("index %d = %d: %w (%d positions)", i, v, ErrIndexRange, pos.Count())
			}
		}
	}
	at := func(i int) int32 {
		if idx.Count() > 0 {
			return int32(base) + int32(scratch[i])
		}
		return int32(base + i)
	}
	// A transform with a negative determinant mirrors the mesh, which
	// turns its counter-clockwise triangles clockwise: glTF has the
	// loader reverse their winding so each keeps its front face (the
	// side an open surface's contacts are measured from).
	mirrored := world.Mat3().Det() < 0
	emit := func(a, b, c int) {
		if mirrored {
			b, c = c, b
		}
		m.Tris = append(m.Tris, [3]int32{at(a), at(b), at(c)})
		m.Object = append(m.Object, obj)
	}
	switch p.Mode {
	case gltfdoc.Triangles:
		for i := 0; i+2 < n; i += 3 {
			emit(i, i+1, i+2)
		}
	case gltfdoc.TriangleStrip:
		for i := 0; i+2 < n; i++ {
			if i%2 == 0 {
				emit(i, i+1, i+2)
			} else {
				emit(i+1, i, i+2)
			}
		}
	case gltfdoc.TriangleFan:
		for i := 1; i+1 < n; i++ {
			emit(0, i, i+1)
		}
	}
	return nil
}

// placePositions writes a POSITION accessor's elements, placed by world,
// to out, len pos.Count(); each must land on finite coordinates.
func placePositions(pos *gltfdoc.Accessor, world mgl64.Mat4, out []geom.Vec3) error {
	return pos.EachVec3(func(k int, p [3]float32) error {
		w := geom.FromMgl(world.Mul4x1(mgl64.Vec4{float64(p[0]), float64(p[1]), float64(p[2]), 1}).Vec3())
		if !w.Finite() {
			if geom.Finite(float64(p[0])) && geom.Finite(float64(p[1])) && geom.Finite(float64(p[2])) {
				return fmt.Errorf("POSITION %d %v: placed by its node's transform, with its ancestors', it overflows a float64: a scale, translation or matrix too large", k, p)
			}
			return fmt.Errorf("POSITION %d %v: %w", k, p, ErrNonFinite)
		}
		out[k] = w
		return nil
	})
}
