package env

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
)

// glTF component types (specification 3.6.2.2).
const (
	gltfUbyte  = 5121
	gltfUshort = 5123
	gltfUint   = 5125
	gltfFloat  = 5126
)

// accessor is an accessor checked against its buffer views. Element k of
// the dense part is at data[k*stride:]; data is nil for all zeros. The
// sparse part, if count > 0, replaces elements.
type accessor struct {
	index  int32
	count  int
	comp   int32
	size   int // bytes per element
	data   []byte
	stride int
	sparse struct {
		count   int
		comp    int32 // of the indices
		indices []byte
		values  []byte
	}
}

// componentSize is the size of an unsigned index component, or 0.
func componentSize(c int32) int64 {
	switch c {
	case gltfUbyte:
		return 1
	case gltfUshort:
		return 2
	case gltfUint:
		return 4
	}
	return 0
}

// positions returns POSITION accessor i, checked: float VEC3.
func (d *gltfData) positions(i int32) (accessor, error) {
	if a, ok := d.rawAccessor(i); ok && (a.typ != gltfVec3 || a.comp != gltfFloat) {
		return accessor{}, fmt.Errorf("accessor %d: POSITION is %s of component type %d, want VEC3 of FLOAT (5126)", i, a.typeName(), a.comp)
	}
	return d.accessor(i, 12)
}

// indices returns indices accessor i, checked: SCALAR unsigned byte,
// short or int.
func (d *gltfData) indices(i int32) (accessor, error) {
	a, ok := d.rawAccessor(i)
	if !ok {
		return d.accessor(i, 1) // its error
	}
	if a.typ != gltfScalar || componentSize(a.comp) == 0 {
		return accessor{}, fmt.Errorf("accessor %d: indices are %s of component type %d, want SCALAR of 5121, 5123 or 5125", i, a.typeName(), a.comp)
	}
	return d.accessor(i, componentSize(a.comp))
}

func (d *gltfData) rawAccessor(i int32) (*gltfAccessor, bool) {
	if i < 0 || int(i) >= len(d.doc.accessors) {
		return nil, false
	}
	return &d.doc.accessors[i], true
}

// accessor checks accessor i, of size-byte elements, against the bytes
// its views hold, before anything is read or allocated from it.
func (d *gltfData) accessor(i int32, size int64) (accessor, error) {
	a, ok := d.rawAccessor(i)
	if !ok {
		return accessor{}, fmt.Errorf("accessor %d: out of range (%d accessors)", i, len(d.doc.accessors))
	}
	if a.count < 1 {
		return accessor{}, fmt.Errorf("accessor %d: count %d, want at least 1", i, a.count)
	}
	acc := accessor{index: i, count: int(a.count), comp: a.comp, size: int(size)}
	if a.view >= 0 {
		v, stride, err := d.view(a.view)
		if err != nil {
			return accessor{}, fmt.Errorf("accessor %d: %w", i, err)
		}
		if stride == 0 {
			stride = size
		}
		if stride < size {
			return accessor{}, fmt.Errorf("accessor %d: byteStride %d is less than its %d-byte elements", i, stride, size)
		}
		if off, n := int64(a.offset), int64(a.count); !fits(off, n, stride, size, len(v)) {
			return accessor{}, fmt.Errorf("accessor %d: count %d needs %s, buffer view %d holds %s",
				i, n, byteSize(off+stride*(n-1)+size), a.view, byteSize(len(v)))
		}
		acc.data, acc.stride = v[a.offset:], int(stride)
	}
	if a.sparse != nil {
		if err := d.sparse(&acc, a.sparse); err != nil {
			return accessor{}, fmt.Errorf("accessor %d: sparse: %w", i, err)
		}
	}
	return acc, nil
}

// fits reports whether count elements of size bytes, stride apart from
// offset, lie within n bytes. It cannot overflow.
func fits(offset, count, stride, size int64, n int) bool {
	avail := int64(n) - offset
	return offset >= 0 && count >= 1 && avail >= size && (count-1) <= (avail-size)/stride
}

