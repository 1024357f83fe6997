package gltfdoc

import (
	"encoding/binary"
	"fmt"

	"github.com/go-gl/mathgl/mgl64"
)

// Skinning data (specification 3.7.3): each vertex's JOINTS_0 (four joint
// indices into its skin's joints) and WEIGHTS_0 (their weights), and the
// skin's inverse bind matrices.

// Joints returns JOINTS_0 accessor i, checked: VEC4 of unsigned byte or
// short.
func (f *File) Joints(i int32) (Accessor, error) {
	a, ok := f.decl(i)
	if !ok {
		return f.accessor(i, 1) // its error
	}
	if a.typ != typeVec4 || (a.comp != compUbyte && a.comp != compUshort) {
		return Accessor{}, fmt.Errorf("accessor %d: JOINTS_0 is %s of component type %d, want VEC4 of 5121 or 5123", i, a.typeName(), a.comp)
	}
	return f.accessor(i, 4*componentSize(a.comp))
}

// Weights returns WEIGHTS_0 accessor i, checked: VEC4 of FLOAT, or of
// unsigned byte or short read as normalised.
func (f *File) Weights(i int32) (Accessor, error) {
	a, ok := f.decl(i)
	if !ok {
		return f.accessor(i, 1) // its error
	}
	size := int64(4)
	switch {
	case a.comp == compUbyte || a.comp == compUshort:
		size = componentSize(a.comp)
	case a.comp != compFloat:
		size = 0
	}
	if a.typ != typeVec4 || size == 0 {
		return Accessor{}, fmt.Errorf("accessor %d: WEIGHTS_0 is %s of component type %d, want VEC4 of 5126, 5121 or 5123", i, a.typeName(), a.comp)
	}
	return f.accessor(i, 4*size)
}

// Matrices returns inverse bind matrices accessor i, checked: MAT4 of
// FLOAT.
func (f *File) Matrices(i int32) (Accessor, error) {
	if a, ok := f.decl(i); ok && (a.typ != typeMat4 || a.comp != compFloat) {
		return Accessor{}, fmt.Errorf("accessor %d: inverse bind matrices are %s of component type %d, want MAT4 of FLOAT (5126)", i, a.typeName(), a.comp)
	}
	return f.accessor(i, 64)
}

// ReadJoints writes a Joints accessor's elements to out, len Count().
func (a *Accessor) ReadJoints(out [][4]uint16) error {
	comp, size := a.comp, int(componentSize(a.comp))
	return readAll(a, out, func(b []byte) [4]uint16 {
		var j [4]uint16
		for k := range j {
			j[k] = uint16(readUint(b, k*size, comp))
		}
		return j
	})
}

// ReadWeights writes a Weights accessor's elements to out, len Count():
// unsigned bytes and shorts as normalised (v/255, v/65535), as
// qmuntal/gltf's modeler reads them.
func (a *Accessor) ReadWeights(out [][4]float32) error {
	comp := a.comp
	return readAll(a, out, func(b []byte) [4]float32 {
		var w [4]float32
		for k := range w {
			switch comp {
			case compUbyte:
				w[k] = float32(b[k]) / 255
			case compUshort:
				w[k] = float32(binary.LittleEndian.Uint16(b[2*k:])) / 65535
			default:
				w[k] = readFloat(b, 4*k)
			}
		}
		return w
	})
}

// ReadMatrices writes a Matrices accessor's elements to out, len Count().
// glTF stores a matrix column by column, as mgl64 does.
func (a *Accessor) ReadMatrices(out []mgl64.Mat4) error {
	return readAll(a, out, func(b []byte) mgl64.Mat4 {
		var m mgl64.Mat4
		for k := range m {
			m[k] = float64(readFloat(b, 4*k))
		}
		return m
	})
}
