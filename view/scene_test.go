package view

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/gloved/gloved/env"
	"github.com/gloved/gloved/geom"
)

// sceneObjectsByScanning is SceneObjects as it was, the slow reference: a
// pass over every triangle, and every vertex reset, per object.
func sceneObjectsByScanning(m *env.Mesh) []Mesh {
	out := make([]Mesh, len(m.Objects))
	remap := make([]int32, len(m.Verts))
	for o := range out {
		out[o].Name = m.Objects[o]
		for i := range remap {
			remap[i] = -1
		}
		for i, t := range m.Tris {
			if int(m.Object[i]) != o {
				continue
			}
			for _, v := range t {
				if remap[v] < 0 {
					remap[v] = int32(len(out[o].Positions) / 3)
					p := m.Verts[v]
					out[o].Positions = append(out[o].Positions, float32(p.X), float32(p.Y), float32(p.Z))
				}
				out[o].Indices = append(out[o].Indices, remap[v])
			}
		}
	}
	return out
}

// TestSceneObjectsAreEachObjectsOwnMesh: each object's mesh, as the page
// gets it, is what a scan of the whole scene per object makes, on scenes
// whose objects interleave their triangles and share vertices.
func TestSceneObjectsAreEachObjectsOwnMesh(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for range 20 {
		m := &env.Mesh{}
		for range 50 {
			m.Verts = append(m.Verts, geom.Vec3{X: r.Float64(), Y: r.Float64(), Z: r.Float64()})
		}
		objects := 1 + r.IntN(6)
		for o := range objects {
			m.Objects = append(m.Objects, string(rune('a'+o)))
		}
		for range 200 {
			m.Tris = append(m.Tris, [3]int32{int32(r.IntN(50)), int32(r.IntN(50)), int32(r.IntN(50))})
			m.Object = append(m.Object, int32(r.IntN(objects)))
		}
		if got, want := SceneObjects(m), sceneObjectsByScanning(m); !reflect.DeepEqual(got, want) {
			t.Fatalf("%d objects: the meshes differ from a scan of the scene", objects)
		}
	}
}

// BenchmarkSceneObjectsOfManyObjects: 16,000 objects of 38 triangles (608k
// in all), what a scene of many small parts sends the page at start and
// at every reload.
func BenchmarkSceneObjectsOfManyObjects(b *testing.B) {
	m := &env.Mesh{}
	for o := range 16000 {
		m.Objects = append(m.Objects, "part")
		base := int32(len(m.Verts))
		for k := range 21 {
			m.Verts = append(m.Verts, geom.Vec3{X: float64(o), Y: float64(k)})
		}
		for k := range 38 {
			m.Tris = append(m.Tris, [3]int32{base + int32(k%21), base + int32((k+1)%21), base + int32((k+2)%21)})
			m.Object = append(m.Object, int32(o))
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		SceneObjects(m)
	}
}
