package env

import (
	"slices"

	"github.com/go-gl/mathgl/mgl64"
)

// Decoders for the elements of a glTF document's tables, each reading the
// members that carry geometry and skipping the rest.

// intList appends a JSON array of indices to d.ints.
func (d *gltfDoc) intList(v []byte) (span, error) {
	s := span{start: int32(len(d.ints))}
	err := eachElement(v, func(_ int, e []byte) error {
		i, err := jsonInt(e)
		d.ints = append(d.ints, i)
		return err
	})
	s.n = int32(len(d.ints)) - s.start
	return s, err
}

func (d *gltfDoc) decodeScene(v []byte, s *span) error {
	return eachMember(v, func(k, v []byte) (err error) {
		if string(k) == "nodes" {
			*s, err = d.intList(v)
		}
		return err
	})
}

func (d *gltfDoc) decodeMesh(v []byte, m *gltfMesh) error {
	return eachMember(v, func(k, v []byte) (err error) {
		switch string(k) {
		case "name":
			m.name, err = jsonString(v)
		case "primitives":
			m.prims.start = int32(len(d.prims))
			err = eachElement(v, func(_ int, e []byte) error {
				p := gltfPrimitive{position: -1, indices: -1, mode: gltfTriangles}
				err := decodePrimitive(e, &p)
				d.prims = append(d.prims, p)
				return err
			})
			m.prims.n = int32(len(d.prims)) - m.prims.start
		}
		return err
	})
}

func decodePrimitive(v []byte, p *gltfPrimitive) error {
	return eachMember(v, func(k, v []byte) (err error) {
		switch string(k) {
		case "attributes":
			err = eachMember(v, func(k, v []byte) (err error) {
				if string(k) == "POSITION" {
					p.position, err = jsonInt(v)
				}
				return err
			})
		case "indices":
			p.indices, err = jsonInt(v)
		case "mode":
			p.mode, err = jsonInt(v)
		}
		return err
	})
}

// decodeNode decodes a node, its transform into one matrix.
func (d *gltfDoc) decodeNode(v []byte, n *gltfNode) error {
	n.mesh = -1
	var m [16]float64
	t, r, s := [3]float64{}, [4]float64{3: 1}, [3]float64{1, 1, 1}
	err := eachMember(v, func(k, v []byte) (err error) {
		switch string(k) {
		case "name":
			n.name, err = jsonString(v)
		case "mesh":
			n.mesh, err = jsonInt(v)
		case "children":
			n.children, err = d.intList(v)
		case "matrix":
			err = jsonFloats(v, m[:])
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
	if x := nodeMatrix(m, t, r, s); x != mgl64.Ident4() {
		n.local = new(mgl64.Mat4)
		*n.local = x
	}
	return nil
}

// nodeMatrix is a node's transform: its matrix, or translation × rotation
// × scale. As in qmuntal/gltf, a zero or identity matrix counts as absent,
// and so does a zero scale.
func nodeMatrix(m [16]float64, t [3]float64, r [4]float64, s [3]float64) mgl64.Mat4 {
	if x := mgl64.Mat4(m); x != (mgl64.Mat4{}) && x != mgl64.Ident4() {
		return x
	}
	if s == ([3]float64{}) {
		s = [3]float64{1, 1, 1}
	}
	q := mgl64.Quat{W: r[3], V: mgl64.Vec3{r[0], r[1], r[2]}}
	return mgl64.Translate3D(t[0], t[1], t[2]).Mul4(q.Mat4()).Mul4(mgl64.Scale3D(s[0], s[1], s[2]))
}

func decodeAccessor(v []byte, a *gltfAccessor) error {
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
			a.typ = int8(slices.Index(gltfTypes, t))
		case "sparse":
			a.sparse = new(gltfSparse)
			err = decodeSparse(v, a.sparse)
		}
		return err
	})
}

func decodeSparse(v []byte, s *gltfSparse) error {
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

func decodeView(v []byte, w *gltfView) error {
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

func decodeBuffer(v []byte, b *gltfBuffer) error {
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
