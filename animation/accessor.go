package animation

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/qmuntal/gltf"
)

// elements are an accessor's data where its buffer holds them: count
// elements of comps components each, stride bytes apart from b[0].
type elements struct {
	b                 []byte
	stride, count     int
	comps, size       int // components per element; bytes per component
	comp              gltf.ComponentType
	normalized, float bool
}

// locate finds accessor i's elements after checking every reference and
// bound on the way (sections 3.6.1 and 3.6.2): the accessor, its buffer
// view and buffer exist; the view lies within the buffer's byteLength and
// the buffer's data; the elements lie within the view; the accessor's
// offset, the view's offset plus it, and the stride are multiples of the
// component size (3.6.2.4). Sparse accessors and the padded matrix layouts
// of one- and two-byte components, which gloved never writes, are errors.
func locate(doc *gltf.Document, i int) (elements, error) {
	if i < 0 || i >= len(doc.Accessors) {
		return elements{}, fmt.Errorf("accessor %d does not exist (%d accessors)", i, len(doc.Accessors))
	}
	a := doc.Accessors[i]
	e := elements{count: a.Count, comps: a.Type.Components(), size: a.ComponentType.ByteSize(), comp: a.ComponentType,
		normalized: a.Normalized, float: a.ComponentType == gltf.ComponentFloat}
	switch {
	case a.Sparse != nil:
		return e, fmt.Errorf("accessor %d is sparse, which is not checked here", i)
	case a.BufferView == nil:
		return e, fmt.Errorf("accessor %d has no buffer view", i)
	case a.Count < 1:
		return e, fmt.Errorf("accessor %d: count %d, want at least 1", i, a.Count)
	case e.comps == 0 || e.size == 0:
		return e, fmt.Errorf("accessor %d: unknown type or component type", i)
	case a.Type >= gltf.AccessorMat2 && e.size < 4:
		return e, fmt.Errorf("accessor %d: a matrix of %d-byte components (padded columns) is not checked here", i, e.size)
	}
	vi := *a.BufferView
	if vi < 0 || vi >= len(doc.BufferViews) {
		return e, fmt.Errorf("accessor %d: buffer view %d does not exist (%d views)", i, vi, len(doc.BufferViews))
	}
	v := doc.BufferViews[vi]
	data, err := viewData(doc, vi)
	if err != nil {
		return e, err
	}
	elem := e.comps * e.size
	e.stride = max(v.ByteStride, elem)
	switch {
	case a.ByteOffset < 0 || a.ByteOffset%e.size != 0 || (v.ByteOffset+a.ByteOffset)%e.size != 0:
		return e, fmt.Errorf("accessor %d: byte offset %d (view at %d) is not a multiple of its component size %d", i, a.ByteOffset, v.ByteOffset, e.size)
	case e.stride%e.size != 0:
		return e, fmt.Errorf("accessor %d: stride %d is not a multiple of its component size %d", i, e.stride, e.size)
	}
	end := int64(a.ByteOffset) + int64(a.Count-1)*int64(e.stride) + int64(elem)
	if end > int64(len(data)) {
		return e, fmt.Errorf("accessor %d: %d elements from byte %d run to byte %d of buffer view %d's %d", i, a.Count, a.ByteOffset, end, vi, len(data))
	}
	e.b = data[a.ByteOffset:end]
	return e, nil
}

// viewData returns buffer view i's bytes after checking that it lies
// within its buffer's declared length and its data.
func viewData(doc *gltf.Document, i int) ([]byte, error) {
	v := doc.BufferViews[i]
	if v.Buffer < 0 || v.Buffer >= len(doc.Buffers) {
		return nil, fmt.Errorf("buffer view %d: buffer %d does not exist (%d buffers)", i, v.Buffer, len(doc.Buffers))
	}
	buf := doc.Buffers[v.Buffer]
	end := int64(v.ByteOffset) + int64(v.ByteLength)
	switch {
	case v.ByteOffset < 0 || v.ByteLength < 1:
		return nil, fmt.Errorf("buffer view %d: offset %d, length %d", i, v.ByteOffset, v.ByteLength)
	case end > int64(buf.ByteLength) || end > int64(len(buf.Data)):
		return nil, fmt.Errorf("buffer view %d: bytes %d to %d run past buffer %d (%d bytes declared, %d held)", i, v.ByteOffset, end, v.Buffer, buf.ByteLength, len(buf.Data))
	case v.ByteStride != 0 && (v.ByteStride < 4 || v.ByteStride > 252 || v.ByteStride%4 != 0):
		return nil, fmt.Errorf("buffer view %d: stride %d, want 4 to 252 and a multiple of 4", i, v.ByteStride)
	}
	return buf.Data[v.ByteOffset:end], nil
}

// raw returns component c of element k as stored: a float widened, an
// integer as is (accessor bounds are given in these values).
func (e *elements) raw(k, c int) float64 {
	p := e.b[k*e.stride+c*e.size:]
	switch e.comp {
	case gltf.ComponentFloat:
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(p)))
	case gltf.ComponentByte:
		return float64(int8(p[0]))
	case gltf.ComponentUbyte:
		return float64(p[0])
	case gltf.ComponentShort:
		return float64(int16(binary.LittleEndian.Uint16(p)))
	case gltf.ComponentUshort:
		return float64(binary.LittleEndian.Uint16(p))
	default:
		return float64(binary.LittleEndian.Uint32(p))
	}
}

// value returns component c of element k as the data means it: a
// normalised integer decoded as section 3.11's table says.
func (e *elements) value(k, c int) float64 {
	x := e.raw(k, c)
	if !e.normalized || e.float {
		return x
	}
	switch e.comp {
	case gltf.ComponentByte:
		return max(x/127, -1)
	case gltf.ComponentUbyte:
		return x / 255
	case gltf.ComponentShort:
		return max(x/32767, -1)
	case gltf.ComponentUshort:
		return x / 65535
	}
	return x
}

// bounds returns each component's least and greatest stored value.
func (e *elements) bounds() (lo, hi []float64) {
	lo, hi = make([]float64, e.comps), make([]float64, e.comps)
	for c := range e.comps {
		lo[c], hi[c] = math.Inf(1), math.Inf(-1)
		for k := range e.count {
			x := e.raw(k, c)
			lo[c], hi[c] = min(lo[c], x), max(hi[c], x)
		}
	}
	return lo, hi
}
