package env

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"
	"time"
)

// Hostile and edge-case files are built here rather than committed: each
// is a few lines that say what is wrong with it.

// cubeBin is the crate's cube: 8 float VEC3 positions then 36 uint16
// indices, 168 bytes.
func cubeBin() []byte {
	var b bytes.Buffer
	for i := range 8 {
		p := [3]float32{float32(i & 1), float32(i >> 1 & 1), float32(i >> 2 & 1)}
		binary.Write(&b, binary.LittleEndian, p)
	}
	faces := []uint16{0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4, 2, 6, 7, 2, 7, 3, 0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5}
	binary.Write(&b, binary.LittleEndian, faces)
	return b.Bytes()
}

// glb packs a JSON chunk and an optional BIN chunk into a GLB container.
func glb(doc []byte, bin []byte) []byte {
	pad := func(b []byte, c byte) []byte {
		for len(b)%4 != 0 {
			b = append(b, c)
		}
		return b
	}
	doc, bin = pad(bytes.Clone(doc), ' '), pad(bytes.Clone(bin), 0)
	n := 12 + 8 + len(doc)
	if bin != nil {
		n += 8 + len(bin)
	}
	out := binary.LittleEndian.AppendUint32([]byte("glTF"), 2)
	out = binary.LittleEndian.AppendUint32(out, uint32(n))
	out = binary.LittleEndian.AppendUint32(out, uint32(len(doc)))
	out = append(append(out, "JSON"...), doc...)
	if bin != nil {
		out = binary.LittleEndian.AppendUint32(out, uint32(len(bin)))
		out = append(append(out, "BIN\x00"...), bin...)
	}
	return out
}

// cubeDoc is a one-node scene of the cube whose position accessor claims
// count positions in a buffer that claims bufLen bytes.
func cubeDoc(count, bufLen int64) string {
	return fmt.Sprintf(`{"asset":{"version":"2.0"},"scenes":[{"nodes":[0]}],"nodes":[{"mesh":0}],`+
		`"meshes":[{"primitives":[{"attributes":{"POSITION":0},"indices":1}]}],`+
		`"buffers":[{"byteLength":%d}],`+
		`"bufferViews":[{"buffer":0,"byteLength":96},{"buffer":0,"byteOffset":96,"byteLength":72}],`+
		`"accessors":[{"bufferView":0,"componentType":5126,"count":%d,"type":"VEC3"},`+
		`{"bufferView":1,"componentType":5123,"count":36,"type":"SCALAR"}]}`, bufLen, count)
}

// cubeGLB is cubeDoc with the real 168 bytes in its BIN chunk.
func cubeGLB(count int64) []byte { return glb([]byte(cubeDoc(count, 168)), cubeBin()) }

// bigBinGLB declares a 2 GiB buffer in a BIN chunk whose header claims
// 2 GiB but which holds 168 bytes.
func bigBinGLB() []byte {
	out := glb([]byte(cubeDoc(8, 1<<31)), cubeBin())
	binary.LittleEndian.PutUint32(out[len(out)-168-8:], 1<<31)
	return out
}

// chainGLB is n nodes, each the only child of the one before and moved
// by 1 mm in x, with the cube on the last, or on every node if meshes.
func chainGLB(n int, meshes bool) []byte {
	mesh := ""
	if meshes {
		mesh = `"mesh":0,`
	}
	var b strings.Builder
	b.WriteString(`{"asset":{"version":"2.0"},"scenes":[{"nodes":[0]}],"nodes":[`)
	for i := range n - 1 {
		fmt.Fprintf(&b, `{%s"translation":[0.001,0,0],"children":[%d]},`, mesh, i+1)
	}
	b.WriteString(`{"mesh":0}],` + cubeTail)
	return glb([]byte(b.String()), cubeBin())
}

// cubeTail ends a document whose mesh 0 is the cube in a GLB's BIN chunk.
const cubeTail = `"meshes":[{"primitives":[{"attributes":{"POSITION":0},"indices":1}]}],` +
	`"buffers":[{"byteLength":168}],` +
	`"bufferViews":[{"buffer":0,"byteLength":96},{"buffer":0,"byteOffset":96,"byteLength":72}],` +
	`"accessors":[{"bufferView":0,"componentType":5126,"count":8,"type":"VEC3"},` +
	`{"bufferView":1,"componentType":5123,"count":36,"type":"SCALAR"}]}`

