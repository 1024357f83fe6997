package gltfdoc_test

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/gltfdoc"
)

// A triangle on a node moved 2 m along x: Read checks the document, Roots
// and Place walk its node graph, Positions checks an accessor before
// EachVec3 reads it.
func ExampleRead() {
	doc := `{"asset":{"version":"2.0"},
	  "nodes":[{"name":"plate","mesh":0,"translation":[2,0,0]}],
	  "meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],
	  "accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"}],
	  "bufferViews":[{"buffer":0,"byteLength":36}],
	  "buffers":[{"byteLength":36,"uri":"data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA"}]}`
	f, err := gltfdoc.Read([]byte(doc), nil, 1<<20)
	if err != nil {
		fmt.Println(err)
		return
	}
	roots, _ := f.Roots()
	err = f.Place(roots, 0, func(n int32, world *mgl64.Mat4) error {
		for _, p := range f.Primitives(f.Nodes[n].Mesh) {
			pos, err := f.Positions(p.Position)
			if err != nil {
				return err
			}
			if err := pos.EachVec3(func(k int, v [3]float32) error {
				x := mgl64.TransformCoordinate(mgl64.Vec3{float64(v[0]), float64(v[1]), float64(v[2])}, *world)
				fmt.Println(f.Nodes[n].Name, k, x)
				return nil
			}); err != nil {
				return err
			}
		}
		return nil
	})
	fmt.Println(err)
	// Output:
	// plate 0 [2 0 0]
	// plate 1 [3 0 0]
	// plate 2 [2 1 0]
	// <nil>
}
