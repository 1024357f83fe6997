package env

import (
	"github.com/gloved/gloved/gltfdoc"
	"github.com/gloved/gloved/internal/userfile"
)

// What a mesh file may make a loader do. Every count, offset and length a
// file declares is checked against the bytes actually present before
// anything is allocated from it, and the mesh a file expands to is checked
// against these limits before its arrays are made. Together they bound what
// loading costs by a small multiple of the bytes read; the loaders' tests
// measure it.
const (
	// maxFileBytes bounds a mesh file and the external buffers it names.
	maxFileBytes = 1 << 30
	// maxObjects bounds the objects a file may hold: each costs a convex
	// hull at load, about 16 µs and 10 KB, however small it is.
	maxObjects = 1 << 14
	// A glTF node instances a mesh in a few bytes, and an accessor without
	// a buffer view stands for any number of zeros: the mesh a scene
	// expands to (meshBytes) may take meshBytesPerByte bytes per byte read
	// plus meshBytesSlack.
	meshBytesPerByte = 16
	meshBytesSlack   = 16 << 20
)

// ErrTooBig is wrapped by errors for files, and scenes they expand to,
// beyond the limits above. It is package userfile's, which opens every
// file a user names, and package gltfdoc's, which reads glTF files and the
// buffers they name within maxFileBytes.
var ErrTooBig = gltfdoc.ErrTooBig

// meshFile is what a mesh file may be: a regular file of at most
// maxFileBytes.
var meshFile = userfile.Kind{Name: "a mesh file (.obj, .stl, .gltf or .glb)", MaxBytes: maxFileBytes}

// meshBytes is what the arrays of a mesh of v vertices and t triangles
// take: a Vec3 per vertex, three int32 corners and an int32 object per
// triangle.
func meshBytes(v, t int64) int64 { return 24*v + 16*t }

// meshBudget is the most meshBytes a file of n bytes may expand to.
func meshBudget(n int64) int64 { return meshBytesPerByte*n + meshBytesSlack }