// instancesGLB places the cube n times, each node its own root.
func instancesGLB(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"asset":{"version":"2.0"},"nodes":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"mesh":0}`)
	}
	b.WriteString(`],` + cubeTail)
	return glb([]byte(b.String()), cubeBin())
}

// jsonGLTF returns v as a .gltf document.
func jsonGLTF(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// stlBinary writes a binary STL of the given triangles (9 floats each)
// under an 80-byte header, declaring count triangles.
func stlBinary(header string, count uint32, tris [][9]float32) []byte {
	h := make([]byte, 80)
	copy(h, header)
	b := binary.LittleEndian.AppendUint32(h, count)
	for _, t := range tris {
		b = append(b, make([]byte, 12)...) // normal
		for _, f := range t {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(f))
		}
		b = append(b, 0, 0)
	}
	return b
}

// stlCube is the unit cube's 12 triangles.
func stlCube() [][9]float32 {
	var tris [][9]float32
	idx := cubeBin()[96:]
	for t := range 12 {
		var tri [9]float32
		for k := range 3 {
			i := binary.LittleEndian.Uint16(idx[2*(3*t+k):])
			tri[3*k], tri[3*k+1], tri[3*k+2] = float32(i&1), float32(i>>1&1), float32(i>>2&1)
		}
		tris = append(tris, tri)
	}
	return tris
}

// hostileAlloc is what loading a hostile file of n bytes may allocate:
// 16 bytes per byte to read and check it, 16 more for the mesh it may
// expand to (meshBytesPerByte), and 1 MiB for the runtime and the test.
// Files that expand further than that are refused (ErrTooBig).
func hostileAlloc(n int) uint64 { return 32*uint64(n) + 1<<20 }

// measure returns the bytes f allocates (runtime.MemStats.TotalAlloc:
// cumulative, so garbage counts as much as what f keeps) and how long it
// takes.
func measure(f func()) (uint64, time.Duration) {
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	t0 := time.Now()
	f()
	d := time.Since(t0)
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc, d
}

// roughAlloc is measure's byte count read through runtime/metrics, which
// does not stop the world: four times cheaper, so that fuzzing can afford
// it on every input, but blind to what each P's cache has handed out since
// it last refilled (a few spans), which is noise against the bound.
func roughAlloc(f func()) uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	a := s[0].Value.Uint64()
	f()
	metrics.Read(s)
	return s[0].Value.Uint64() - a
}

// hostileCase is a crafted file and what loading it must do: fail with an
// error saying want, or (want "") load tris triangles.
type hostileCase struct {
	name string // the file's name, whose extension picks the format
	b    []byte
	want string
	tris int
}

// loadHostile writes each case to a file, loads it, and checks the error
// or the triangle count and the memory allocated; the time taken is
// logged, not asserted (speed is measured, in benchmarks and these logs).
func loadHostile(t *testing.T, cases []hostileCase) {
	t.Helper()
	dir := t.TempDir()
	for _, tc := range cases {
		p := filepath.Join(dir, tc.name)
		if err := os.WriteFile(p, tc.b, 0o644); err != nil {
			t.Fatal(err)
		}
		var m *Mesh
		var err error
		alloc, d := measure(func() { m, err = Load(p, LoadOptions{}) })
		t.Logf("%s: %d bytes, allocated %d (%.1f×) in %v", tc.name, len(tc.b), alloc, float64(alloc)/float64(len(tc.b)), d.Round(time.Microsecond))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want == "" && len(m.Tris) != tc.tris:
			t.Errorf("%s: got %d triangles, want %d", tc.name, len(m.Tris), tc.tris)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.name)):
			t.Errorf("%s: got error %v, want one naming the file and saying %q", tc.name, err, tc.want)
		}
		if alloc > hostileAlloc(len(tc.b)) {
			t.Errorf("%s: allocated %d bytes, more than %d for %d bytes of file", tc.name, alloc, hostileAlloc(len(tc.b)), len(tc.b))
		}
	}
}

// mustRead reads a test file.
func mustRead(path string) []byte {
	b, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	return b
}

func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// checkMesh checks what every loader promises of the mesh it returns.
func checkMesh(t *testing.T, m *Mesh) {
	t.Helper()
	for _, v := range m.Verts {
		if !v.Finite() {
			t.Fatalf("non-finite vertex %v", v)
		}
	}
	if len(m.Object) != len(m.Tris) {
		t.Fatalf("%d triangles, %d object indices", len(m.Tris), len(m.Object))
	}
	for i, tri := range m.Tris {
		for _, k := range tri {
			if k < 0 || int(k) >= len(m.Verts) {
				t.Fatalf("triangle %d index %d out of range", i, k)
			}
		}
		if m.Object[i] < 0 || int(m.Object[i]) >= len(m.Objects) {
			t.Fatalf("triangle %d object out of range", i)
		}
	}
}
