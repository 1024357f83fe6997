package env

import (
	"encoding/base64"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gloved/gloved/geom"
)

// obj is a JSON object being edited; at and its kin reach into one.
type obj = map[string]any

func at(d obj, table string, i int) obj { return d[table].([]any)[i].(obj) }

// set is an edit setting member k of element i of a table.
func set(table string, i int, k string, v any) func(obj) {
	return func(d obj) { at(d, table, i)[k] = v }
}

// cubeGLTF is the cube as a .gltf with its buffer in a data URI, after
// edit (nil for none). Node 0, "crate", holds mesh 0.
func cubeGLTF(edit func(d obj)) []byte {
	return gltfWith(cubeBin(), edit)
}

// gltfWith is a cube document over buffer bin, after edit.
func gltfWith(bin []byte, edit func(d obj)) []byte {
	d := obj{
		"asset":  obj{"version": "2.0"},
		"scenes": []any{obj{"nodes": []any{0}}},
		"nodes":  []any{obj{"name": "crate", "mesh": 0}},
		"meshes": []any{obj{"primitives": []any{obj{"attributes": obj{"POSITION": 0}, "indices": 1}}}},
		"buffers": []any{obj{"byteLength": len(bin),
			"uri": "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(bin)}},
		"bufferViews": []any{obj{"buffer": 0, "byteLength": 96}, obj{"buffer": 0, "byteOffset": 96, "byteLength": 72}},
		"accessors": []any{
			obj{"bufferView": 0, "componentType": 5126, "count": 8, "type": "VEC3"},
			obj{"bufferView": 1, "componentType": 5123, "count": 36, "type": "SCALAR"},
		},
	}
	if edit != nil {
		edit(d)
	}
	return jsonGLTF(d)
}

func TestLoadGLTFHostile(t *testing.T) {
	withSparse := func(d obj) {
		// 8 bytes of sparse indices (uint8: 99, ...) after the cube.
		at(d, "accessors", 0)["sparse"] = obj{"count": 1,
			"indices": obj{"bufferView": 1, "componentType": 5121, "byteOffset": 70},
			"values":  obj{"bufferView": 0}}
	}
	cases := []hostileCase{
		{"count2g.glb", cubeGLB(1<<31 - 1), "accessor 0: count 2147483647 needs 25.8 GB, buffer view 0 holds 96 bytes", 0},
		{"count133m.glb", cubeGLB(133_000_000), "accessor 0: count 133000000 needs 1.6 GB", 0},
		{"indices2g.gltf", cubeGLTF(set("accessors", 1, "count", 1<<31-1)), "accessor 1: count 2147483647 needs 4.3 GB", 0},
		{"bin2g.glb", bigBinGLB(), `truncated GLB: chunk 1 ("BIN\x00") declares 2147483648 bytes, 168 remain`, 0},
		{"buffer1g.glb", glb([]byte(cubeDoc(8, 1<<30)), cubeBin()), "buffer 0: byteLength 1073741824, the GLB's BIN chunk holds 168 bytes", 0},
		{"uri1k.gltf", cubeGLTF(set("buffers", 0, "byteLength", 1000)), "buffer 0: byteLength 1000, the data URI holds 168 bytes", 0},
		{"glbsize.glb", binary.LittleEndian.AppendUint32(cubeGLB(8)[:8:8], 1e6), "truncated GLB: 12 bytes, the headers alone take 20", 0},
		{"glblength.glb", func() []byte { b := cubeGLB(8); binary.LittleEndian.PutUint32(b[8:], 1e6); return b }(),
			"truncated GLB: the header declares 1000000 bytes, the file has 604", 0},
		{"zeros.gltf", cubeGLTF(func(d obj) { delete(at(d, "accessors", 0), "bufferView"); at(d, "accessors", 0)["count"] = 1<<31 - 1 }),
			`node 0 "crate": the scene expands to more than 51.5 GB of triangles from 684 bytes of file: too big`, 0},
		{"chain300k.glb", chainGLB(300_000, false), "", 12},
		{"chainmeshes.glb", chainGLB(300_000, true), "more than 16384 nodes with meshes: too big", 0},
		{"instances100k.glb", instancesGLB(100_000), "more than 16384 nodes with meshes: too big", 0},
		{"cycle.gltf", cubeGLTF(func(d obj) {
			d["nodes"] = []any{obj{"children": []any{1}}, obj{"mesh": 0, "children": []any{0}}}
		}), "node 1's child: node 0: appears twice in the node graph (cycle or shared child)", 0},
		{"shared.gltf", cubeGLTF(func(d obj) {
			d["nodes"] = []any{obj{"children": []any{2}}, obj{"children": []any{2}}, obj{"mesh": 0}}
			d["scenes"] = []any{obj{"nodes": []any{0, 1}}}
		}), "node 1's child: node 2: appears twice", 0},
		{"child.gltf", cubeGLTF(set("nodes", 0, "children", []any{7})), "node 0's child: node 7: out of range (1 nodes)", 0},
		{"scene.gltf", cubeGLTF(func(d obj) { d["scene"] = 3 }), "scene 3: out of range (1 scenes)", 0},
		{"stride.gltf", cubeGLTF(set("bufferViews", 0, "byteStride", 4)), "accessor 0: byteStride 4 is less than its 12-byte elements", 0},
		{"view.gltf", cubeGLTF(set("bufferViews", 0, "byteOffset", 100)), "buffer view 0: bytes 100 to 196, buffer 0 holds 168 bytes", 0},
		{"offset.gltf", cubeGLTF(set("accessors", 0, "byteOffset", 2)), "accessor 0: count 8 needs 98 bytes, buffer view 0 holds 96 bytes", 0},
		{"sparse.gltf", gltfWith(append(cubeBin()[:166], 99, 0), withSparse), "accessor 0: sparse index 0 is 99, the accessor has 8 elements", 0},
		{"index.gltf", cubeGLTF(set("accessors", 0, "count", 7)), `node 0 "crate" primitive 0: index 8 = 7: vertex index out of range (7 positions)`, 0},
		{"huge.gltf", cubeGLTF(set("accessors", 0, "count", 1e12)), "count: 1000000000000: want an integer from 0 to 2^31-1", 0},
		{"draco.gltf", cubeGLTF(func(d obj) { d["extensionsRequired"] = []any{"KHR_draco_mesh_compression"} }),
			"extensionsRequired: KHR_draco_mesh_compression, which gloved does not read", 0},
		{"instancing.gltf", cubeGLTF(func(d obj) { d["extensionsRequired"] = []any{"KHR_materials_unlit", "EXT_mesh_gpu_instancing"} }),
			"extensionsRequired: EXT_mesh_gpu_instancing, which gloved does not read", 0},
		{"unknown.gltf", cubeGLTF(func(d obj) { d["extensionsRequired"] = []any{"VENDOR_\x1b[2Jgeometry"} }),
			"extensionsRequired: VENDOR_?[2Jgeometry, which gloved does not read", 0},
		{"shading.gltf", cubeGLTF(func(d obj) {
			d["extensionsRequired"] = []any{"KHR_materials_unlit", "KHR_texture_transform", "KHR_lights_punctual", "EXT_texture_webp"}
		}), "", 12},
		{"parent.gltf", cubeGLTF(set("buffers", 0, "uri", "../secret.bin")), `buffer 0: uri "../secret.bin": not a file beside the document`, 0},
		{"http.gltf", cubeGLTF(set("buffers", 0, "uri", "http://example.com/x.bin")), "only data: URIs and files beside the document are read", 0},
		{"mode.gltf", cubeGLTF(func(d obj) { at(d, "meshes", 0)["primitives"].([]any)[0].(obj)["mode"] = 9 }), "mode 9: want 0 to 6", 0},
		{"version.gltf", cubeGLTF(func(d obj) { d["asset"] = obj{"version": "1.0"} }), `glTF asset version "1.0", want 2.x`, 0},
		{"json.gltf", []byte(`{"asset":{"version":"2.0"},"nodes":[{]}`), "glTF JSON: invalid character", 0},
	}
	loadHostile(t, cases)
}

func TestLoadGLTFChainPlacesTheLeaf(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "chain.glb")
	if err := os.WriteFile(p, chainGLB(300_000, false), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := Load(p, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// 299999 parents each move the leaf 1 mm in x.
	b := bounds(m)
	if want := 299.999; math.Abs(b.Min.X-want) > 1e-6 || math.Abs(b.Max.X-want-1) > 1e-6 {
		t.Fatalf("leaf spans x %v..%v, want %v..%v", b.Min.X, b.Max.X, want, want+1)
	}
}

func TestLoadGLTFExternalBuffer(t *testing.T) {
	dir := t.TempDir()
	bin := cubeBin()
	if err := os.WriteFile(filepath.Join(dir, "cube data.bin"), append(bin, 1, 2, 3), 0o644); err != nil {
		t.Fatal(err)
	}
	doc := gltfWith(bin, func(d obj) { at(d, "buffers", 0)["uri"] = "cube%20data.bin" })
	p := filepath.Join(dir, "cube.gltf")
	if err := os.WriteFile(p, doc, 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := Load(p, LoadOptions{})
	if err != nil || len(m.Tris) != 12 {
		t.Fatalf("got %v, want 12 triangles", err)
	}
	at := func(d obj) { at(d, "buffers", 0)["uri"] = "cube%20data.bin"; at(d, "buffers", 0)["byteLength"] = 1000 }
	if err := os.WriteFile(p, gltfWith(bin, at), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(p, LoadOptions{}); err == nil || !strings.Contains(err.Error(), "byteLength 1000, cube data.bin holds 171 bytes") {
		t.Fatalf("got %v, want the file's size named", err)
	}
}

// validGLTFs are documents both this reader and qmuntal/gltf must read
// alike: every primitive mode and index type, strides, sparse positions,
// node matrices and rotations, and scenes chosen every way.
func validGLTFs() map[string][]byte {
	idx8 := make([]byte, 0, 36)
	idx32 := make([]byte, 0, 144)
	for i := 0; i < 72; i += 2 {
		v := binary.LittleEndian.Uint16(cubeBin()[96+i:])
		idx8 = append(idx8, byte(v))
		idx32 = binary.LittleEndian.AppendUint32(idx32, uint32(v))
	}
	// Positions 16 bytes apart, then uint32 indices.
	var strided []byte
	for i := range 8 {
		strided = append(strided, cubeBin()[12*i:12*i+12]...)
		strided = append(strided, 0xde, 0xad, 0xbe, 0xef)
	}
	strided = append(strided, idx32...)
	prim := func(d obj) obj { return at(d, "meshes", 0)["primitives"].([]any)[0].(obj) }
	return map[string][]byte{
		"crate.gltf": mustRead(scenes + "crate.gltf"),
		"crate.glb":  mustRead(scenes + "crate.glb"),
		"strip.gltf": cubeGLTF(func(d obj) { prim(d)["mode"] = 5 }),
		"fan.gltf":   cubeGLTF(func(d obj) { prim(d)["mode"] = 6 }),
		"points.gltf": cubeGLTF(func(d obj) {
			at(d, "meshes", 0)["primitives"] = append(at(d, "meshes", 0)["primitives"].([]any), obj{"attributes": obj{"POSITION": 0}, "mode": 0})
		}),
		"unindexed.gltf": cubeGLTF(func(d obj) { delete(prim(d), "indices") }),
		"uint8.gltf": gltfWith(append(cubeBin()[:96], idx8...), func(d obj) {
			at(d, "bufferViews", 1)["byteLength"] = 36
			at(d, "accessors", 1)["componentType"] = 5121
		}),
		"stride.gltf": gltfWith(strided, func(d obj) {
			d["bufferViews"] = []any{obj{"buffer": 0, "byteLength": 128, "byteStride": 16}, obj{"buffer": 0, "byteOffset": 128, "byteLength": 144}}
			at(d, "accessors", 1)["componentType"] = 5125
		}),
		"sparse.gltf": gltfWith(append(cubeBin(), 3, 0, 0, 0, 0, 0, 0, 0x40, 0, 0, 0, 0x40, 0, 0, 0, 0x40), func(d obj) {
			d["bufferViews"] = append(d["bufferViews"].([]any), obj{"buffer": 0, "byteOffset": 168, "byteLength": 16})
			at(d, "accessors", 0)["sparse"] = obj{"count": 1,
				"indices": obj{"bufferView": 2, "componentType": 5121},
				"values":  obj{"bufferView": 2, "byteOffset": 4}}
		}),
		"mirror.gltf": cubeGLTF(set("nodes", 0, "scale", []any{-1, 1, 1})),
		"matrix.gltf": cubeGLTF(set("nodes", 0, "matrix", []any{0, 1, 0, 0, -2, 0, 0, 0, 0, 0, 3, 0, 5, 6, 7, 1})),
		"rotation.gltf": cubeGLTF(func(d obj) {
			at(d, "nodes", 0)["rotation"] = []any{0, math.Sqrt2 / 2, 0, math.Sqrt2 / 2}
			at(d, "nodes", 0)["scale"] = []any{1, 2, 3}
			at(d, "nodes", 0)["translation"] = []any{-1, 0.5, 4}
		}),
		"noscene.gltf": cubeGLTF(func(d obj) {
			delete(d, "scenes")
			d["nodes"] = []any{obj{"mesh": 0, "translation": []any{2, 0, 0}}, obj{"name": "b", "mesh": 0, "children": []any{0}}, obj{"mesh": 0}}
		}),
		"scene1.gltf": cubeGLTF(func(d obj) {
			d["scenes"] = []any{obj{"nodes": []any{0}}, obj{"nodes": []any{1}}}
			d["scene"] = 1
			d["nodes"] = []any{obj{"mesh": 0}, obj{"name": "second", "mesh": 0, "scale": []any{2, 2, 2}}}
		}),
	}
}

func TestReadGLTFMatchesLibrary(t *testing.T) {
	dir := t.TempDir()
	for name, b := range validGLTFs() {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := readGLTF(b, os.DirFS(dir))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		want, err := oracleGLTF(p)
		if err != nil {
			t.Errorf("%s: the library: %v", name, err)
			continue
		}
		if len(got.Tris) == 0 {
			t.Errorf("%s: no triangles", name)
		}
		sameTriangles(t, name, got, want, 1e-9)
	}
}

// sameTriangles checks that two meshes have the same triangles, corner
// by corner within tol, in the same objects.
func sameTriangles(t *testing.T, name string, got, want *Mesh, tol float64) {
	t.Helper()
	if len(got.Tris) != len(want.Tris) {
		t.Errorf("%s: got %d triangles, want %d", name, len(got.Tris), len(want.Tris))
		return
	}
	for i := range got.Tris {
		g, w := got.Triangle(i), want.Triangle(i)
		for k := range g {
			if g[k].Sub(w[k]).Len() > tol*(1+w[k].Len()) {
				t.Errorf("%s: triangle %d corner %d: got %v, want %v", name, i, k, g[k], w[k])
				return
			}
		}
		if got.ObjectName(i) != want.ObjectName(i) {
			t.Errorf("%s: triangle %d: object %q, want %q", name, i, got.ObjectName(i), want.ObjectName(i))
			return
		}
	}
}

// FuzzReadGLTF: any bytes either fail with an error or give a mesh whose
// indices are in range and whose coordinates are finite, allocating no
// more than the loader's bound.
func FuzzReadGLTF(f *testing.F) {
	for _, name := range []string{"crate.glb", "crate.gltf", "bad_index.gltf"} {
		f.Add(mustRead(filepath.Join(scenes, name)))
	}
	for _, b := range validGLTFs() {
		f.Add(b)
	}
	f.Add(cubeGLB(8))
	f.Add(chainGLB(4, true))
	f.Add(instancesGLB(3))
	f.Fuzz(func(t *testing.T, b []byte) {
		var m *Mesh
		var err error
		alloc := roughAlloc(func() { m, err = readGLTF(b, nil) })
		if limit := hostileAlloc(len(b)) + meshBytesSlack; alloc > limit {
			t.Fatalf("%d bytes allocated for %d bytes of file, more than %d", alloc, len(b), limit)
		}
		if err == nil {
			checkMesh(t, m)
		}
	})
}

// TestLoadGLTFMirroredNodeKeepsFrontFaces: glTF 2.0 has a node whose
// world transform has a negative determinant reverse its triangles'
// winding, so a mirrored mesh keeps the front faces it was drawn with.
// The cube [0,1]³ mirrored by a scale, by a matrix, or by a mirroring
// parent over a mirroring child (which cancel), has every triangle's
// normal pointing out of the cube it lands on, as the unmirrored cube
// does.
func TestLoadGLTFMirroredNodeKeepsFrontFaces(t *testing.T) {
	transforms := map[string]func(d obj){
		"none":       nil,
		"scale -x":   set("nodes", 0, "scale", []any{-1, 1, 1}),
		"scale -xyz": set("nodes", 0, "scale", []any{-2, -1, -3}),
		"matrix":     set("nodes", 0, "matrix", []any{0, 1, 0, 0, 2, 0, 0, 0, 0, 0, 3, 0, 5, 6, 7, 1}),
		"two mirrors": func(d obj) {
			at(d, "nodes", 0)["scale"] = []any{1, -1, 1}
			d["nodes"] = append(d["nodes"].([]any), obj{"scale": []any{1, 1, -1}, "children": []any{0}})
			d["scenes"] = []any{obj{"nodes": []any{1}}}
		},
	}
	for name, edit := range transforms {
		m, err := readGLTF(cubeGLTF(edit), os.DirFS(t.TempDir()))
		if err != nil || len(m.Tris) != 12 {
			t.Fatalf("%s: %v, want 12 triangles", name, err)
		}
		b := bounds(m)
		centre := b.Min.Add(b.Max).Mul(0.5)
		for i := range m.Tris {
			tri := m.Triangle(i)
			if out := tri.Centroid().Sub(centre); tri.Normal().Dot(out) <= 0 {
				t.Errorf("%s: triangle %d %v faces into the cube (normal %v)", name, i, tri, tri.Normal())
			}
		}
	}

	// One triangle of a table top, symmetric about x = 0: mirrored in x
	// it lands on itself and must face the way it did, in every mode.
	bin := make([]byte, 0, 36)
	for _, v := range []float32{-0.1, 0.02, -0.1, 0.1, 0.02, -0.1, 0, 0.02, 0.1} {
		bin = binary.LittleEndian.AppendUint32(bin, math.Float32bits(v))
	}
	top := func(mode int, scale []any) geom.Vec3 {
		doc := jsonGLTF(obj{
			"asset":       obj{"version": "2.0"},
			"scenes":      []any{obj{"nodes": []any{0}}},
			"nodes":       []any{obj{"name": "top", "mesh": 0, "scale": scale}},
			"meshes":      []any{obj{"primitives": []any{obj{"attributes": obj{"POSITION": 0}, "mode": mode}}}},
			"buffers":     []any{obj{"byteLength": 36, "uri": "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(bin)}},
			"bufferViews": []any{obj{"buffer": 0, "byteLength": 36}},
			"accessors":   []any{obj{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3"}},
		})
		m, err := readGLTF(doc, os.DirFS(t.TempDir()))
		if err != nil || len(m.Tris) != 1 {
			t.Fatalf("mode %d scale %v: %v, want 1 triangle", mode, scale, err)
		}
		return m.Triangle(0).Normal()
	}
	for _, mode := range []int{4, 5, 6} { // triangles, strip, fan
		plain, mirrored := top(mode, []any{1, 1, 1}), top(mode, []any{-1, 1, 1})
		if mirrored.Sub(plain).Len() > 1e-9 {
			t.Errorf("mode %d: mirrored in x the triangle's normal is %v, want the unmirrored %v", mode, mirrored, plain)
		}
	}
}