func (d *gltfData) sparse(acc *accessor, s *gltfSparse) error {
	n := int64(s.count)
	if n < 1 || n > int64(acc.count) {
		return fmt.Errorf("count %d, want 1 to the accessor's %d", n, acc.count)
	}
	isize := componentSize(s.indexComp)
	if isize == 0 {
		return fmt.Errorf("indices of component type %d, want 5121, 5123 or 5125", s.indexComp)
	}
	iv, _, err := d.view(s.indexView)
	if err != nil {
		return fmt.Errorf("indices: %w", err)
	}
	if !fits(int64(s.indexOffset), n, isize, isize, len(iv)) {
		return fmt.Errorf("count %d needs %s of indices from offset %d, buffer view %d holds %s", n, byteSize(n*isize), s.indexOffset, s.indexView, byteSize(len(iv)))
	}
	vv, _, err := d.view(s.valueView)
	if err != nil {
		return fmt.Errorf("values: %w", err)
	}
	size := int64(acc.size)
	if !fits(int64(s.valueOffset), n, size, size, len(vv)) {
		return fmt.Errorf("count %d needs %s of values from offset %d, buffer view %d holds %s", n, byteSize(n*size), s.valueOffset, s.valueView, byteSize(len(vv)))
	}
	acc.sparse.count, acc.sparse.comp = int(n), s.indexComp
	acc.sparse.indices, acc.sparse.values = iv[s.indexOffset:], vv[s.valueOffset:]
	return nil
}

// readUint reads an unsigned component of type comp at b[off:].
func readUint(b []byte, off int, comp int32) uint32 {
	switch comp {
	case gltfUbyte:
		return uint32(b[off])
	case gltfUshort:
		return uint32(binary.LittleEndian.Uint16(b[off:]))
	}
	return binary.LittleEndian.Uint32(b[off:])
}

func readVec3(b []byte, off int) [3]float32 {
	var v [3]float32
	for k := range v {
		v[k] = math.Float32frombits(binary.LittleEndian.Uint32(b[off+4*k:]))
	}
	return v
}

// sparseIndex returns the element sparse value k replaces, checked.
func (a *accessor) sparseIndex(k int) (int, error) {
	s := &a.sparse
	j := int(readUint(s.indices, k*int(componentSize(s.comp)), s.comp))
	if j >= a.count {
		return 0, fmt.Errorf("accessor %d: sparse index %d is %d, the accessor has %d elements", a.index, k, j, a.count)
	}
	return j, nil
}

// readIndices writes the index accessor's elements to out, len a.count.
func (a *accessor) readIndices(out []uint32) error {
	for k := range out {
		if a.data != nil {
			out[k] = readUint(a.data, k*a.stride, a.comp)
		} else {
			out[k] = 0
		}
	}
	for k := range a.sparse.count {
		j, err := a.sparseIndex(k)
		if err != nil {
			return err
		}
		out[j] = readUint(a.sparse.values, k*a.size, a.comp)
	}
	return nil
}

// readPositions writes the position accessor's elements, placed by world,
// to out, len a.count.
func (a *accessor) readPositions(world mgl64.Mat4, out []mgl64.Vec3) error {
	var err error
	for k := range out {
		var p [3]float32
		if a.data != nil {
			p = readVec3(a.data, k*a.stride)
		}
		if out[k], err = place(world, p, k); err != nil {
			return err
		}
	}
	for k := range a.sparse.count {
		var j int
		if j, err = a.sparseIndex(k); err != nil {
			return err
		}
		if out[j], err = place(world, readVec3(a.sparse.values, k*a.size), j); err != nil {
			return err
		}
	}
	return nil
}

func place(world mgl64.Mat4, p [3]float32, k int) (mgl64.Vec3, error) {
	w := world.Mul4x1(mgl64.Vec4{float64(p[0]), float64(p[1]), float64(p[2]), 1}).Vec3()
	if !geom.Finite3(w) {
		return w, fmt.Errorf("POSITION %d %v: %w", k, p, ErrNonFinite)
	}
	return w, nil
}
