package gltfdoc

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/gloved/gloved/internal/bytesize"
)

// glTF component types (specification 3.6.2.2).
const (
	compUbyte  = 5121
	compUshort = 5123
	compUint   = 5125
	compFloat  = 5126
)

// An Accessor is an accessor checked against its buffer views: every
// element it declares lies within the bytes present. Element k of the
// dense part is at data[k*stride:]; data is nil for all zeros. The sparse
// part, if count > 0, replaces elements.
type Accessor struct {
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

// Count is the accessor's number of elements.
func (a *Accessor) Count() int { return a.count }

// componentSize is the size of an unsigned integer component, or 0.
func componentSize(c int32) int64 {
	switch c {
	case compUbyte:
		return 1
	case compUshort:
		return 2
	case compUint:
		return 4
	}
	return 0
}

// Positions returns POSITION accessor i, checked: VEC3 of FLOAT.
func (f *File) Positions(i int32) (Accessor, error) {
	if a, ok := f.decl(i); ok && (a.typ != typeVec3 || a.comp != compFloat) {
		return Accessor{}, fmt.Errorf("accessor %d: POSITION is %s of component type %d, want VEC3 of FLOAT (5126)", i, a.typeName(), a.comp)
	}
	return f.accessor(i, 12)
}

// Indices returns indices accessor i, checked: SCALAR of unsigned byte,
// short or int.
func (f *File) Indices(i int32) (Accessor, error) {
	a, ok := f.decl(i)
	if !ok {
		return f.accessor(i, 1) // its error
	}
	if a.typ != typeScalar || componentSize(a.comp) == 0 {
		return Accessor{}, fmt.Errorf("accessor %d: indices are %s of component type %d, want SCALAR of 5121, 5123 or 5125", i, a.typeName(), a.comp)
	}
	return f.accessor(i, componentSize(a.comp))
}

func (f *File) decl(i int32) (*accessorDecl, bool) {
	if i < 0 || int(i) >= len(f.accessors) {
		return nil, false
	}
	return &f.accessors[i], true
}

// accessor checks accessor i, of size-byte elements, against the bytes
// its views hold, before anything is read or allocated from it.
func (f *File) accessor(i int32, size int64) (Accessor, error) {
	a, ok := f.decl(i)
	if !ok {
		return Accessor{}, fmt.Errorf("accessor %d: out of range (%d accessors)", i, len(f.accessors))
	}
	if a.count < 1 {
		return Accessor{}, fmt.Errorf("accessor %d: count %d, want at least 1", i, a.count)
	}
	acc := Accessor{index: i, count: int(a.count), comp: a.comp, size: int(size)}
	if a.view >= 0 {
		v, stride, err := f.view(a.view)
		if err != nil {
			return Accessor{}, fmt.Errorf("accessor %d: %w", i, err)
		}
		if stride == 0 {
			stride = size
		}
		if stride < size {
			return Accessor{}, fmt.Errorf("accessor %d: byteStride %d is less than its %d-byte elements", i, stride, size)
		}
		if off, n := int64(a.offset), int64(a.count); !fits(off, n, stride, size, len(v)) {
			return Accessor{}, fmt.Errorf("accessor %d: count %d needs %s, buffer view %d holds %s",
				i, n, bytesize.Format(off+stride*(n-1)+size), a.view, bytesize.Format(len(v)))
		}
		acc.data, acc.stride = v[a.offset:], int(stride)
	}
	if a.sparse != nil {
		if err := f.sparse(&acc, a.sparse); err != nil {
			return Accessor{}, fmt.Errorf("accessor %d: sparse: %w", i, err)
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

func (f *File) sparse(acc *Accessor, s *sparseDecl) error {
	n := int64(s.count)
	if n < 1 || n > int64(acc.count) {
		return fmt.Errorf("count %d, want 1 to the accessor's %d", n, acc.count)
	}
	isize := componentSize(s.indexComp)
	if isize == 0 {
		return fmt.Errorf("indices of component type %d, want 5121, 5123 or 5125", s.indexComp)
	}
	iv, _, err := f.view(s.indexView)
	if err != nil {
		return fmt.Errorf("indices: %w", err)
	}
	if !fits(int64(s.indexOffset), n, isize, isize, len(iv)) {
		return fmt.Errorf("count %d needs %s of indices from offset %d, buffer view %d holds %s", n, bytesize.Format(n*isize), s.indexOffset, s.indexView, bytesize.Format(len(iv)))
	}
	vv, _, err := f.view(s.valueView)
	if err != nil {
		return fmt.Errorf("values: %w", err)
	}
	size := int64(acc.size)
	if !fits(int64(s.valueOffset), n, size, size, len(vv)) {
		return fmt.Errorf("count %d needs %s of values from offset %d, buffer view %d holds %s", n, bytesize.Format(n*size), s.valueOffset, s.valueView, bytesize.Format(len(vv)))
	}
	acc.sparse.count, acc.sparse.comp = int(n), s.indexComp
	acc.sparse.indices, acc.sparse.values = iv[s.indexOffset:], vv[s.valueOffset:]
	return nil
}

// readUint reads an unsigned component of type comp at b[off:].
func readUint(b []byte, off int, comp int32) uint32 {
	switch comp {
	case compUbyte:
		return uint32(b[off])
	case compUshort:
		return uint32(binary.LittleEndian.Uint16(b[off:]))
	}
	return binary.LittleEndian.Uint32(b[off:])
}

// readFloat reads a FLOAT component at b[off:].
func readFloat(b []byte, off int) float32 {
	return math.Float32frombits(binary.LittleEndian.Uint32(b[off:]))
}

func readVec3(b []byte) [3]float32 {
	return [3]float32{readFloat(b, 0), readFloat(b, 4), readFloat(b, 8)}
}

// sparseIndex returns the element sparse value k replaces, checked.
func (a *Accessor) sparseIndex(k int) (int, error) {
	s := &a.sparse
	j := int(readUint(s.indices, k*int(componentSize(s.comp)), s.comp))
	if j >= a.count {
		return 0, fmt.Errorf("accessor %d: sparse index %d is %d, the accessor has %d elements", a.index, k, j, a.count)
	}
	return j, nil
}

// each calls visit with each element k of a, decoded by elem from its
// bytes: every dense element in order (the zero T where a has no buffer
// view), then each sparse value with the element it replaces.
func each[T any](a *Accessor, elem func(b []byte) T, visit func(k int, v T) error) error {
	for k := range a.count {
		var v T
		if a.data != nil {
			v = elem(a.data[k*a.stride:])
		}
		if err := visit(k, v); err != nil {
			return err
		}
	}
	for k := range a.sparse.count {
		j, err := a.sparseIndex(k)
		if err != nil {
			return err
		}
		if err := visit(j, elem(a.sparse.values[k*a.size:])); err != nil {
			return err
		}
	}
	return nil
}

// readAll writes a's elements, decoded by elem, to out, len a.Count().
func readAll[T any](a *Accessor, out []T, elem func(b []byte) T) error {
	if len(out) != a.count {
		return fmt.Errorf("accessor %d: %d elements read into %d", a.index, a.count, len(out))
	}
	return each(a, elem, func(k int, v T) error { out[k] = v; return nil })
}

// ReadIndices writes an Indices accessor's elements to out, len Count().
func (a *Accessor) ReadIndices(out []uint32) error {
	comp := a.comp
	return readAll(a, out, func(b []byte) uint32 { return readUint(b, 0, comp) })
}

// EachVec3 calls visit with each element of a Positions accessor: every
// element in order, then each sparse value with the element it replaces.
func (a *Accessor) EachVec3(visit func(k int, v [3]float32) error) error {
	return each(a, readVec3, visit)
}
