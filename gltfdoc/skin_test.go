package gltfdoc

import (
	"encoding/binary"
	"errors"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/go-gl/mathgl/mgl64"
)

// skinBin lays out two vertices' skinning attributes in every component
// type, a matrix, and a sparse replacement; skinDoc declares them.
type skinBin struct {
	b     []byte
	views []any
}

func (s *skinBin) view(parts ...any) int {
	start := len(s.b)
	for _, p := range parts {
		s.b, _ = binary.Append(s.b, binary.LittleEndian, p)
	}
	for len(s.b)%4 != 0 {
		s.b = append(s.b, 0)
	}
	s.views = append(s.views, obj{"buffer": 0, "byteOffset": start, "byteLength": len(s.b) - start})
	return len(s.views) - 1
}

func skinDoc(t *testing.T) *File {
	var s skinBin
	acc := func(view, comp int, typ string, count int) obj {
		return obj{"bufferView": view, "componentType": comp, "type": typ, "count": count}
	}
	sparse := acc(s.view([]float32{0.5, 0.5, 0, 0, 1, 0, 0, 0}), compFloat, "VEC4", 2)
	sparse["sparse"] = obj{"count": 1,
		"indices": obj{"bufferView": s.view([]uint8{1}), "componentType": compUbyte},
		"values":  obj{"bufferView": s.view([]float32{0.25, 0.75, 0, 0})}}
	accessors := []any{
		acc(s.view([]uint8{1, 2, 3, 4, 5, 6, 7, 8}), compUbyte, "VEC4", 2),
		acc(s.view([]uint16{1, 300, 3, 4, 5, 6, 7, 65535}), compUshort, "VEC4", 2),
		acc(s.view([]float32{0.5, 0.25, 0.25, 0, 1, 0, 0, 0}), compFloat, "VEC4", 2),
		acc(s.view([]uint8{255, 0, 51, 0, 0, 0, 0, 0}), compUbyte, "VEC4", 2),
		acc(s.view([]uint16{65535, 0, 13107, 0, 0, 0, 0, 0}), compUshort, "VEC4", 2),
		acc(s.view([]float32{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 4, 5, 6, 1}), compFloat, "MAT4", 1),
		sparse,
	}
	return read(t, document(t, obj{"accessors": accessors, "bufferViews": s.views}, s.b))
}

// TestSkinAccessorsReadEachComponentType: JOINTS_0 of unsigned bytes or
// shorts, WEIGHTS_0 of floats or of normalised bytes or shorts, MAT4
// inverse bind matrices column by column, sparse values replacing dense
// ones.
func TestSkinAccessorsReadEachComponentType(t *testing.T) {
	f := skinDoc(t)
	for _, tc := range []struct {
		accessor int32
		want     [][4]uint16
	}{
		{0, [][4]uint16{{1, 2, 3, 4}, {5, 6, 7, 8}}},
		{1, [][4]uint16{{1, 300, 3, 4}, {5, 6, 7, 65535}}},
	} {
		got := make([][4]uint16, 2)
		if err := readAs(f.Joints, tc.accessor, got, (*Accessor).ReadJoints); err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("joints %d: got %v (%v), want %v", tc.accessor, got, err, tc.want)
		}
	}
	for _, tc := range []struct {
		accessor int32
		want     [][4]float32
	}{
		{2, [][4]float32{{0.5, 0.25, 0.25, 0}, {1, 0, 0, 0}}},
		{3, [][4]float32{{1, 0, 0.2, 0}, {0, 0, 0, 0}}},
		{4, [][4]float32{{1, 0, 0.2, 0}, {0, 0, 0, 0}}},
		{6, [][4]float32{{0.5, 0.5, 0, 0}, {0.25, 0.75, 0, 0}}},
	} {
		got := make([][4]float32, 2)
		if err := readAs(f.Weights, tc.accessor, got, (*Accessor).ReadWeights); err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("weights %d: got %v (%v), want %v", tc.accessor, got, err, tc.want)
		}
	}
	got := make([]mgl64.Mat4, 1)
	if err := readAs(f.Matrices, 5, got, (*Accessor).ReadMatrices); err != nil || got[0] != mgl64.Translate3D(4, 5, 6) {
		t.Errorf("matrix: got %v (%v), want a translation by (4, 5, 6)", got[0], err)
	}
}

// TestSkinAccessorsRefuseOtherTypes: each skinning accessor is checked for
// its type and component type, and read only into room for its count.
func TestSkinAccessorsRefuseOtherTypes(t *testing.T) {
	f := skinDoc(t)
	tests := []struct {
		name string
		err  error
		says string
	}{
		{"floats as joints", readAs(f.Joints, 2, make([][4]uint16, 2), (*Accessor).ReadJoints), "JOINTS_0 is VEC4 of component type 5126"},
		{"a matrix as weights", readAs(f.Weights, 5, make([][4]float32, 1), (*Accessor).ReadWeights), "WEIGHTS_0 is MAT4"},
		{"weights as matrices", readAs(f.Matrices, 2, make([]mgl64.Mat4, 2), (*Accessor).ReadMatrices), "inverse bind matrices are VEC4"},
		{"an accessor that does not exist", readAs(f.Joints, 99, make([][4]uint16, 2), (*Accessor).ReadJoints), "accessor 99: out of range"},
		{"too little room", readAs(f.Joints, 0, make([][4]uint16, 1), (*Accessor).ReadJoints), "2 elements read into 1"},
	}
	for _, tc := range tests {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.says) {
			t.Errorf("%s: got %v, want an error saying %q", tc.name, tc.err, tc.says)
		}
	}
}

// readAs reads accessor i, checked by open, into out.
func readAs[T any](open func(int32) (Accessor, error), i int32, out []T, read func(*Accessor, []T) error) error {
	a, err := open(i)
	if err != nil {
		return err
	}
	return read(&a, out)
}

// TestReadRefusesMoreThanItsLimit: the file alone, or with the external
// buffers it names, may hold no more than the bytes Read is allowed.
func TestReadRefusesMoreThanItsLimit(t *testing.T) {
	b := document(t, obj{"nodes": []any{obj{}}}, make([]byte, 64))
	if _, err := Read(b, nil, int64(len(b))); err != nil {
		t.Errorf("at the limit: %v", err)
	}
	_, err := Read(b, nil, int64(len(b))-1)
	if !errors.Is(err, ErrTooBig) || !strings.Contains(err.Error(), "file: too big (the limit is") {
		t.Errorf("one byte over: got %v, want ErrTooBig", err)
	}
	fsys := fstest.MapFS{"hand.bin": {Data: make([]byte, 100)}}
	b = document(t, obj{"buffers": []any{obj{"uri": "hand.bin", "byteLength": 100}}}, nil)
	if _, err := Read(b, fsys, int64(len(b))+100); err != nil {
		t.Errorf("a buffer file at the limit: %v", err)
	}
	_, err = Read(b, fsys, int64(len(b))+99)
	if !errors.Is(err, ErrTooBig) || !strings.Contains(err.Error(), "buffer 0: hand.bin: too big") {
		t.Errorf("a buffer file one byte over: got %v, want ErrTooBig", err)
	}
}
