package gltfdoc

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/gloved/gloved/internal/printable"
	"github.com/go-gl/mathgl/mgl64"
)

// File is a glTF 2.0 document as Read decodes it: the members that carry
// geometry and skinning, and its buffers' bytes. Its tables are read-only.
// Indices are int32, -1 for none. A reference is checked where it is
// followed (Walk, the accessor methods) or, for the tables exported here,
// by the caller, so a File may name nodes, meshes or accessors that do not
// exist; every length and offset fits an int32.
type File struct {
	Nodes  []Node
	Meshes []Mesh
	Skins  []Skin

	version   string
	scene     int32
	scenes    []span // root nodes, in ints
	prims     []Primitive
	accessors []accessorDecl
	views     []viewDecl
	buffers   []bufferDecl
	ints      []int32 // scene roots, node children and skin joints

	bufs  [][]byte
	read  int64 // bytes read: the file and the external buffers it names
	files map[string][]byte
}

// span is a run of a File's ints or prims.
type span struct{ start, n int32 }

func (f *File) list(s span) []int32 { return f.ints[s.start : s.start+s.n] }

// A Node is an element of the node graph.
type Node struct {
	Name     string
	Local    *mgl64.Mat4 // its transform below its parent; nil for the identity
	Mesh     int32
	Skin     int32
	children span
}

// A Mesh is a named list of primitives.
type Mesh struct {
	Name  string
	prims span
}

// A Primitive is a mesh's part of one mode; its members are accessor
// indices.
type Primitive struct {
	Position, Indices, Joints, Weights int32 // POSITION, indices, JOINTS_0, WEIGHTS_0
	Mode                               int32
}

// A Skin is the joints (nodes) that move a skinned mesh, and the accessor
// of their inverse bind matrices.
type Skin struct {
	InverseBind int32
	joints      span
}

// Children returns node n's children, unchecked.
func (f *File) Children(n int32) []int32 { return f.list(f.Nodes[n].children) }

// Primitives returns mesh m's primitives.
func (f *File) Primitives(m int32) []Primitive {
	s := f.Meshes[m].prims
	return f.prims[s.start : s.start+s.n]
}

// SkinJoints returns skin s's joint nodes, unchecked.
func (f *File) SkinJoints(s int32) []int32 { return f.list(f.Skins[s].joints) }

// The declarations of a document's binary data, as written.
type (
	accessorDecl struct {
		view, offset, count, comp int32
		typ                       int8 // in accessorTypes, or -1
		sparse                    *sparseDecl
	}
	sparseDecl struct {
		count, indexView, indexOffset, indexComp, valueView, valueOffset int32
	}
	viewDecl   struct{ buffer, offset, length, stride int32 }
	bufferDecl struct {
		uri    string
		length int32
	}
)

// accessorTypes are the accessor types.
var accessorTypes = []string{"SCALAR", "VEC2", "VEC3", "VEC4", "MAT2", "MAT3", "MAT4"}

const (
	typeScalar = 0
	typeVec3   = 2
	typeVec4   = 3
	typeMat4   = 6
)

func (a *accessorDecl) typeName() string {
	if a.typ < 0 {
		return "an unknown type"
	}
	return accessorTypes[a.typ]
}

// ignorable are the required extensions that leave a file's geometry as
// the core specification reads it: materials, textures, lights, metadata.
// A file that requires any other (Draco or meshopt compression,
// quantized positions, GPU instancing, an extension unknown to gloved)
// may hold geometry that reading without it would get wrong, so it is
// refused.
var ignorable = []string{
	"KHR_texture_transform", "KHR_texture_basisu", "EXT_texture_webp", "EXT_texture_avif",
	"KHR_lights_punctual", "KHR_xmp_json_ld", "KHR_materials_variants",
}

// ignorablePrefix: every KHR_materials_ extension changes only shading.
const ignorablePrefix = "KHR_materials_"

// decode decodes a glTF document's JSON into f.
func (f *File) decode(js []byte) error {
	if !json.Valid(js) {
		var v struct{}
		return fmt.Errorf("glTF JSON: %w", json.Unmarshal(js, &v))
	}
	f.scene = -1
	ints, prims := arenaSizes(js)
	f.ints, f.prims = make([]int32, 0, ints), make([]Primitive, 0, prims)
	err := eachMember(js, func(k, v []byte) error {
		var err error
		switch string(k) {
		case "asset":
			err = eachMember(v, func(k, v []byte) (err error) {
				if string(k) == "version" {
					f.version, err = jsonString(v)
				}
				return err
			})
		case "extensionsRequired":
			err = eachElement(v, func(_ int, e []byte) error {
				ext, err := jsonString(e)
				if err != nil {
					return err
				}
				if !slices.Contains(ignorable, ext) && !strings.HasPrefix(ext, ignorablePrefix) {
					return fmt.Errorf("%.80s, which gloved does not read (it reads core glTF 2.0 geometry: export without it)", printable.String(ext))
				}
				return nil
			})
		case "scene":
			f.scene, err = jsonInt(v)
		case "scenes":
			f.scenes, err = decodeTable(v, "scene", f.decodeScene)
		case "nodes":
			f.Nodes, err = decodeTable(v, "node", f.decodeNode)
		case "meshes":
			f.Meshes, err = decodeTable(v, "mesh", f.decodeMesh)
		case "skins":
			f.Skins, err = decodeTable(v, "skin", f.decodeSkin)
		case "accessors":
			f.accessors, err = decodeTable(v, "accessor", decodeAccessor)
		case "bufferViews":
			f.views, err = decodeTable(v, "buffer view", decodeView)
		case "buffers":
			f.buffers, err = decodeTable(v, "buffer", decodeBuffer)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("glTF JSON: %w", err)
	}
	return nil
}

// arenaSizes counts the scene roots, node children and skin joints, and
// the mesh primitives, so that their arenas are made once.
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
		case "skins":
			ints += count(v, "joints")
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
