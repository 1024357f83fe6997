package env

import (
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"slices"
	"strings"

	"github.com/go-gl/mathgl/mgl64"
)

// glTF primitive modes that carry a surface (specification 3.7.2.1).
const (
	gltfTriangles     = 4
	gltfTriangleStrip = 5
	gltfTriangleFan   = 6
)

// gltfUnread are required extensions that change how geometry is stored:
// a file that needs one cannot be read without it.
var gltfUnread = []string{"KHR_draco_mesh_compression", "EXT_meshopt_compression", "KHR_mesh_quantization"}

// readGLTF reads a glTF 2.0 scene (.gltf JSON, or GLB; external buffers
// are read from fsys): every node with a mesh becomes an object named after
// the node (or its mesh, or its index), its triangles placed by the node's
// world transform. TRIANGLES, TRIANGLE_STRIP and TRIANGLE_FAN primitives
// are read; points and lines carry no surface and are skipped.
//
// The node graph is walked twice, iteratively, whatever its depth: first
// to check every reference and accessor and count what the scene expands
// to, which must fit meshBudget and maxObjects; then, into arrays made at
// that size, to place the triangles.
func readGLTF(b []byte, fsys fs.FS) (*Mesh, error) {
	js, bin, glb := b, []byte(nil), len(b) >= 4 && string(b[:4]) == "glTF"
	var err error
	if glb {
		if js, bin, err = splitGLB(b); err != nil {
			return nil, err
		}
	}
	doc, err := decodeGLTF(js)
	if err != nil {
		return nil, err
	}
	if !strings.HasPrefix(doc.version, "2.") {
		return nil, fmt.Errorf("glTF asset version %.20q, want 2.x", doc.version)
	}
	d, err := loadBuffers(doc, bin, glb, fsys, len(b))
	if err != nil {
		return nil, err
	}
	roots, err := doc.roots()
	if err != nil {
		return nil, err
	}
	s, err := d.survey(roots)
	if err != nil {
		return nil, err
	}
	m := &Mesh{
		Verts:   make([]mgl64.Vec3, 0, s.verts),
		Tris:    make([][3]int32, 0, s.tris),
		Object:  make([]int32, 0, s.tris),
		Objects: make([]string, 0, s.objects),
	}
	if err := d.build(m, roots, s); err != nil {
		return nil, err
	}
	return m, nil
}

// roots returns the scene's root nodes: those of the default scene, else
// of the first, else (no scene) every node that is nobody's child.
func (doc *gltfDoc) roots() (iter.Seq[int32], error) {
	switch {
	case doc.scene >= 0 && int(doc.scene) >= len(doc.scenes):
		return nil, fmt.Errorf("scene %d: out of range (%d scenes)", doc.scene, len(doc.scenes))
	case doc.scene >= 0:
		return slices.Values(doc.list(doc.scenes[doc.scene])), nil
	case len(doc.scenes) > 0:
		return slices.Values(doc.list(doc.scenes[0])), nil
	}
	child := make([]bool, len(doc.nodes))
	for _, c := range doc.ints { // with no scenes, every int is a child
		if int(c) < len(child) {
			child[c] = true
		}
	}
	return func(yield func(int32) bool) {
		for i, c := range child {
			if !c && !yield(int32(i)) {
				return
			}
		}
	}, nil
}

