package env

import (
	"fmt"
	"strings"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/hschendel/stl"

	"github.com/gloved/gloved/geom"
)

// loadSTL reads a binary or ASCII STL file (hschendel/stl decides which) as
// one object, named by an ASCII file's solid name or else by the file. STL
// repeats every corner, so identical corners are welded into shared vertices.
func loadSTL(path string) (*Mesh, error) {
	solid, err := stl.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("env: %s: %w", path, err)
	}
	m := &Mesh{}
	// A binary STL's 80-byte header is free text, often an exporter's
	// banner, so only an ASCII file's solid name names the object.
	name := strings.TrimSpace(solid.Name)
	if !solid.IsAscii || name == "" {
		name = baseName(path)
	}
	obj := m.addObject(name)
	weld := make(map[stl.Vec3]int32, len(solid.Triangles))
	for ti, t := range solid.Triangles {
		var tri [3]int32
		for k, v := range t.Vertices {
			p := mgl64.Vec3{float64(v[0]), float64(v[1]), float64(v[2])}
			if !geom.Finite3(p) {
				return nil, fmt.Errorf("env: %s: facet %d corner %d %v: %w", path, ti+1, k+1, v, ErrNonFinite)
			}
			i, ok := weld[v]
			if !ok {
				i = int32(len(m.Verts))
				weld[v] = i
				m.Verts = append(m.Verts, p)
			}
			tri[k] = i
		}
		m.Tris = append(m.Tris, tri)
		m.Object = append(m.Object, obj)
	}
	return m, nil
}
