package gltfdoc

import (
	"slices"

	"github.com/go-gl/mathgl/mgl64"
)

// Decoders for the elements of a glTF document's tables, each reading the
// members that carry geometry and skipping the rest.

// intList appends a JSON array of indices to f.ints.
func (f *File) intList(v []byte) (span, error) {
	s := span{start: int32(len(f.ints))}
	err := eachElement(v, func(_ int, e []byte) error {
		i, err := jsonInt(e)
		f.ints = append(f.ints, i)
		return err
	})
	s.n = int32(len(f.ints)) - s.start
	return s, err
}

func (f *File) decodeScene(v []byte, s *span) error {
	return eachMember(v, func(k, v []byte) (err error) {
		if string(k) == "nodes" {
			*s, err = f.intList(v)
		}
		return err
	})
}

func (f *File) decodeMesh(v []byte, m *Mesh) error {
	return eachMember(v, func(k, v []byte) (err error) {
		switch string(k) {
		case "name":
			m.Name, err = jsonString(v)
		case "primitives":
			m.prims.start = int32(len(f.prims))
			err = eachElement(v, func(_ int, e []byte) error {
				p := Primitive{Position: -1, Indices: -1, Joints: -1, Weights: -1, Mode: Triangles}
				err := decodePrimitive(e, &p)
				f.prims = append(f.prims, p)
				return err
			})
			m.prims.n = int32(len(f.prims)) - m.prims.start
		}
		return err
	})
}

func decodePrimitive(v []byte, p *Primitive) error {
	return eachMember(v, func(k, v []byte) (err error) {
		switch string(k) {
		case "attributes":
			err = eachMember(v, func(k, v []byte) (err error) {
				switch string(k) {
				case "POSITION":
					p.Position, err = jsonInt(v)
				case "JOINTS_0":
					p.Joints, err = jsonInt(v)
				case "WEIGHTS_0":
					p.Weights, err = jsonInt(v)
				}
				return err
			})
		case "indices":
			p.Indices, err = jsonInt(v)
		case "mode":
			p.Mode, err = jsonInt(v)
		}
		return err
	})
}

func (f *File) decodeSkin(v []byte, s *Skin) error {
	s.InverseBind = -1
	return eachMember(v, func(k, v []byte) (err error) {
		switch string(k) {
		case "joints":
			s.joints, err = f.intList(v)
		case "inverseBindMatrices":
			s.InverseBind, err = jsonInt(v)
		}
		return err
	})
}

// decodeNode decodes a node, its transform into one matrix.
func (f *File) decodeNode(v []byte, n *Node) error {
	n.Mesh, n.Skin = -1, -1
	var m [16]float64
	hasMatrix := false
	t, r, s := [3]float64{}, [4]float64{3: 1}, [3]float64{1, 1, 1}
	err := eachMember(v, func(k, v []byte) (err error) {
		switch string(k) {
		case "name":
			n.Name, err = jsonString(v)
		case "mesh":
			n.Mesh, err = jsonInt(v)
		case "skin":
			n.Skin, err = jsonInt(v)
		case "children":
			n.children, err = f.intList(v)
		case "matrix":
			hasMatrix, err = true, jsonFloats(v, m[:])
		case "translation":
			err = jsonFloats(v, t[:])
		case "rotation":
			err = jsonFloats(v, r[:])
		case "scale":
			err = jsonFloats(v, s[:])
		}
		return err
	})
	if err != nil {
		return err
	}
	if x := nodeMatrix(m, hasMatrix, t, r, s); x != mgl64.Ident4() {
		n.Local = new(mgl64.Mat4)
		*n.Local = x
	}
	return nil
}

// nodeMatrix is a node's transform: its matrix (hasMatrix: the node
// wrote one), or translation × rotation × scale (specification 3.5.3). An
// identity matrix counts as absent, so that translation, rotation and
// scale written beside it count. A zero matrix or a zero scale written is
// kept: it collapses the node, as the specification has it (qmuntal/gltf
// takes either for absent, which would place the node unscaled). The
// rotation is scaled to unit length: a file stores it as float32, whose
// rounding leaves it off by up to about 1e-7.
func nodeMatrix(m [16]float64, hasMatrix bool, t [3]float64, r [4]float64, s [3]float64) mgl64.Mat4 {
	if x := mgl64.Mat4(m); hasMatrix && x != mgl64.Ident4() {
		return x
	}
	q := mgl64.Quat{W: r[3], V: mgl64.Vec3{r[0], r[1], r[2]}}
	if l := q.Len(); l > 0 {
		q = q.Scale(1 / l)
	}
	return mgl64.Translate3D(t[0], t[1], t[2]).Mul4(q.Mat4()).Mul4(mgl64.Scale3D(s[0], s[1], s[2]))
}

func decodeAccessor(v []byte, a *accessorDecl) error {
	a.view, a.typ = -1, -1
	return eachMember(v, func(k, v []byte) (err error) {
		switch string(k) {
		case "bufferView":
			a.view, err = jsonInt(v)
		case "byteOffset":
			a.offset, err = jsonInt(v)
		case "componentType":
			a.comp, err = jsonInt(v)
		case "count":
			a.count, err = jsonInt(v)
		case "type":
			t, _ := jsonString(v)
			a.typ = int8(slices.Index(accessorTypes, t))
		case "sparse":
			a.sparse = new(sparseDecl)
			err = decodeSparse(v, a.sparse)
		}
		return err
	})
}

func decodeSparse(v []byte, s *sparseDecl) error {
	return eachMember(v, func(k, v []byte) (err error) {
		switch string(k) {
		case "count":
			s.count, err = jsonInt(v)
		case "indices":
			err = eachMember(v, func(k, v []byte) (err error) {
				switch string(k) {
				case "bufferView":
					s.indexView, err = jsonInt(v)
				case "byteOffset":
					s.indexOffset, err = jsonInt(v)
				case "componentType":
					s.indexComp, err = jsonInt(v)
				}
				return err
			})
		case "values":
			err = eachMember(v, func(k, v []byte) (err error) {
				switch string(k) {
				case "bufferView":
					s.valueView, err = jsonInt(v)
				case "byteOffset":
					s.valueOffset, err = jsonInt(v)
				}
				return err
			})
		}
		return err
	})
}

func decodeView(v []byte, w *viewDecl) error {
	return eachMember(v, func(k, v []byte) (err error) {
		switch string(k) {
		case "buffer":
			w.buffer, err = jsonInt(v)
		case "byteOffset":
			w.offset, err = jsonInt(v)
		case "byteLength":
			w.length, err = jsonInt(v)
		case "byteStride":
			w.stride, err = jsonInt(v)
		}
		return err
	})
}

func decodeBuffer(v []byte, b *bufferDecl) error {
	return eachMember(v, func(k, v []byte) (err error) {
		switch string(k) {
		case "uri":
			b.uri, err = jsonString(v)
		case "byteLength":
			b.length, err = jsonInt(v)
		}
		return err
	})
}