// walk visits every node below roots once, depth first, failing on a node
// out of range or reached twice (a cycle, or a child with two parents).
// Its stack is the current path, made with room for depth nodes. With
// place, visit gets each node's world transform; without, nil.
func (d *gltfData) walk(roots iter.Seq[int32], depth int, place bool, visit func(n int32, world *mgl64.Mat4, depth int) error) error {
	type frame struct{ node, next int32 } // next: the child to visit next
	path := make([]frame, 0, depth)
	var worlds []mgl64.Mat4
	if place {
		worlds = make([]mgl64.Mat4, 0, depth)
	}
	seen := make([]bool, len(d.doc.nodes))
	enter := func(n int32) error {
		if n < 0 || int(n) >= len(seen) {
			return fmt.Errorf("node %d: out of range (%d nodes)", n, len(seen))
		}
		if seen[n] {
			return fmt.Errorf("node %d: appears twice in the node graph (cycle or shared child)", n)
		}
		seen[n] = true
		path = append(path, frame{node: n})
		if !place {
			return visit(n, nil, len(path))
		}
		parent := mgl64.Ident4()
		if len(worlds) > 0 {
			parent = worlds[len(worlds)-1]
		}
		worlds = append(worlds, d.doc.nodes[n].world(parent))
		return visit(n, &worlds[len(worlds)-1], len(path))
	}
	for r := range roots {
		if err := enter(r); err != nil {
			return err
		}
		for len(path) > 0 {
			f := &path[len(path)-1]
			children := d.doc.list(d.doc.nodes[f.node].children)
			if int(f.next) == len(children) {
				path = path[:len(path)-1]
				worlds = worlds[:min(len(worlds), len(path))]
				continue
			}
			n, c := f.node, children[f.next]
			f.next++
			if err := enter(c); err != nil {
				return fmt.Errorf("node %d's child: %w", n, err)
			}
		}
	}
	return nil
}

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
func (d *gltfData) survey(roots iter.Seq[int32]) (gltfSurvey, error) {
	var s gltfSurvey
	err := d.walk(roots, 0, false, func(n int32, _ *mgl64.Mat4, depth int) error {
		s.depth = max(s.depth, depth)
		return d.surveyMesh(&s, n)
	})
	return s, err
}

// surveyMesh adds node n's mesh, if it has one, to s.
func (d *gltfData) surveyMesh(s *gltfSurvey, n int32) error {
	nd := &d.doc.nodes[n]
	if nd.mesh < 0 {
		return nil
	}
	if int(nd.mesh) >= len(d.doc.meshes) {
		return fmt.Errorf("node %d %q: mesh %d out of range (%d meshes)", n, nd.name, nd.mesh, len(d.doc.meshes))
	}
	s.objects++
	if s.objects > maxObjects {
		return fmt.Errorf("more than %d nodes with meshes: %w", maxObjects, ErrTooBig)
	}
	for pi, p := range d.doc.primitives(nd.mesh) {
		pos, idx, err := d.primitive(p)
		if err != nil {
			return fmt.Errorf("node %d %q primitive %d: %w", n, d.objectName(n), pi, err)
		}
		if pos.count == 0 {
			continue // not a surface
		}
		s.verts += int64(pos.count)
		s.tris += int64(triangles(p.mode, pos, idx))
		s.indices = max(s.indices, idx.count)
		if need := meshBytes(s.verts, s.tris); need > meshBudget(d.read) {
			return fmt.Errorf("node %d %q: the scene expands to more than %s of triangles from %s of file: %w",
				n, d.objectName(n), byteSize(need), byteSize(d.read), ErrTooBig)
		}
	}
	return nil
}

// primitives returns mesh mi's primitives.
func (d *gltfDoc) primitives(mi int32) []gltfPrimitive {
	s := d.meshes[mi].prims
	return d.prims[s.start : s.start+s.n]
}

// primitive returns a primitive's checked POSITION and indices accessors;
// both have count 0 for a primitive of points or lines, idx for one
// without indices.
func (d *gltfData) primitive(p gltfPrimitive) (pos, idx accessor, err error) {
	switch p.mode {
	case gltfTriangles, gltfTriangleStrip, gltfTriangleFan:
	case 0, 1, 2, 3:
		return pos, idx, nil
	default:
		return pos, idx, fmt.Errorf("mode %d: want 0 to 6", p.mode)
	}
	if p.position < 0 {
		return pos, idx, errors.New("no POSITION attribute")
	}
	if pos, err = d.positions(p.position); err != nil {
		return pos, idx, err
	}
	if p.indices >= 0 {
		idx, err = d.indices(p.indices)
	}
	return pos, idx, err
}

// triangles is how many triangles a primitive of mode makes from its
// indices, or its positions if it has none.
func triangles(mode int32, pos, idx accessor) int {
	n := pos.count
	if idx.count > 0 {
		n = idx.count
	}
	if mode == gltfTriangles {
		return n / 3
	}
	return max(n-2, 0)
}

// objectName names node n's object: the node's name, its mesh's, or
// "node" and its index.
func (d *gltfData) objectName(n int32) string {
	nd := &d.doc.nodes[n]
	switch {
	case nd.name != "":
		return nd.name
	case nd.mesh >= 0 && int(nd.mesh) < len(d.doc.meshes) && d.doc.meshes[nd.mesh].name != "":
		return d.doc.meshes[nd.mesh].name
	}
	return fmt.Sprintf("node%d", n)
}
