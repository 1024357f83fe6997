package handmodel

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path/filepath"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/gloved/gloved/geom"
	"github.com/gloved/gloved/gltfdoc"
	"github.com/gloved/gloved/internal/userfile"
)

// What a skinned hand's file may make the reader do: a rendered hand has
// a few thousand vertices, 25 or 26 joints and is well under a megabyte;
// the bounds keep a malformed file from costing the daemon's memory.
const (
	maxSkinFileBytes = 64 << 20 // the file and the buffers it names
	maxSkinVerts     = 1 << 20
	maxSkinJoints    = 1 << 10
)

// skinFile is what a skinned hand's file may be.
var skinFile = userfile.Kind{Name: "a skinned hand (.gltf or .glb)", MaxBytes: maxSkinFileBytes}

// LoadSkin reads the first skinned mesh of a glTF 2.0 file (.gltf or .glb).
func LoadSkin(path string) (*Skin, error) {
	b, err := userfile.ReadFile(path, skinFile)
	if err != nil {
		return nil, fmt.Errorf("handmodel: skin: %w", err)
	}
	s, err := ReadSkin(b, gltfdoc.DirFS(filepath.Dir(path)))
	if err != nil {
		return nil, fmt.Errorf("handmodel: skin %s: %w", path, err)
	}
	return s, nil
}

// ReadSkin reads the first skinned mesh of a glTF 2.0 document (GLB, or
// JSON whose external buffers are read from fsys) through package
// gltfdoc, which checks every accessor against its buffer before it is
// read, so a malformed file is an error, never a large allocation.
func ReadSkin(b []byte, fsys fs.FS) (*Skin, error) {
	f, err := gltfdoc.Read(b, fsys, maxSkinFileBytes)
	if err != nil {
		return nil, fmt.Errorf("not glTF: %w", err)
	}
	node, err := skinnedNode(f)
	if err != nil {
		return nil, err
	}
	s := &Skin{}
	if err := s.readJoints(f, node.Skin); err != nil {
		return nil, err
	}
	for i, p := range f.Primitives(node.Mesh) {
		if err := s.readPrimitive(f, p); err != nil {
			return nil, fmt.Errorf("mesh %d primitive %d: %w", node.Mesh, i, err)
		}
	}
	if len(s.Tris) == 0 {
		return nil, errors.New("the skinned mesh has no triangles")
	}
	return s, nil
}

// skinnedNode returns the first node with both a mesh and a skin.
func skinnedNode(f *gltfdoc.File) (*gltfdoc.Node, error) {
	for i := range f.Nodes {
		n := &f.Nodes[i]
		if n.Mesh < 0 || n.Skin < 0 {
			continue
		}
		if int(n.Mesh) >= len(f.Meshes) || int(n.Skin) >= len(f.Skins) {
			return nil, fmt.Errorf("node %q names a mesh or skin that does not exist", n.Name)
		}
		return n, nil
	}
	return nil, errors.New("no skinned mesh (a node with both a mesh and a skin)")
}

// jointWorlds returns each joint node's world transform: its ancestors'
// local transforms composed down from a node that is nobody's child.
// The node graph must be a forest where it leads to a joint.
func jointWorlds(f *gltfdoc.File, joints []int32) ([]mgl64.Mat4, error) {
	first := make([]int32, len(f.Nodes)) // the first slot of a joint node, or -1
	for i := range first {
		first[i] = -1
	}
	for k, j := range joints {
		if j < 0 || int(j) >= len(f.Nodes) {
			return nil, fmt.Errorf("the skin names joint node %d, which does not exist", j)
		}
		if first[j] < 0 {
			first[j] = int32(k)
		}
	}
	world, placed := make([]mgl64.Mat4, len(joints)), make([]bool, len(joints))
	err := f.Place(f.Parentless(), 0, func(n int32, w *mgl64.Mat4) error {
		if k := first[n]; k >= 0 {
			world[k], placed[k] = *w, true
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for k, j := range joints {
		if !placed[first[j]] {
			return nil, fmt.Errorf("joint %q: its node is on a cycle of the node graph", f.Nodes[j].Name)
		}
		world[k] = world[first[j]]
	}
	return world, nil
}

// readJoints takes skin si's joint names, rest transforms and inverse bind
// matrices (the identity where the file gives none).
func (s *Skin) readJoints(f *gltfdoc.File, si int32) error {
	joints := f.SkinJoints(si)
	if len(joints) == 0 || len(joints) > maxSkinJoints {
		return fmt.Errorf("the skin has %d joints, want 1 to %d", len(joints), maxSkinJoints)
	}
	world, err := jointWorlds(f, joints)
	if err != nil {
		return err
	}
	for k, j := range joints {
		name := f.Nodes[j].Name
		if !finiteMat(world[k]) {
			return fmt.Errorf("joint %q: its node's matrix is not finite", name)
		}
		if !affineMat(world[k]) {
			return fmt.Errorf("joint %q: its node's matrix is not affine (glTF wants the last row 0 0 0 1)", name)
		}
		s.Joints, s.Rest = append(s.Joints, name), append(s.Rest, world[k])
	}
	ib := f.Skins[si].InverseBind
	if ib < 0 {
		for range joints {
			s.InverseBind = append(s.InverseBind, mgl64.Ident4())
		}
		return nil
	}
	if s.InverseBind, err = readInverseBind(f, ib, len(joints)); err != nil {
		return fmt.Errorf("inverse bind matrices: %w", err)
	}
	return nil
}

// readInverseBind reads accessor i's n inverse bind matrices, each finite
// and affine.
func readInverseBind(f *gltfdoc.File, i int32, n int) ([]mgl64.Mat4, error) {
	acc, err := f.Matrices(i)
	if err != nil {
		return nil, err
	}
	if acc.Count() != n {
		return nil, fmt.Errorf("accessor %d has %d, for %d joints", i, acc.Count(), n)
	}
	out := make([]mgl64.Mat4, n)
	if err := acc.ReadMatrices(out); err != nil {
		return nil, err
	}
	for k, x := range out {
		if !finiteMat(x) {
			return nil, fmt.Errorf("matrix %d: a value is not finite", k)
		}
		if !affineMat(x) {
			return nil, fmt.Errorf("matrix %d is not affine (glTF wants the last row 0 0 0 1)", k)
		}
	}
	return out, nil
}

// affineMat reports whether m's last row is 0 0 0 1, to float32 rounding:
// skinning applies joint moves as affine maps.
func affineMat(m mgl64.Mat4) bool {
	const tol = 1e-6
	return math.Abs(m[3]) <= tol && math.Abs(m[7]) <= tol && math.Abs(m[11]) <= tol && math.Abs(m[15]-1) <= tol
}

// finiteMat reports whether every entry of m is finite.
func finiteMat(m mgl64.Mat4) bool {
	for _, x := range m {
		if !geom.Finite(x) {
			return false
		}
	}
	return true
}
