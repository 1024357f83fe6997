package env

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/go-gl/mathgl/mgl64"
)

// The glTF reader decodes the document itself rather than through
// qmuntal/gltf v0.28.0, which stays as the tests' reference on valid
// files: that library makes an accessor's slice from its declared count
// before it looks at the buffer (a 612-byte file asking for 2^31-1
// positions runs the process out of memory, one asking for 133 million
// costs 1.6 GB and 14 s), makes a GLB's buffer from its declared byteLength
// before reading it, and indexes sparse accessors unchecked. Here only the
// members that carry geometry are decoded, each table made once at its
// length in records of at most 40 bytes, and every count and offset is
// checked against the bytes present before anything is read from them
// (gltf_accessor.go).
//
// Source: the glTF 2.0 specification, sections 3.5-3.7 (nodes, binary data)
// and 4.4 (GLB). https://registry.khronos.org/glTF/specs/2.0/glTF-2.0.html

// gltfDoc is the geometry-carrying part of a glTF 2.0 document. Indices
// are int32, -1 for none; every length and offset fits an int32 because no
// file may exceed maxFileBytes.
type gltfDoc struct {
	version   string
	scene     int32
	scenes    []span // root nodes, in ints
	nodes     []gltfNode
	meshes    []gltfMesh
	prims     []gltfPrimitive
	accessors []gltfAccessor
	views     []gltfView
	buffers   []gltfBuffer
	ints      []int32 // scene roots and node children
}

// span is a run of a gltfDoc's ints or prims.
type span struct{ start, n int32 }

func (d *gltfDoc) list(s span) []int32 { return d.ints[s.start : s.start+s.n] }

type gltfNode struct {
	name     string
	local    *mgl64.Mat4 // nil for the identity
	mesh     int32
	children span
}

type gltfMesh struct {
	name  string
	prims span
}

type gltfPrimitive struct{ position, indices, mode int32 }

type gltfAccessor struct {
	view, offset, count, comp int32
	typ                       int8 // in gltfTypes, or -1
	sparse                    *gltfSparse
}

type gltfSparse struct {
	count, indexView, indexOffset, indexComp, valueView, valueOffset int32
}

type gltfView struct{ buffer, offset, length, stride int32 }

type gltfBuffer struct {
	uri    string
	length int32
}

// gltfTypes are the accessor types.
var gltfTypes = []string{"SCALAR", "VEC2", "VEC3", "VEC4", "MAT2", "MAT3", "MAT4"}

const (
	gltfScalar = 0
	gltfVec3   = 2
)

func (a *gltfAccessor) typeName() string {
	if a.typ < 0 {
		return "an unknown type"
	}
	return gltfTypes[a.typ]
}

// decodeGLTF decodes a glTF document's JSON.
func decodeGLTF(js []byte) (*gltfDoc, error) {
	if !json.Valid(js) {
		var v struct{}
		return nil, fmt.Errorf("glTF JSON: %w", json.Unmarshal(js, &v))
	}
	d := &gltfDoc{scene: -1}
	ints, prims := arenaSizes(js)
	d.ints, d.prims = make([]int32, 0, ints), make([]gltfPrimitive, 0, prims)
	err := eachMember(js, func(k, v []byte) error {
		var err error
		switch string(k) {
		case "asset":
			err = eachMember(v, func(k, v []byte) (err error) {
				if string(k) == "version" {
					d.version, err = jsonString(v)
				}
				return err
			})
		case "extensionsRequired":
			err = eachElement(v, func(_ int, e []byte) error {
				if ext, _ := jsonString(e); slices.Contains(gltfUnread, ext) {
					return fmt.Errorf("%s, which gloved does not read", ext)
				}
				return nil
			})
		case "scene":
			d.scene, err = jsonInt(v)
		case "scenes":
			d.scenes, err = decodeTable(v, "scene", d.decodeScene)
		case "nodes":
			d.nodes, err = decodeTable(v, "node", d.decodeNode)
		case "meshes":
			d.meshes, err = decodeTable(v, "mesh", d.decodeMesh)
		case "accessors":
			d.accessors, err = decodeTable(v, "accessor", decodeAccessor)
		case "bufferViews":
			d.views, err = decodeTable(v, "buffer view", decodeView)
		case "buffers":
			d.buffers, err = decodeTable(v, "buffer", decodeBuffer)
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("glTF JSON: %w", err)
	}
	return d, nil
}

// arenaSizes counts the scene roots and node children, and the mesh
// primitives, so that their arenas are made once.
func arenaSizes(js []byte) (ints, prims int) {
	count := func(table []byte, member string) (n int) {
		eachElement(table, func(_ int, e []byte) error {
			return eachMember(e, func(k, v []byte) error {
				if string(k) == member {
					c, _ := countElements(v)
					n += c
				}
				return nil
			})
		})
		return n
	}
	eachMember(js, func(k, v []byte) error {
		switch string(k) {
		case "scenes":
			ints += count(v, "nodes")
		case "nodes":
			ints += count(v, "children")
		case "meshes":
			prims += count(v, "primitives")
		}
		return nil
	})
	return ints, prims
}

// decodeTable decodes a JSON array of objects into a slice made at its
// length.
func decodeTable[T any](v []byte, what string, f func(v []byte, e *T) error) ([]T, error) {
	n, err := countElements(v)
	if err != nil {
		return nil, err
	}
	out := make([]T, n)
	err = eachElement(v, func(i int, e []byte) error {
		if err := f(e, &out[i]); err != nil {
			return fmt.Errorf("%s %d: %w", what, i, err)
		}
		return nil
	})
	return out, err
}
