// Package gltfdoc reads glTF 2.0 documents (.gltf JSON and GLB) from
// outside, which may be hostile: the scenes package env loads, and the
// skinned hands package handmodel poses. It decodes what carries geometry
// and skinning (scenes, the node graph and its transforms, meshes and
// their primitives' POSITION, indices, JOINTS_0 and WEIGHTS_0, skins and
// their inverse bind matrices, accessors, buffer views, buffers) and
// skips the rest.
//
// It decodes the document itself rather than through qmuntal/gltf v0.28.0,
// which stays as the tests' reference on valid files: that library makes
// an accessor's slice from its declared count before it looks at the
// buffer (a 612-byte file asking for 2^31-1 positions runs the process out
// of memory, one asking for 133 million costs 1.6 GB and 14 s), makes a
// GLB's buffer from its declared byteLength before reading it, and indexes
// sparse accessors unchecked. Here each table is made once at its length,
// in records of at most 40 bytes, and every count and offset is checked
// against the bytes present before anything is read from them
// (accessor.go). The JSON is walked in place (json.go), the node graph
// iteratively whatever its depth (walk.go).
//
// Source: the glTF 2.0 specification (Khronos Group), sections 3.5-3.7
// (nodes, binary data, meshes and skins) and 4.4 (GLB).
// https://registry.khronos.org/glTF/specs/2.0/glTF-2.0.html
package gltfdoc
