package env

import (
	"errors"
	"fmt"
	"io/fs"
	"iter"

	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/gltfdoc"
	"github.com/gloved/gloved/internal/bytesize"
)

// readGLTF reads a glTF 2.0 scene (.gltf JSON, or GLB; external buffers
// are read from fsys) through package gltfdoc: every node with a mesh
// becomes an object named after the node (or its mesh, or its index), its
// triangles placed by the node's world transform. TRIANGLES,
// TRIANGLE_STRIP and TRIANGLE_FAN primitives are read; points and lines
// carry no surface and are skipped.
//
// The node graph is walked twice: first to check every reference and
// accessor and count what the scene expands to, which must fit meshBudget
// and maxObjects; then, into arrays made at that size, to place the
// triangles.
func readGLTF(b []byte, fsys fs.FS) (*Mesh, error) {
	f, err := gltfdoc.Read(b, fsys, maxFileBytes)
	if err != nil {
		return nil, err
	}
	roots, err := f.Roots()
	if err != nil {
		return nil, err
	}
	d := gltfScene{f}
	s, err := d.survey(roots)
	if err != nil {
		return nil, err
	}
	m := &Mesh{
		Verts:   make([]geom.Vec3, 0, s.verts),
		Tris:    make([][3]int32, 0, s.tris),
		Object:  make([]int32, 0, s.tris),
		Objects: make([]string, 0, s.objects),
	}
	if err := d.build(m, roots, s); err != nil {
		return nil, err
	}
	return m, nil
}

// gltfScene is a glTF document read as a scene.
type gltfScene struct{ *gltfdoc.File }

// gltfSurvey is what a scene expands to.
type gltfSurvey struct {
	verts, tris int64
	objects     int
	depth       int // the most nodes on a path from a root
	indices     int // the longest index accessor
}

// survey walks the node graph from roots, checking every reference, and
// every accessor a triangle primitive reads against its buffer, and counts
// what the scene expands to, failing as soon as that passes the budget.
func (d gltfScene) survey(roots iter.Seq[int32]) (gltfSurvey, error) {
	var s gltfSurvey
	err := d.Walk(roots, func(n int32, depth int) error {
		s.depth = max(s.depth, depth)
		return d.surveyMesh(&s, n)
	})
	return s, err
}

// surveyMesh adds node n's mesh, if it has one, to s.
func (d gltfScene) surveyMesh(s *gltfSurvey, n int32) error {
	nd := &d.Nodes[n]
	if nd.Mesh < 0 {
		return nil
	}
	if int(nd.Mesh) >= len(d.Meshes) {
		return fmt.Errorf("node %d %q: mesh %d out of range (%d meshes)", n, nd.Name, nd.Mesh, len(d.Meshes))
	}
	s.objects++
	if s.objects > maxObjects {
		return fmt.Errorf("more than %d nodes with meshes: %w", maxObjects, ErrTooBig)
	}
	for pi, p := range d.Primitives(nd.Mesh) {
		pos, idx, err := d.primitive(p)
		if err != nil {
			return fmt.Errorf("node %d %q primitive %d: %w", n, d.objectName(n), pi, err)
		}
		if pos.Count() == 0 {
			continue // not a surface
		}
		s.verts += int64(pos.Count())
		s.tris += int64(triangles(p.Mode, pos, idx))
		s.indices = max(s.indices, idx.Count())
		if need := meshBytes(s.verts, s.tris); need > meshBudget(d.BytesRead()) {
			return fmt.Errorf("node %d %q: the scene expands to more than %s of triangles from %s of file: %w",
				n, d.objectName(n), bytesize.Format(need), bytesize.Format(d.BytesRead()), ErrTooBig)
		}
	}
	return nil
}

// primitive returns a primitive's checked POSITION and indices accessors;
// both have count 0 for a primitive of points or lines, idx for one
// without indices.
func (d gltfScene) primitive(p gltfdoc.Primitive) (pos, idx gltfdoc.Accessor, err error) {
	switch p.Mode {
	case gltfdoc.Triangles, gltfdoc.TriangleStrip, gltfdoc.TriangleFan:
	case 0, 1, 2, 3:
		return pos, idx, nil
	default:
		return pos, idx, fmt.Errorf("mode %d: want 0 to 6", p.Mode)
	}
	if p.Position < 0 {
		return pos, idx, errors.New("no POSITION attribute")
	}
	if pos, err = d.Positions(p.Position); err != nil {
		return pos, idx, err
	}
	if p.Indices >= 0 {
		idx, err = d.Indices(p.Indices)
	}
	return pos, idx, err
}

// triangles is how many triangles a primitive of mode makes from its
// indices, or its positions if it has none.
func triangles(mode int32, pos, idx gltfdoc.Accessor) int {
	n := pos.Count()
	if idx.Count() > 0 {
		n = idx.Count()
	}
	if mode == gltfdoc.Triangles {
		return n / 3
	}
	return max(n-2, 0)
}

// objectName names node n's object: the node's name, its mesh's, or
// "node" and its index.
func (d gltfScene) objectName(n int32) string {
	nd := &d.Nodes[n]
	switch {
	case nd.Name != "":
		return nd.Name
	case nd.Mesh >= 0 && int(nd.Mesh) < len(d.Meshes) && d.Meshes[nd.Mesh].Name != "":
		return d.Meshes[nd.Mesh].Name
	}
	return fmt.Sprintf("node%d", n)
}
